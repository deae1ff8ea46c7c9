// Byte counts as people read them: "512 B", "4.1 kB", "1.2 MB" (decimal SI units, one decimal).
// The one formatter of the tool: the report, the advisor, gate, diff and every picture print
// sizes through it, so one size reads the same everywhere.
#ifndef LIBANALYSIS_CORE_BYTE_UNITS_H_
#define LIBANALYSIS_CORE_BYTE_UNITS_H_

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

namespace tfa {

inline std::string HumanBytes(uint64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  static constexpr std::array<const char*, 6> kUnits = {"kB", "MB", "GB", "TB", "PB", "EB"};
  double value = static_cast<double>(bytes) / 1000.0;
  size_t unit = 0;
  // 999,960 bytes would print as "1000.0 kB"; move up while the rounded value reaches 1000.
  while (value >= 999.95 && unit + 1 < kUnits.size()) {
    value /= 1000.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_BYTE_UNITS_H_
