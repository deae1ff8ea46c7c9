// `run --profile`: where one Invoke's time went, node by node and op by op, like benchmark_model's
// op profiling (run order, per-node time, share of the total).
#ifndef CLI_RUN_PROFILE_H_
#define CLI_RUN_PROFILE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/interpreter.h"

namespace tfa::cli {

// How the runtime's CPU kernels (runtime/kernels/cpu) compute a node whose input 0 is int8 or
// uint8, for reading its time: "gemmlowp" (CONV_2D and FULLY_CONNECTED with 4 rows or more:
// quantized_gemm.h), "vectorised loop" (their matrix-vector loop below 4 rows, and
// DEPTHWISE_CONV_2D), "table" (LOGISTIC and TANH: a 256-entry lookup), "reference loop" (every
// other quantized kernel: upstream's reference arithmetic, element by element). Empty for other
// nodes (float kernels, delegate kernels).
std::string QuantizedKernelKind(const Subgraph& graph, const Node& node);

// Text: every node, slowest first (node, op, ms, share of the nodes' total, and for quantized
// nodes the kernel kind), then every op type with its node count and total. `graph` is the
// execution graph the timings' node indices refer to.
std::string ProfileText(const std::vector<runtime::NodeTiming>& timings, const Subgraph& graph);

// {"total_ms", "nodes": [{"node","op","ms","share","kernel"}] in run order ("kernel" for quantized
// nodes only), "ops": [{"op","nodes","ms","share"}] slowest first}.
nlohmann::ordered_json ProfileJson(const std::vector<runtime::NodeTiming>& timings,
                                   const Subgraph& graph);

}  // namespace tfa::cli

#endif  // CLI_RUN_PROFILE_H_
