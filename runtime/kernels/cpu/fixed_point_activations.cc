#include "runtime/kernels/cpu/fixed_point_activations.h"

#include <algorithm>
#include <array>
#include <utility>

#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

constexpr int32_t kMin = -32768, kMax = 32767;

// gemmlowp's int16 arithmetic wraps (it computes in int and stores int16) unless it saturates.
int16_t Wrap(int32_t v) { return static_cast<int16_t>(v); }
int16_t SaturatingAdd(int16_t a, int16_t b) {
  return static_cast<int16_t>(std::clamp(int32_t{a} + b, kMin, kMax));
}

// The product of two fixed-point numbers: SaturatingRoundingDoublingHighMul for int16.
int16_t Mul(int16_t a, int16_t b) {
  if (a == b && a == kMin) return kMax;
  const int32_t product = int32_t{a} * b;
  const int32_t nudge = product >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((product + nudge) / (1 << 15));
}

int16_t RoundingHalfSum(int16_t a, int16_t b) {
  const int32_t sum = int32_t{a} + b;
  return static_cast<int16_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

// gemmlowp's RoundingDivideByPOT on int16: to nearest, ties away from zero.
int16_t DivideByPot(int16_t x, int exponent) {
  const int32_t mask = (1 << exponent) - 1;
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return Wrap((x >> exponent) + (remainder > threshold ? 1 : 0));
}

// SaturatingRoundingMultiplyByPOT: x * 2^exponent, saturating up, rounding down.
int16_t MulByPot(int16_t x, int exponent) {
  if (exponent < 0) return DivideByPot(x, -exponent);
  if (exponent == 0) return x;
  const int32_t threshold = (1 << (15 - exponent)) - 1;
  if (x > threshold) return static_cast<int16_t>(kMax);
  if (x < -threshold) return static_cast<int16_t>(kMin);
  return Wrap(x * (1 << exponent));
}

// Rescale<dst>: the same value with `to` integer bits instead of `from`.
int16_t Rescale(int16_t x, int from, int to) { return MulByPot(x, from - to); }

// A gemmlowp constant given as its 32-bit raw value (GEMMLOWP_CHECKED_FIXEDPOINT_CONSTANT with
// RescaleConstantInitializer: rounded to the top 16 bits).
int16_t Constant(int32_t raw32) { return Wrap(RoundingDivideByPOT(raw32, 16)); }

int16_t One(int integer_bits) { return integer_bits == 0 ? kMax : Wrap(1 << (15 - integer_bits)); }

// exp(x) for x in [-1/4, 0), Q0.15 in and out.
int16_t ExpOnIntervalNegativeQuarterToZero(int16_t a) {
  const int16_t constant_term = Constant(1895147668);  // exp(-1/8)
  const int16_t one_third = Constant(715827883);
  const int16_t x = Wrap(a + (1 << 12));  // a + 1/8
  const int16_t x2 = Mul(x, x);
  const int16_t x3 = Mul(x2, x);
  const int16_t x4 = Mul(x2, x2);
  const int16_t x4_over_4 = MulByPot(x4, -2);
  const int16_t polynomial = MulByPot(Wrap(Mul(Wrap(x4_over_4 + x3), one_third) + x2), -1);
  return SaturatingAdd(constant_term, Mul(constant_term, Wrap(x + polynomial)));
}

// exp(x) for x <= 0 in Q(integer_bits), result Q0.15.
int16_t ExpOnNegativeValues(int16_t a, int integer_bits) {
  const int fractional_bits = 15 - integer_bits;
  const int32_t one_quarter = 1 << (fractional_bits - 2);
  const int16_t a_mod_quarter_minus_one_quarter = Wrap((a & (one_quarter - 1)) - one_quarter);
  int16_t result =
      ExpOnIntervalNegativeQuarterToZero(Rescale(a_mod_quarter_minus_one_quarter, integer_bits, 0));
  const int16_t remainder = Wrap(a_mod_quarter_minus_one_quarter - a);
  // exp(-2^exponent) for the bits of the remainder above the quarter.
  constexpr std::array<std::pair<int, int32_t>, 7> kBarrelShifter = {{{-2, 1672461947},
                                                                      {-1, 1302514674},
                                                                      {0, 790015084},
                                                                      {1, 290630308},
                                                                      {2, 39332535},
                                                                      {3, 720401},
                                                                      {4, 242}}};
  for (const auto& [exponent, multiplier] : kBarrelShifter) {
    if (integer_bits <= exponent) continue;
    if ((remainder & (1 << (fractional_bits + exponent))) != 0)
      result = Mul(result, Constant(multiplier));
  }
  if (integer_bits > 5) {
    const int16_t minus_32 = Constant(-(1 << (36 - integer_bits)));
    if (a < minus_32) result = 0;
  }
  return a == 0 ? One(0) : result;
}

// The Newton-Raphson reciprocal of (1 + a) / 2 for a in [0, 1), in Q2.13.
int16_t HalfDenominatorReciprocal(int16_t a) {
  const int16_t half_denominator = RoundingHalfSum(a, One(0));
  const int16_t constant_48_over_17 = Constant(1515870810);
  const int16_t constant_neg_32_over_17 = Constant(-1010580540);
  int16_t x = Wrap(constant_48_over_17 + Mul(half_denominator, constant_neg_32_over_17));
  for (int i = 0; i < 3; ++i) {
    const int16_t one_minus_half_denominator_times_x = Wrap(One(2) - Mul(half_denominator, x));
    x = Wrap(x + Rescale(Mul(x, one_minus_half_denominator_times_x), 4, 2));
  }
  return x;
}

// 1 / (1 + a) and (1 - a) / (1 + a) for a in [0, 1), Q0.15.
int16_t OneOverOnePlusX(int16_t a) { return Rescale(HalfDenominatorReciprocal(a), 1, 0); }
int16_t OneMinusXOverOnePlusX(int16_t a) {
  return Rescale(Wrap(HalfDenominatorReciprocal(a) - One(2)), 2, 0);
}

}  // namespace

int16_t FixedPointLogistic(int16_t raw, int integer_bits) {
  if (raw == 0) return 1 << 14;
  const bool positive = raw > 0;
  const int16_t magnitude = positive ? raw : Wrap(-raw);
  const int16_t if_positive = OneOverOnePlusX(ExpOnNegativeValues(Wrap(-magnitude), integer_bits));
  return positive ? if_positive : Wrap(One(0) - if_positive);
}

int16_t FixedPointTanh(int16_t raw, int integer_bits) {
  if (raw == 0) return 0;
  const bool negative = raw < 0;
  const int16_t non_positive = negative ? raw : Wrap(-raw);
  // -tanh(x) for x < 0: exp(2x) through the same raw with one integer bit more.
  const int16_t magnitude =
      OneMinusXOverOnePlusX(ExpOnNegativeValues(non_positive, integer_bits + 1));
  return negative ? Wrap(-magnitude) : magnitude;
}

}  // namespace tfa::runtime
