// Options given to a delegate by name, as `--delegate-option KEY=VALUE` and the external-delegate
// plugin ABI pass them: in order, keys may repeat (the last one wins where a delegate cares).
#ifndef RUNTIME_DELEGATES_DELEGATE_OPTIONS_H_
#define RUNTIME_DELEGATES_DELEGATE_OPTIONS_H_

#include <string>
#include <utility>
#include <vector>

namespace tfa::runtime {

using DelegateOptions = std::vector<std::pair<std::string, std::string>>;

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_DELEGATE_OPTIONS_H_
