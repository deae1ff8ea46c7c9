// Colours shared by every picture, so a delegate has the same colour in the partition graph, the
// HTML table and from one model to the next.
#ifndef VISUALIZERS_PALETTE_H_
#define VISUALIZERS_PALETTE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "libanalysis/report/report.h"

namespace tfa::viz {

struct PartitionColour {
  std::string stroke;  // borders, boundary edges
  std::string fill;    // light tint for cluster backgrounds and table rows
};

// CPU partitions are grey. A delegate's colour comes from a hash of its name (FNV-1a, not
// std::hash, so it is the same on every platform and run); red is never used, it marks
// unsupported nodes. Two delegates may share a colour: labels always name the delegate.
PartitionColour ColourForPartition(const PartitionReport& partition);
PartitionColour ColourForDelegate(std::string_view delegate);

inline constexpr const char* kUnsupportedColour = "#d62728";

// A distinct-looking fill for a tensor in the arena picture (golden-angle hue steps, so tensors
// with neighbouring indices get far-apart hues).
std::string ColourForTensor(int32_t tensor);

}  // namespace tfa::viz

#endif  // VISUALIZERS_PALETTE_H_
