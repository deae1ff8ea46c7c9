// Accelerators that are not delegates. A compiler (edgetpu_compiler) replaces the part of the
// model its chip runs with one custom op whose custom options hold the compiled program, and the
// accelerator's runtime registers that op with the interpreter's op resolver
// (google-coral/libedgetpu tflite/custom_op.cc: the program comes from the op's init data, its
// custom options). TFLite sees a CPU node like any other: it plans the op's outputs in its arena,
// and the op's inputs and outputs cross to the chip and back on every inference.
//
// What this does not know: how the chip keeps the program's parameters (on-chip caching, or
// streaming them on every inference), and how long the chip takes; the custom options are opaque
// here.
#ifndef LIBANALYSIS_REPORT_ACCELERATOR_SEGMENTS_H_
#define LIBANALYSIS_REPORT_ACCELERATOR_SEGMENTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa {

// One accelerator custom op of the execution plan.
struct AcceleratorSegment {
  std::string accelerator;       // "edgetpu"
  int32_t node = 0;              // the model's node index
  std::string op;                // its custom code
  uint64_t program_bytes = 0;    // the custom options: the compiled program
  std::vector<int32_t> inputs;   // non-constant inputs, copied to the chip on every inference
  std::vector<int32_t> outputs;  // copied back on every inference
  uint64_t bytes_in = 0;
  uint64_t bytes_out = 0;
};

struct AcceleratorReport {
  std::vector<AcceleratorSegment> segments;  // in plan order
  std::vector<int32_t> cpu_nodes;            // the CPU remainder: every other planned node
  std::vector<std::string> unknowns;         // what the analysis cannot say, one sentence each
};

// The accelerator a custom op's code belongs to ("edgetpu"), or empty.
std::string_view AcceleratorOfCustomOp(std::string_view custom_code);

// The accelerator segments of `graph`'s execution plan, sized on `graph` (the graph the arena was
// planned on, for Prepare's shapes); nullopt when the plan has none.
std::optional<AcceleratorReport> FindAcceleratorSegments(const Subgraph& graph);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_ACCELERATOR_SEGMENTS_H_
