#include "visualizers/palette.h"

#include <fmt/format.h>

#include <array>

namespace tfa::viz {
namespace {

struct PaletteEntry {
  const char* stroke;
  const char* fill;
};

constexpr std::array<PaletteEntry, 8> kDelegatePalette = {{
    {"#1f77b4", "#d6e6f5"},  // blue
    {"#e6730f", "#fde3c8"},  // orange
    {"#2ca02c", "#d5f0d5"},  // green
    {"#8e5cc4", "#e8dcf5"},  // purple
    {"#17a2a8", "#d0f0f1"},  // teal
    {"#8c564b", "#eadbd7"},  // brown
    {"#d6589f", "#f8dbeb"},  // pink
    {"#8a8f1a", "#eef0c8"},  // olive
}};

uint32_t Fnv1a(std::string_view text) {
  uint32_t hash = 0x811c9dc5u;
  for (char c : text) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x01000193u;
  }
  return hash;
}

}  // namespace

PartitionColour ColourForDelegate(std::string_view delegate) {
  const PaletteEntry& entry = kDelegatePalette[Fnv1a(delegate) % kDelegatePalette.size()];
  return {entry.stroke, entry.fill};
}

PartitionColour ColourForPartition(const PartitionReport& partition) {
  if (partition.kind == PartitionReport::Kind::kCpu) return {"#7f7f7f", "#ececec"};
  return ColourForDelegate(partition.delegate);
}

std::string ColourForTensor(int32_t tensor) {
  const double hue = static_cast<double>((static_cast<int64_t>(tensor) * 137508) % 360000) / 1000.0;
  return fmt::format("hsl({:.0f},62%,62%)", hue);
}

}  // namespace tfa::viz
