// Fixed-point arithmetic of upstream's integer kernels (tflite/kernels/internal/common.h,
// quantization_util.cc): a real multiplier as a Q31 significand and a power-of-two exponent, and
// the two ways upstream applies it. Kernels that reach ruy (the int8 GEMM of CONV_2D and
// FULLY_CONNECTED) round once; the others use TFLite's own double rounding, so each kernel picks
// the one its upstream path uses.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_ARITHMETIC_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_ARITHMETIC_H_

#include <cstdint>

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

// Rounding high half of 2 * a * b, saturating the one overflowing case (gemmlowp's SQRDMULH).
int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b);
// x / 2^exponent rounded to nearest, ties away from zero.
int32_t RoundingDivideByPOT(int32_t x, int exponent);

// TFLite's MultiplyByQuantizedMultiplier without TFLITE_SINGLE_ROUNDING: left shift, rounding
// doubling high multiply, then a rounding right shift (two roundings).
int32_t MultiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m);
// ruy's multiplier (ruy/apply_multiplier.cc): one 64-bit product, rounded once, ties upward.
int32_t MultiplyByQuantizedMultiplierSingleRounding(int32_t x, QuantizedMultiplier m);

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
