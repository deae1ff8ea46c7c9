// Byte sizes are computed from untrusted shapes: every multiplication and addition goes through
// these helpers, which report overflow instead of wrapping (the analyser must never believe a
// hostile model's 2^70-byte tensor is 0 bytes).
#ifndef LIBANALYSIS_CORE_CHECKED_MATH_H_
#define LIBANALYSIS_CORE_CHECKED_MATH_H_

#include <cstdint>
#include <optional>

namespace tfa {

[[nodiscard]] inline std::optional<uint64_t> CheckedMul(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

[[nodiscard]] inline std::optional<uint64_t> CheckedAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Rounds up to a multiple of `alignment` (a power of two), or nullopt on overflow.
[[nodiscard]] inline std::optional<uint64_t> CheckedAlignUp(uint64_t value, uint64_t alignment) {
  auto sum = CheckedAdd(value, alignment - 1);
  if (!sum) return std::nullopt;
  return *sum & ~(alignment - 1);
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_CHECKED_MATH_H_
