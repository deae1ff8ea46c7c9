// The Philox-4x32-10 counter-based generator TensorFlow and TFLite's random ops draw from
// (tsl/lib/random/philox_random.h), and the conversions of its 32-bit outputs they use
// (random_distributions_utils.h): the same seeds give the same numbers as upstream's.
#ifndef RUNTIME_KERNELS_CPU_PHILOX_RANDOM_H_
#define RUNTIME_KERNELS_CPU_PHILOX_RANDOM_H_

#include <array>
#include <cstdint>

namespace tfa::runtime {

class PhiloxRandom {
 public:
  using Block = std::array<uint32_t, 4>;

  // seed_lo is the key, seed_hi the upper half of the counter.
  PhiloxRandom(uint64_t seed_lo, uint64_t seed_hi);

  // The next four numbers (ten rounds on the counter), then the counter moves on by one.
  Block Next();
  // Moves the counter on by `count` blocks.
  void Skip(uint64_t count);

 private:
  Block counter_{};
  std::array<uint32_t, 2> key_{};
};

// [0, 1) from the 23 low bits of `x` as a float mantissa.
float Uint32ToFloat(uint32_t x);
// [0, 1) from 52 bits of (x0, x1) as a double mantissa.
double Uint64ToDouble(uint32_t x0, uint32_t x1);
// Two standard normal floats from two uniform numbers (Box-Muller, as BoxMullerFloat).
void BoxMullerFloat(uint32_t x0, uint32_t x1, float* f0, float* f1);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_PHILOX_RANDOM_H_
