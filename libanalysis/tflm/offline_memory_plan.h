// The offline memory plan a model can carry for TFLite Micro: metadata named
// "OfflineMemoryAllocation" whose buffer holds int32 words {version, subgraphs, n, offset of
// tensor 0, ..., offset of tensor n-1}, each offset from the start of the head or -1 to plan the
// tensor online (tflite-micro docs/memory_management.md; Arm's Vela writes it). TFLM reads it in
// AllocationInfoBuilder::GetOfflinePlannedOffsets (micro_allocation_info.cc); the replay and
// `convert --tflm-offline-plan` read and write it here.
#ifndef LIBANALYSIS_TFLM_OFFLINE_MEMORY_PLAN_H_
#define LIBANALYSIS_TFLM_OFFLINE_MEMORY_PLAN_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa::tflm {

inline constexpr char kOfflineMemoryAllocation[] = "OfflineMemoryAllocation";
inline constexpr int32_t kOnlinePlannedOffset = -1;

struct OfflinePlan {
  int32_t version = 1;
  int32_t subgraphs = 1;  // stored, ignored by TFLM
  std::vector<int32_t> offsets;
};

// The plan the .tflite bytes `file` carry, or none. As upstream, the last entry of that exact
// name wins. Errors name `source`: a buffer too short for its own count (upstream would read
// past it), or kept outside the flatbuffer.
[[nodiscard]] Result<std::optional<OfflinePlan>> ReadOfflinePlan(std::span<const uint8_t> file,
                                                                 const std::string& source);
[[nodiscard]] Result<std::optional<OfflinePlan>> ReadOfflinePlanOfFile(const std::string& path);

// The metadata buffer's bytes (little-endian int32 words).
std::vector<uint8_t> EncodeOfflinePlan(const OfflinePlan& plan);

// `file` (a .tflite) with `plan` as its OfflineMemoryAllocation metadata, replacing one it
// carries; everything else is kept.
[[nodiscard]] Result<std::vector<uint8_t>> WithOfflinePlan(std::span<const uint8_t> file,
                                                           const OfflinePlan& plan,
                                                           const std::string& source);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_OFFLINE_MEMORY_PLAN_H_
