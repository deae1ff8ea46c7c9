// Finds the first node a delegate computes differently from the CPU kernels: what upstream ships
// only as a separate tool (LiteRT's culprit_finder), for `run --validate --find-divergence`.
//
// Each node the delegate takes is run by the delegate in isolation: the delegate is asked to
// claim only a batch of its nodes no two of which feed each other directly, and its kernels'
// boundary inputs are set to the CPU-only run's values before they run, so every node of the
// batch reads exactly the inputs the CPU kernels computed and the error it shows is its own, not
// the sum of the nodes before it (nor a CPU node's amplification of one, as CEIL makes a unit of
// a last-bit difference). A few runs cover every node (a chain takes two). All runs preserve every
// tensor and use the same deterministic inputs; each claimed node's outputs are compared with
// a CPU-only run's. The first node in execution order whose error leaves the tolerance is the
// culprit. The fp16 weight DEQUANTIZE nodes a delegate's FP16 helper folds are not run on their
// own: in a batch, as in any partial delegation, their consumers read the fp16 weights directly,
// so a fault in the folding shows at the consumer.
//
// The error of an element is |delegate - cpu| / max(1, |cpu|): absolute below 1, relative above,
// as `run --validate` compares outputs. Quantized integer outputs (int8, uint8, int16 with a
// scale) count their largest absolute difference in quantization steps, held against a tolerance
// of their own: a delegate that computes them in float (the GPU delegate) lands within a step of
// the CPU's integer kernels, not within a relative 1e-3. Outputs no node reads and no graph
// output names have no value to compare.
#ifndef RUNTIME_DIVERGENCE_FINDER_H_
#define RUNTIME_DIVERGENCE_FINDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/delegate.h"
#include "runtime/interpreter.h"

namespace tfa::runtime {

struct DivergenceOptions {
  double tolerance = 1e-3;     // of the error above
  double tolerance_steps = 1;  // of quantized integer outputs, in quantization steps
  uint64_t input_seed = 1;     // FillDeterministicInputs' seed
  // For all its interpreters together: the CPU run it keeps as the reference and the delegated
  // run beside it.
  uint64_t memory_limit_bytes = InterpreterOptions::kDefaultMemoryLimitBytes;
};

// One delegated node's error against the CPU kernels.
struct NodeError {
  int32_t node = -1;  // model node index
  std::string op;
  int32_t tensor = -1;  // its output with the largest error
  std::string tensor_name;
  double max_error = 0;      // max |delegate - cpu| / max(1, |cpu|), or steps if `in_steps`
  double max_abs_error = 0;  // max |delegate - cpu|
  bool in_steps = false;     // a quantized integer tensor: the errors count quantization steps
  bool beyond = false;       // beyond its tolerance
};

struct DivergenceReport {
  double tolerance = 0;
  double tolerance_steps = 0;
  int32_t runs = 0;                // delegated runs, besides the CPU-only one
  std::vector<NodeError> nodes;    // every delegated node compared, in execution order
  std::optional<NodeError> first;  // the first of them beyond the tolerance, if any
};

// Runs `model_path` with `delegate` as described above. Errors: the model cannot be created or
// invoked (with or without the delegate), or the delegate takes no node.
[[nodiscard]] Result<DivergenceReport> FindFirstDivergence(const std::string& model_path,
                                                           Delegate& delegate,
                                                           const DivergenceOptions& options = {});

}  // namespace tfa::runtime

#endif  // RUNTIME_DIVERGENCE_FINDER_H_
