#include "runtime/process_memory.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "libanalysis/core/checked_math.h"

namespace tfa::runtime {
namespace {

// The bytes of the line "`key`:   <number> kB" of `status`; nullopt when it is missing or
// malformed.
std::optional<uint64_t> KilobyteField(std::string_view status, std::string_view key) {
  size_t line = 0;
  while (line < status.size()) {
    const size_t end = std::min(status.find('\n', line), status.size());
    const std::string_view text = status.substr(line, end - line);
    line = end + 1;
    if (!text.starts_with(key) || text.size() <= key.size() || text[key.size()] != ':') continue;
    std::string_view value = text.substr(key.size() + 1);
    value.remove_prefix(std::min(value.find_first_not_of(" \t"), value.size()));
    uint64_t kilobytes = 0;
    const auto [rest, error] =
        std::from_chars(value.data(), value.data() + value.size(), kilobytes);
    if (error != std::errc{} || std::string_view(rest, value.data() + value.size()) != " kB")
      return std::nullopt;
    return CheckedMul(kilobytes, 1024);
  }
  return std::nullopt;
}

}  // namespace

Result<ResidentMemory> ParseProcStatus(std::string_view status) {
  const std::optional<uint64_t> current = KilobyteField(status, "VmRSS");
  const std::optional<uint64_t> peak = KilobyteField(status, "VmHWM");
  if (!current || !peak) return Status::Error("/proc/self/status: no VmRSS and VmHWM lines in kB");
  return ResidentMemory{*current, *peak};
}

Result<ResidentMemory> ReadResidentMemory() {
  std::ifstream in("/proc/self/status");
  if (!in)
    return Status::Error("/proc/self/status: cannot open (resident memory is read on Linux)");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseProcStatus(text.str());
}

}  // namespace tfa::runtime
