// "KEY=VALUE" as every option list takes it (--delegate-option, --external-delegate-option, a
// gate baseline's delegate options): split at the first '=', the key non-empty, the value may be
// empty or hold further '='.
#ifndef LIBANALYSIS_CORE_KEY_VALUE_H_
#define LIBANALYSIS_CORE_KEY_VALUE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace tfa {

inline std::optional<std::pair<std::string, std::string>> SplitKeyValue(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  return std::pair<std::string, std::string>(text.substr(0, eq), text.substr(eq + 1));
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_KEY_VALUE_H_
