#include "runtime/kernels/cpu/quantized_hard_swish.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

// HardSwishParams as upstream's HardSwishPrepare fills them.
struct HardSwishParams {
  int16_t input_zero_point = 0;
  int16_t output_zero_point = 0;
  int16_t reluish_multiplier = 0;  // Q15
  int reluish_exponent = 0;
  int16_t output_multiplier = 0;  // Q15
  int output_exponent = 0;
};

// DownScaleInt32ToInt16Multiplier (activations.cc): the Q31 multiplier rounded to Q15.
int16_t ToQ15(int32_t multiplier) {
  constexpr int32_t kRounding = 1 << 15;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRounding)
    return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((multiplier + kRounding) >> 16);
}

Result<HardSwishParams> GetParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, in.shape));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  HardSwishParams p;
  p.input_zero_point = static_cast<int16_t>(pi->zero_point);
  p.output_zero_point = static_cast<int16_t>(po->zero_point);
  // Upstream computes both ratios in float before QuantizeMultiplier widens them to double.
  const float hires_input_scale = (1.0f / 128.0f) * pi->scale;
  const float reluish_scale = 3.0f / 32768.0f;
  const QuantizedMultiplier output = QuantizeMultiplier(hires_input_scale / po->scale);
  p.output_multiplier = ToQ15(output.multiplier);
  p.output_exponent = output.shift;
  if (p.output_exponent > 0) {
    return Status::Error("HARD_SWISH input scale is 128 times the output scale or more");
  }
  const QuantizedMultiplier reluish = QuantizeMultiplier(hires_input_scale / reluish_scale);
  p.reluish_multiplier = ToQ15(reluish.multiplier);
  p.reluish_exponent = reluish.shift;
  return p;
}

// gemmlowp's int16 SaturatingRoundingDoublingHighMul: round(a * b / 2^15), ties away from zero.
int16_t RoundingDoublingHighMul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min())
    return std::numeric_limits<int16_t>::max();
  const int32_t ab = int32_t{a} * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// reference_ops::SaturatingDoublingHighMul: a * b / 2^15 truncated toward zero.
int16_t TruncatingDoublingHighMul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min())
    return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>(int32_t{a} * b / (1 << 15));
}

// gemmlowp's RoundingDivideByPOT on int16, with its int16 mask (2^exponent - 1 cut to 16 bits).
int16_t RoundingDivideByPOT16(int16_t x, int exponent) {
  const auto mask = static_cast<int16_t>((int64_t{1} << exponent) - 1);
  const auto remainder = static_cast<int16_t>(x & mask);
  const auto threshold = static_cast<int16_t>((mask >> 1) + (x < 0 ? 1 : 0));
  return static_cast<int16_t>((x >> exponent) + (remainder > threshold ? 1 : 0));
}

int16_t SaturatingLeftShift(int16_t value, int amount) {
  const int64_t result = int64_t{value} * (int64_t{1} << amount);
  return static_cast<int16_t>(std::clamp<int64_t>(result, std::numeric_limits<int16_t>::min(),
                                                  std::numeric_limits<int16_t>::max()));
}

// reference_ops::HardSwish for one stored value, step by step in its int16 arithmetic.
template <typename T>
T HardSwishValue(const HardSwishParams& p, T stored) {
  const auto input = static_cast<int16_t>(stored - p.input_zero_point);
  const auto hires = static_cast<int16_t>(input * (1 << 7));
  const int16_t preshift_output = RoundingDoublingHighMul(hires, p.output_multiplier);
  int16_t reluish = hires;
  // Shift left saturating by all but one bit, multiply, then the last bit: saturation in the
  // first shift cannot reach the result.
  if (p.reluish_exponent > 0) reluish = SaturatingLeftShift(reluish, p.reluish_exponent - 1);
  reluish = RoundingDoublingHighMul(reluish, p.reluish_multiplier);
  if (p.reluish_exponent > 0) reluish = SaturatingLeftShift(reluish, 1);
  if (p.reluish_exponent < 0) reluish = RoundingDivideByPOT16(reluish, -p.reluish_exponent);
  // [-1, 1] to [0, 1].
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
  const int16_t preshift = TruncatingDoublingHighMul(reluish, preshift_output);
  auto value = RoundingDivideByPOT16(preshift, -p.output_exponent);
  value = static_cast<int16_t>(value + p.output_zero_point);
  value = std::min<int16_t>(value, std::numeric_limits<T>::max());
  value = std::max<int16_t>(value, std::numeric_limits<T>::min());
  return static_cast<T>(value);
}

template <typename T>
void Run(KernelContext& context, const HardSwishParams& p) {
  std::array<T, 256> table{};
  for (int32_t v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v)
    table[static_cast<uint8_t>(v)] = HardSwishValue(p, static_cast<T>(v));
  const auto* in = context.input(0).Data<const T>();
  T* out = context.output(0).Data<T>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = table[static_cast<uint8_t>(in[i])];
}

}  // namespace

Status PrepareQuantizedHardSwish(KernelContext& context) { return GetParams(context).status(); }

Status EvalQuantizedHardSwish(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (context.input(0).type == TensorType::kInt8) {
    Run<int8_t>(context, *p);
  } else {
    Run<uint8_t>(context, *p);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
