// The delegates this runtime can build, each with the command-line flag that turns it on, so
// the CLI offers one `--use-NAME-delegate` flag per delegate without knowing any of them, and a
// plugin library can build any of them by name (plugin_entry.cc).
#ifndef RUNTIME_DELEGATES_PLUGIN_DELEGATE_REGISTRY_H_
#define RUNTIME_DELEGATES_PLUGIN_DELEGATE_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/delegate.h"
#include "runtime/delegates/delegate_options.h"

namespace tfa::runtime {

using DelegateFactory = Result<std::unique_ptr<Delegate>> (*)(const DelegateOptions& options);

struct RegisteredDelegate {
  std::string name;  // the delegate's Name() and the profile the analyser predicts it with
  std::string flag;  // "--use-add-sub-delegate"
  std::string description;
  DelegateFactory create = nullptr;
};

// In a fixed order: add-sub, sin, gpu (OpenCL), xnnpack (libXNNPACK).
const std::vector<RegisteredDelegate>& RegisteredDelegates();

// The delegate called `name`, or nullptr.
const RegisteredDelegate* FindRegisteredDelegate(const std::string& name);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_PLUGIN_DELEGATE_REGISTRY_H_
