// `run --profile`: where one Invoke's time went, node by node and op by op, like benchmark_model's
// op profiling (run order, per-node time, share of the total).
#ifndef CLI_RUN_PROFILE_H_
#define CLI_RUN_PROFILE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/interpreter.h"

namespace tfa::cli {

// Text: every node, slowest first (node, op, ms, share of the nodes' total), then every op type
// with its node count and total.
std::string ProfileText(const std::vector<runtime::NodeTiming>& timings);

// {"total_ms", "nodes": [{"node","op","ms","share"}] in run order, "ops": [{"op","nodes","ms",
// "share"}] slowest first}.
nlohmann::ordered_json ProfileJson(const std::vector<runtime::NodeTiming>& timings);

}  // namespace tfa::cli

#endif  // CLI_RUN_PROFILE_H_
