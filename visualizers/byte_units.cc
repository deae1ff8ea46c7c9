#include "visualizers/byte_units.h"

#include <fmt/format.h>

#include <array>

namespace tfa::viz {

std::string HumanBytes(uint64_t bytes) {
  if (bytes < 1000) return fmt::format("{} B", bytes);
  static constexpr std::array<const char*, 6> kUnits = {"kB", "MB", "GB", "TB", "PB", "EB"};
  double value = static_cast<double>(bytes) / 1000.0;
  size_t unit = 0;
  // 999,960 bytes would print as "1000.0 kB"; move up while the rounded value reaches 1000.
  while (value >= 999.95 && unit + 1 < kUnits.size()) {
    value /= 1000.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

}  // namespace tfa::viz
