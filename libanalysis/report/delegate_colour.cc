#include "libanalysis/report/delegate_colour.h"

#include <array>
#include <cstdint>

namespace tfa {
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

DelegateColour ColourOfDelegate(std::string_view delegate) {
  const PaletteEntry& entry = kDelegatePalette[Fnv1a(delegate) % kDelegatePalette.size()];
  return {entry.stroke, entry.fill};
}

DelegateColour CpuColour() { return {"#7f7f7f", "#ececec"}; }

}  // namespace tfa
