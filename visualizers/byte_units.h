// Byte counts as people read them: "512 B", "4.1 kB", "1.2 MB" (decimal SI units, one decimal).
#ifndef VISUALIZERS_BYTE_UNITS_H_
#define VISUALIZERS_BYTE_UNITS_H_

#include <cstdint>
#include <string>

namespace tfa::viz {

std::string HumanBytes(uint64_t bytes);

}  // namespace tfa::viz

#endif  // VISUALIZERS_BYTE_UNITS_H_
