// Loads a delegate from a plugin shared library (plugin_abi.h), as TFLite's benchmark and
// evaluation tools load `--external_delegate_path` with `--external_delegate_options`.
#ifndef RUNTIME_DELEGATES_PLUGIN_EXTERNAL_DELEGATE_H_
#define RUNTIME_DELEGATES_PLUGIN_EXTERNAL_DELEGATE_H_

#include <memory>
#include <string>

#include "libanalysis/core/status.h"
#include "runtime/delegate.h"
#include "runtime/delegates/delegate_options.h"

namespace tfa::runtime {

// Opens `path`, finds both ABI functions and creates the delegate with `options`. The returned
// delegate owns the library, closed once the plugin's delegate is destroyed; the kernels the
// delegate creates run plugin code, so interpreters using it must go first (as for any delegate).
// Errors name the path: a library that does not open, a missing symbol, or the plugin's own
// reported message.
[[nodiscard]] Result<std::unique_ptr<Delegate>> LoadExternalDelegate(
    const std::string& path, const DelegateOptions& options = {});

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_PLUGIN_EXTERNAL_DELEGATE_H_
