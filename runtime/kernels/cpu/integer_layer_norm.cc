#include "runtime/kernels/cpu/integer_layer_norm.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace tfa::runtime {
namespace {

// gemmlowp's SaturatingRoundingMultiplyByPOT<exponent> on int32: a saturating left shift, or a
// rounding right shift for a negative exponent.
int32_t MultiplyByPowerOfTwo(int32_t x, int exponent) {
  if (exponent < 0) return RoundingDivideByPOT(x, -exponent);
  if (exponent == 0) return x;
  const int32_t threshold = (int32_t{1} << (31 - exponent)) - 1;
  if (x > threshold) return std::numeric_limits<int32_t>::max();
  if (x < -threshold) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

int32_t Product(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }

// A raw difference as gemmlowp's int32 fixed point subtracts: wrapping.
int32_t Difference(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

}  // namespace

QuantizedMultiplier InverseSqrtMultiplier(int32_t input) {
  // Inputs 0 and 1 are taken as 1 (b/143972021 upstream).
  if (input <= 1) return {std::numeric_limits<int32_t>::max(), 0};
  int shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++shift;
  }
  const int max_left_shift_bit_pairs = (std::countl_zero(static_cast<uint32_t>(input)) - 1) / 2;
  const int left_shift_bit_pairs = max_left_shift_bit_pairs - 1;
  shift -= left_shift_bit_pairs;
  input <<= 2 * left_shift_bit_pairs;
  // Q3 fixed point (28 fractional bits): x_{n+1} = 1.5 x - (input / 2) x^3, five times from 1.
  const int32_t half_input = MultiplyByPowerOfTwo(input >> 1, -1);
  constexpr int32_t kOneAndHalf = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = MultiplyByPowerOfTwo(Product(Product(x, x), x), 6);  // Q9 to Q3
    x = MultiplyByPowerOfTwo(Difference(Product(kOneAndHalf, x), Product(half_input, x3)), 3);
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2) / 2 in Q0
  int32_t multiplier = Product(x, kHalfSqrt2);
  if (shift < 0) {
    multiplier = static_cast<int32_t>(static_cast<uint32_t>(multiplier) << -shift);
    shift = 0;
  }
  return {multiplier, -shift};
}

void IntegerLayerNorm(int16_t* gate, const int16_t* coefficients, const int32_t* bias,
                      QuantizedMultiplier scale, int32_t variance_guard, int32_t batch, int32_t n) {
  constexpr int32_t kTwoToPower20 = 1 << 20;
  if (n <= 0) return;  // no cells: nothing to normalise (upstream would divide by 0)
  const QuantizedMultiplier output_scale{scale.multiplier, scale.shift + 12};
  for (int32_t b = 0; b < batch; ++b) {
    int16_t* row = gate + static_cast<int64_t>(b) * n;
    int64_t sum = 0, sum_sq = 0;
    for (int32_t j = 0; j < n; ++j) {
      const int32_t v = row[j];
      sum += v;
      sum_sq += v * v;
    }
    const auto mean = static_cast<int32_t>(sum * 1024 / n);
    // Upstream's own note: exact only for a power-of-two n.
    const int32_t temp = kTwoToPower20 / n;
    const int64_t variance = sum_sq * temp - static_cast<int64_t>(mean) * mean;
    auto variance2 = static_cast<int32_t>(variance / kTwoToPower20);
    if (variance2 < 1) variance2 = variance_guard;
    const QuantizedMultiplier inverse = InverseSqrtMultiplier(variance2);
    for (int32_t j = 0; j < n; ++j) {
      const int32_t shifted = 1024 * row[j] - mean;
      const int32_t rescaled = MultiplyByQuantizedMultiplier(shifted, inverse);
      // An int32 product and sum as upstream writes them (not saturated), widened after.
      const auto weighted = static_cast<int64_t>(static_cast<int32_t>(
          static_cast<uint32_t>(rescaled) * static_cast<uint32_t>(int32_t{coefficients[j]}) +
          static_cast<uint32_t>(bias[j])));
      const auto rounded =
          static_cast<int32_t>((weighted > 0 ? weighted + 512 : weighted - 512) / 1024);
      const int32_t value = MultiplyByQuantizedMultiplier(rounded, output_scale);
      row[j] = static_cast<int16_t>(std::clamp(value, -32768, 32767));
    }
  }
}

}  // namespace tfa::runtime
