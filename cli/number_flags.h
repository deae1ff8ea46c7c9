// Numbers given on the command line, read strictly: the whole value in plain decimal, in range,
// or one line naming the flag (exit 2). CLI11's own conversion wraps "-5" to 2^64-5, saturates
// 18446744073709551616 to 2^64-1 and reads "010" as octal, so numeric flags are taken as text and
// read here.
#ifndef CLI_NUMBER_FLAGS_H_
#define CLI_NUMBER_FLAGS_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

namespace tfa::cli {

// A decimal integer in [min, max]; a leading '-' only for negative numbers. Throws CommandError
// naming `flag` and the accepted range.
int64_t IntegerFlagOrThrow(const std::string& flag, const std::string& text, int64_t min,
                           int64_t max);

// A decimal integer in [0, max] (up to 2^64-1).
uint64_t UnsignedFlagOrThrow(const std::string& flag, const std::string& text,
                             uint64_t max = std::numeric_limits<uint64_t>::max());

// A finite decimal number >= 0 ("0.001", "1e-3"); no nan, inf or sign.
double NonNegativeRealFlagOrThrow(const std::string& flag, const std::string& text);

// Declares option `name` (e.g. "--input-seed") on `command`, read by the functions above when it
// is parsed; `set` receives the value. The CommandError of a bad value leaves CLI11's parse.
CLI::Option* AddUnsignedOption(CLI::App* command, const std::string& name,
                               std::function<void(uint64_t)> set, const std::string& description,
                               uint64_t max = std::numeric_limits<uint64_t>::max());
CLI::Option* AddNonNegativeRealOption(CLI::App* command, const std::string& name,
                                      std::function<void(double)> set,
                                      const std::string& description);

}  // namespace tfa::cli

#endif  // CLI_NUMBER_FLAGS_H_
