#include "runtime/kernels/cpu/philox_random.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

namespace tfa::runtime {
namespace {

constexpr uint32_t kKeyStepA = 0x9E3779B9, kKeyStepB = 0xBB67AE85;
constexpr uint32_t kMultiplierA = 0xD2511F53, kMultiplierB = 0xCD9E8D57;
constexpr int kRounds = 10;

PhiloxRandom::Block Round(const PhiloxRandom::Block& counter, const std::array<uint32_t, 2>& key) {
  const uint64_t product0 = static_cast<uint64_t>(kMultiplierA) * counter[0];
  const uint64_t product1 = static_cast<uint64_t>(kMultiplierB) * counter[2];
  const auto high0 = static_cast<uint32_t>(product0 >> 32);
  const auto high1 = static_cast<uint32_t>(product1 >> 32);
  return {high1 ^ counter[1] ^ key[0], static_cast<uint32_t>(product1), high0 ^ counter[3] ^ key[1],
          static_cast<uint32_t>(product0)};
}

}  // namespace

PhiloxRandom::PhiloxRandom(uint64_t seed_lo, uint64_t seed_hi) {
  key_ = {static_cast<uint32_t>(seed_lo), static_cast<uint32_t>(seed_lo >> 32)};
  counter_[2] = static_cast<uint32_t>(seed_hi);
  counter_[3] = static_cast<uint32_t>(seed_hi >> 32);
}

PhiloxRandom::Block PhiloxRandom::Next() {
  Block counter = counter_;
  std::array<uint32_t, 2> key = key_;
  for (int round = 0; round < kRounds; ++round) {
    if (round > 0) {
      key[0] += kKeyStepA;
      key[1] += kKeyStepB;
    }
    counter = Round(counter, key);
  }
  if (++counter_[0] == 0 && ++counter_[1] == 0 && ++counter_[2] == 0) ++counter_[3];
  return counter;
}

void PhiloxRandom::Skip(uint64_t count) {
  const auto count_lo = static_cast<uint32_t>(count);
  auto count_hi = static_cast<uint32_t>(count >> 32);
  counter_[0] += count_lo;
  if (counter_[0] < count_lo) ++count_hi;
  counter_[1] += count_hi;
  if (counter_[1] < count_hi && ++counter_[2] == 0) ++counter_[3];
}

float Uint32ToFloat(uint32_t x) {
  const uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value - 1.0f;
}

double Uint64ToDouble(uint32_t x0, uint32_t x1) {
  const uint64_t bits = (uint64_t{1023} << 52) | (static_cast<uint64_t>(x0 & 0xfffffu) << 32) | x1;
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value - 1.0;
}

void BoxMullerFloat(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  constexpr float kEpsilon = 1.0e-7f;
  const float u1 = std::max(Uint32ToFloat(x0), kEpsilon);
  // Upstream multiplies by M_PI, a double, before rounding to float.
  const auto v1 = static_cast<float>(2.0f * std::numbers::pi * Uint32ToFloat(x1));
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  *f0 = std::sin(v1) * u2;
  *f1 = std::cos(v1) * u2;
}

}  // namespace tfa::runtime
