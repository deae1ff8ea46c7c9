#include "libanalysis/core/json_run_reader.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace tfa {

bool ReadJsonStringWithNlohmann(std::string_view quoted, std::string& out) {
  const auto value = nlohmann::json::parse(quoted, nullptr, /*allow_exceptions=*/false);
  if (!value.is_string()) return false;
  out = value.get_ref<const std::string&>();
  return true;
}

// nlohmann reads a float with strtod in the C locale; from_chars rounds as correctly, without
// the locale or a terminating copy.
bool ReadJsonFloat(std::string_view token, double& out) {
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), out);
  return error == std::errc() && end == token.data() + token.size() && std::isfinite(out);
}

}  // namespace tfa
