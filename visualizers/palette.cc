#include "visualizers/palette.h"

#include <fmt/format.h>

#include <utility>

#include "libanalysis/report/delegate_colour.h"

namespace tfa::viz {

PartitionColour ColourForDelegate(std::string_view delegate) {
  DelegateColour colour = ColourOfDelegate(delegate);
  return {std::move(colour.stroke), std::move(colour.fill)};
}

PartitionColour ColourForPartition(const PartitionReport& partition) {
  if (partition.kind != PartitionReport::Kind::kCpu) return ColourForDelegate(partition.delegate);
  DelegateColour grey = CpuColour();
  return {std::move(grey.stroke), std::move(grey.fill)};
}

std::string ColourForTensor(int32_t tensor) {
  const double hue = static_cast<double>((static_cast<int64_t>(tensor) * 137508) % 360000) / 1000.0;
  return fmt::format("hsl({:.0f},62%,62%)", hue);
}

}  // namespace tfa::viz
