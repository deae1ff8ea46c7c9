#include "cli/number_flags.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include "cli/command.h"

namespace tfa::cli {
namespace {

// The whole of `text` read by from_chars, which takes plain decimal only (no '+', no spaces, no
// base prefixes) and reports overflow instead of wrapping.
template <typename T>
bool ReadWhole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return !text.empty() && error == std::errc() && stop == end;
}

}  // namespace

int64_t IntegerFlagOrThrow(const std::string& flag, const std::string& text, int64_t min,
                           int64_t max) {
  int64_t value = 0;
  if (!ReadWhole(text, value) || value < min || value > max) {
    throw CommandError{flag + ": expected an integer from " + std::to_string(min) + " to " +
                       std::to_string(max) + ", got \"" + text + "\""};
  }
  return value;
}

uint64_t UnsignedFlagOrThrow(const std::string& flag, const std::string& text, uint64_t max) {
  uint64_t value = 0;
  if (!ReadWhole(text, value) || value > max) {
    throw CommandError{flag + ": expected an integer from 0 to " + std::to_string(max) +
                       ", got \"" + text + "\""};
  }
  return value;
}

double NonNegativeRealFlagOrThrow(const std::string& flag, const std::string& text) {
  double value = 0;
  if (!ReadWhole(text, value) || !std::isfinite(value) || value < 0) {
    throw CommandError{flag + ": expected a number >= 0, got \"" + text + "\""};
  }
  return value;
}

CLI::Option* AddUnsignedOption(CLI::App* command, const std::string& name,
                               std::function<void(uint64_t)> set, const std::string& description,
                               uint64_t max) {
  return command->add_option_function<std::string>(
      name,
      [name, set, max](const std::string& text) { set(UnsignedFlagOrThrow(name, text, max)); },
      description);
}

CLI::Option* AddNonNegativeRealOption(CLI::App* command, const std::string& name,
                                      std::function<void(double)> set,
                                      const std::string& description) {
  return command->add_option_function<std::string>(
      name, [name, set](const std::string& text) { set(NonNegativeRealFlagOrThrow(name, text)); },
      description);
}

}  // namespace tfa::cli
