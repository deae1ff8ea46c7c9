// The runtime delegate that executes each --delegate of `run`: the OpenCL delegate for `gpu`, the
// libXNNPACK delegate for `xnnpack`, the sample delegates for `add-sub` and `sin`, a simulated
// delegate (CPU kernels, profile costs) for every other profile, and external plugins.
#ifndef CLI_RUNTIME_DELEGATES_H_
#define CLI_RUNTIME_DELEGATES_H_

#include <memory>
#include <string>
#include <vector>

#include "libanalysis/report/report_builder.h"
#include "runtime/delegate.h"

namespace tfa::cli {

struct RuntimeDelegate {
  std::unique_ptr<runtime::Delegate> delegate;
  std::string kind;  // "opencl", "xnnpack", "sample", "simulated", "plugin"
};

// Throws CommandError when a request cannot run (unknown delegate, no OpenCL platform, or a
// partition option the runtime delegates do not take).
RuntimeDelegate CreateRuntimeDelegate(const DelegateRequest& request);

// `--external-delegate path.so` with its `--external-delegate-option k=v` pairs.
RuntimeDelegate LoadPluginDelegate(const std::string& path,
                                   const std::vector<std::pair<std::string, std::string>>& options);

}  // namespace tfa::cli

#endif  // CLI_RUNTIME_DELEGATES_H_
