// The verdict of `run --validate`, in two parts that each pass or fail:
// - the prediction: every figure the analyser predicted (partitions, copies, arenas, delegate
//   memory) against what the run measured;
// - the outputs: every output of the run against a reference run (the CPU-only run of the same
//   model), within a stated tolerance.
// A delegate's outputs beyond the tolerance while every delegated node is within it on the CPU's
// own inputs is drift the graph amplifies, not a kernel fault; it is still outputs that differ,
// so it passes only when the user accepts drift, and the verdict says by how much.
#ifndef CLI_RUN_VERDICT_H_
#define CLI_RUN_VERDICT_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "runtime/interpreter.h"

namespace tfa::cli {

// One predicted figure next to what the run measured.
struct Check {
  std::string figure;
  uint64_t predicted = 0;
  uint64_t measured = 0;
  // Below `predicted`, the least a correct run may measure (the arena: the top of what the plan
  // placed that some kernel must write); equal to `predicted` for the other figures.
  std::optional<uint64_t> least = std::nullopt;
  bool ok() const {
    return measured == predicted || (least && *least <= measured && measured < predicted);
  }
};

// One output of the run against the same output of a reference.
struct OutputComparison {
  int32_t tensor = 0;
  std::string name;
  double max_abs_error = 0;
  double max_rel_error = 0;
  double max_error = 0;   // relative to max(1, |reference|), or steps: what the tolerance bounds
  bool in_steps = false;  // a quantized integer output: the errors count quantization steps
  bool ok = true;
};

// Float outputs within `tolerance` of the reference, relative to max(1, |reference|); quantized
// integer outputs within `tolerance_steps` quantization steps; other types must match byte for
// byte.
OutputComparison CompareOutput(const runtime::RuntimeTensor& got,
                               const runtime::RuntimeTensor& want, int32_t tensor,
                               const std::string& name, double tolerance, double tolerance_steps);

// "0.0123 of max(1, |cpu|) (abs 0.0456)", or "3 quantization steps" for a quantized output.
std::string ErrorText(const OutputComparison& c, const char* reference);

// What the outputs part of the verdict found.
enum class OutputsState {
  kMatched,        // every output within the tolerance
  kDriftAccepted,  // beyond it, every delegated node within it, and --accept-drift given
  kDrift,          // beyond it, every delegated node within it
  kMismatch,       // beyond it, and a node is beyond it too (or no node check could tell)
  // Beyond it, while within it of upstream's own outputs for the run's delegate, which are beyond
  // it of the CPU-only run too (--upstream-outputs): the drift is upstream's own.
  kUpstreamDrift,
  // Not compared: the CPU kernels cannot run the model (a node only the delegate computes, such
  // as XNNPACK's blockwise INT4 FULLY_CONNECTED); upstream's outputs for the run's own delegate
  // (--upstream-outputs) alone judge them.
  kNoCpuRun,
};

struct OutputsVerdict {
  OutputsState state = OutputsState::kMatched;
  std::string reference;  // what the outputs were compared with: "the CPU-only run"
  std::string reference_symbol = "reference";  // its name in an error: "max(1, |cpu|)"
  std::string tolerance;  // in words: "1e-3 of max(1, |cpu|), quantized outputs 1 step"
  // The output furthest beyond the tolerance (or the furthest from the reference when all match).
  std::optional<OutputComparison> worst;
  // Why the node-by-node check could not tell drift from a fault, when it could not.
  std::string node_check_note;
  std::string no_cpu_run_reason;  // kNoCpuRun: why the CPU kernels cannot run the model
  bool ok() const {
    return state == OutputsState::kMatched || state == OutputsState::kDriftAccepted ||
           state == OutputsState::kUpstreamDrift || state == OutputsState::kNoCpuRun;
  }
};

// The outputs against upstream TFLite's own for one configuration (--upstream-outputs).
struct UpstreamVerdict {
  std::string config;  // upstream's: "none", "xnnpack"
  std::string file;
  std::string compared;  // the run of this tool that met them: "this run", "the CPU-only run"
  std::string tolerance;
  bool matched = true;
  std::optional<OutputComparison> worst;
  uint64_t values_compared = 0;
  uint64_t values_total = 0;
  size_t bit_identical_outputs = 0;
  size_t outputs = 0;
  // Upstream's delegate outputs against the CPU-only run (the worst output), when the file is the
  // delegated run's config: how far upstream's own delegate drifts from the CPU kernels.
  std::optional<OutputComparison> upstream_drift;
};

struct RunVerdict {
  std::vector<Check> checks;
  OutputsVerdict outputs;
  std::optional<UpstreamVerdict> upstream;
  // Other conditions that fail the run (the rerun on buffers of its own differed).
  std::vector<std::string> other_failures;

  bool PredictionOk() const;
  bool ok() const {
    const bool judged = outputs.state != OutputsState::kNoCpuRun || upstream.has_value();
    return PredictionOk() && outputs.ok() && judged && (!upstream || upstream->matched) &&
           other_failures.empty();
  }
};

// The output furthest beyond the tolerance, or the furthest from the reference when all are within
// it: quantized outputs count steps, float ones their relative error.
std::optional<OutputComparison> WorstOutput(const std::vector<OutputComparison>& outputs);

// The outputs part from each output's comparison and, when a node-by-node check ran, whether it
// found every delegated node within the tolerance (nullopt: it did not run or could not finish).
OutputsVerdict JudgeOutputs(const std::vector<OutputComparison>& outputs,
                            std::optional<bool> every_node_within, bool accept_drift,
                            std::string reference, std::string tolerance);

// Adds the comparison with upstream's outputs. Outputs beyond the tolerance of the CPU-only run
// whose upstream twins (the same delegate's) are beyond it too, while within it of upstream's, are
// upstream's own drift: the outputs part passes and says so.
void JudgeAgainstUpstream(RunVerdict& verdict, UpstreamVerdict upstream);

// The closing lines: each part on a line of its own, then VALIDATED or FAILED with the reason.
std::string VerdictText(const RunVerdict& verdict);
nlohmann::ordered_json VerdictJson(const RunVerdict& verdict);

}  // namespace tfa::cli

#endif  // CLI_RUN_VERDICT_H_
