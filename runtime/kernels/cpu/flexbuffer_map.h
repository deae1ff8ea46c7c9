// A custom op's options read as a flexbuffer map (what mediapipe's ops store, e.g.
// mediapipe/util/tflite/operations/landmarks_to_transform_matrix.cc). The bytes come from the
// model file, so they are verified once before any read, and every accessor checks the key's
// presence and type: a malformed model is an error, never an out-of-bounds read.
#ifndef RUNTIME_KERNELS_CPU_FLEXBUFFER_MAP_H_
#define RUNTIME_KERNELS_CPU_FLEXBUFFER_MAP_H_

#include <cstdint>
#include <span>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa::runtime {

class FlexbufferMap {
 public:
  // Errors unless `bytes` is a well-formed flexbuffer whose root is a map. The bytes must
  // outlive the FlexbufferMap.
  [[nodiscard]] static Result<FlexbufferMap> Read(std::span<const uint8_t> bytes);

  bool Has(const char* key) const;
  // An integer value that fits int32.
  [[nodiscard]] Result<int32_t> Int(const char* key) const;
  // Any number, as upstream's AsInt64 reads it: an absent key is 0, a float truncates toward zero
  // (one outside int64 is an error here).
  [[nodiscard]] Result<int64_t> AsInt64(const char* key) const;
  // Any number, as upstream's AsFloat reads it (integers convert).
  [[nodiscard]] Result<float> Float(const char* key) const;
  // A boolean, or a number read as != 0 (upstream's AsBool).
  [[nodiscard]] Result<bool> Bool(const char* key) const;
  // A vector (typed, fixed-size typed or untyped) of integers that fit int32.
  [[nodiscard]] Result<std::vector<int32_t>> IntVector(const char* key) const;

 private:
  explicit FlexbufferMap(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  std::span<const uint8_t> bytes_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_FLEXBUFFER_MAP_H_
