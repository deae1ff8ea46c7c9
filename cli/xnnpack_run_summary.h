// What `run` says about the XNNPACK delegate's kernels: how many nodes ran on libXNNPACK, which
// ran on this runtime's CPU kernels and why, and the bytes libXNNPACK held for them.
#ifndef CLI_XNNPACK_RUN_SUMMARY_H_
#define CLI_XNNPACK_RUN_SUMMARY_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/delegates/xnnpack/xnnpack_partition_kernel.h"

namespace tfa::cli {

struct XnnpackRunSummary {
  std::string text;  // indented lines, each ending in a newline
  nlohmann::ordered_json json;
};

// The summary of one interpreter's kernels of the delegate called `name`.
XnnpackRunSummary SummarizeXnnpackRun(
    const std::string& name,
    const std::vector<std::shared_ptr<runtime::XnnpackPartitionStats>>& partitions);

}  // namespace tfa::cli

#endif  // CLI_XNNPACK_RUN_SUMMARY_H_
