// Fixed-point arithmetic of upstream's integer kernels (tflite/kernels/internal/common.h,
// quantization_util.cc): a real multiplier as a Q31 significand and a power-of-two exponent, and
// the two ways upstream applies it. Kernels that reach ruy (the int8 GEMM of CONV_2D and
// FULLY_CONNECTED) round once; the others use TFLite's own double rounding, so each kernel picks
// the one its upstream path uses.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_ARITHMETIC_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_ARITHMETIC_H_

#include <cstdint>
#include <limits>
#include <optional>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// real ~= multiplier * 2^(shift - 31), multiplier in [2^30, 2^31) (0 for real == 0).
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int shift = 0;  // positive: left shift
};

// Upstream's QuantizeMultiplier: frexp, round the significand to 31 bits, renormalise 2^31,
// flush exponents below -31 to zero and saturate those above 30.
QuantizedMultiplier QuantizeMultiplier(double real);

// Inline: the quantized kernels apply them to every output element, and a call each kept those
// loops from vectorising (a third of an int8 model's time went to the calls).

// Rounding high half of 2 * a * b, saturating the one overflowing case (gemmlowp's SQRDMULH).
inline int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::max();
  const int64_t product = int64_t{a} * int64_t{b};
  const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  // Division truncates toward zero, as upstream's does.
  return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}

// x / 2^exponent rounded to nearest, ties away from zero.
inline int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// TFLite's MultiplyByQuantizedMultiplier without TFLITE_SINGLE_ROUNDING: left shift, rounding
// doubling high multiply, then a rounding right shift (two roundings).
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m) {
  const int left = m.shift > 0 ? m.shift : 0;
  const int right = m.shift > 0 ? 0 : -m.shift;
  // Upstream multiplies by 2^left in int32; the models' shifts keep it in range.
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(shifted, m.multiplier), right);
}

// ruy's multiplier (ruy/apply_multiplier.cc): one 64-bit product, rounded once, ties upward.
inline int32_t MultiplyByQuantizedMultiplierSingleRounding(int32_t x, QuantizedMultiplier m) {
  const int total_shift = 31 - m.shift;
  const int64_t round = int64_t{1} << (total_shift - 1);
  return static_cast<int32_t>((int64_t{x} * m.multiplier + round) >> total_shift);
}

// Upstream's CheckedLog2 (quantization_util.cc), in float as there: the rounded log2 of `x` when
// `x` is within 1e-3 (in log2) of a power of two, else nullopt.
std::optional<int> CheckedLog2(float x);

bool IsQuantizedType(TensorType type);  // int8 or uint8

// Per-tensor scale and zero point of a quantized tensor.
struct QuantParams {
  float scale = 0.0f;
  int32_t zero_point = 0;
};
[[nodiscard]] Result<QuantParams> PerTensorParams(const RuntimeTensor& tensor, const char* role);

// Smallest and largest stored value of int8, uint8 or int16.
struct QuantizedRange {
  int32_t min = 0;
  int32_t max = 0;
  int32_t Clamp(int32_t v) const { return v < min ? min : (v > max ? max : v); }
};
QuantizedRange TypeRange(TensorType type);
// The stored-value bounds of a fused activation on `output` (CalculateActivationRangeQuantized:
// zero_point + round(bound / scale), within the type's range).
[[nodiscard]] Result<QuantizedRange> QuantizedActivationRange(Activation activation,
                                                              TensorType type, QuantParams output);

// Runs the float kernel or the quantized one depending on input 0's type, so that one op name
// maps to both in the kernel table.
template <KernelFunction kFloat, KernelFunction kQuantized>
Status ByInputType(KernelContext& context) {
  const bool quantized =
      !context.inputs.empty() && context.inputs[0] && IsQuantizedType(context.inputs[0]->type);
  return quantized ? kQuantized(context) : kFloat(context);
}

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_ARITHMETIC_H_
