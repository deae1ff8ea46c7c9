#include "cli/runtime_delegates.h"

#include "cli/command.h"
#include "delegates_sim/simulated_delegate.h"
#include "runtime/delegates/plugin/delegate_registry.h"
#include "runtime/delegates/plugin/external_delegate.h"

namespace tfa::cli {

RuntimeDelegate CreateRuntimeDelegate(const DelegateRequest& request) {
  // The runtime delegates choose nodes with the profile's own partition settings; per-run
  // overrides would make the prediction and the run disagree silently. The OpenCL delegate
  // takes --max-partitions as upstream's GPU delegate option max_delegated_partitions.
  const bool gpu_max_partitions = request.spec == "gpu" && request.max_partitions;
  if ((request.max_partitions && !gpu_max_partitions) || request.min_nodes_per_partition ||
      request.no_greedy) {
    throw CommandError{
        "run: --delegate " + request.spec +
        ": --max-partitions (except for gpu), --min-nodes-per-partition and --no-greedy are "
        "analysis-only options (use report)"};
  }
  if (const runtime::RegisteredDelegate* registered =
          runtime::FindRegisteredDelegate(request.spec)) {
    auto options = request.options;
    if (gpu_max_partitions)
      options.emplace_back("max_delegated_partitions", std::to_string(*request.max_partitions));
    auto delegate = registered->create(options);
    if (!delegate.ok())
      throw CommandError{"--delegate " + request.spec + ": " + delegate.status().message()};
    const std::string kind = request.spec == "gpu"       ? "opencl"
                             : request.spec == "xnnpack" ? "xnnpack"
                                                         : "sample";
    return {std::move(delegate).value(), kind};
  }
  auto simulated = runtime::CreateSimulatedDelegate(request.spec, request.options);
  if (!simulated.ok())
    throw CommandError{"--delegate " + request.spec + ": " + simulated.status().message()};
  return {std::move(simulated).value(), "simulated"};
}

RuntimeDelegate LoadPluginDelegate(
    const std::string& path, const std::vector<std::pair<std::string, std::string>>& options) {
  auto delegate = runtime::LoadExternalDelegate(path, options);
  if (!delegate.ok()) throw CommandError{delegate.status().message()};
  return {std::move(delegate).value(), "plugin"};
}

}  // namespace tfa::cli
