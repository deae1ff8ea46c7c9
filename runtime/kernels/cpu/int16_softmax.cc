#include "runtime/kernels/cpu/int16_softmax.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "runtime/kernels/cpu/int16_lut.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_softmax.h"

namespace tfa::runtime {
namespace {

Result<QuantizedMultiplier> GetInputMultiplier(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kInt16, "input"));
  TFA_RETURN_IF_ERROR(CheckType(out, TensorType::kInt16, "output"));
  // SoftmaxQuantized<int16, int16> fails its Eval outside ranks 1 to 4.
  if (in.Rank() < 1 || in.Rank() > 4) {
    return Status::Error("int16 input must have rank 1 to 4, got " + std::to_string(in.Rank()));
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, in.shape));
  // Upstream sums a row's Q15 exps in int32: a longer row overflows it.
  if (in.Dim(in.Rank() - 1) > 65536) {
    return Status::Error("int16 rows longer than 65536 overflow upstream's int32 sum, got " +
                         std::to_string(in.Dim(in.Rank() - 1)));
  }
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  if (pi->zero_point != 0 || po->zero_point != 0) {
    return Status::Error("int16 input and output must have zero point 0, got " +
                         std::to_string(pi->zero_point) + " and " + std::to_string(po->zero_point));
  }
  // TF_LITE_ENSURE_NEAR(scale, 1.f / 32768, 0.001f * 1.f / 32768), in float.
  const float expected = 1.f / 32768;
  const float delta = po->scale > expected ? po->scale - expected : expected - po->scale;
  if (delta > 0.001f * 1.f / 32768) {
    return Status::Error("int16 output must have scale 1/32768 within 0.1%, got " +
                         ScaleText(po->scale));
  }
  // The float product of the scales, divided in double.
  const float scaled = pi->scale * context.options().beta;
  return QuantizeMultiplier(static_cast<double>(scaled) / (10.0 / 65535.0));
}

double Exp(double x) { return std::exp(x); }
double OneOverOnePlus(double x) { return 1.0 / (1.0 + x); }

int16_t SaturateInt16(int32_t v) { return static_cast<int16_t>(std::clamp(v, -32768, 32767)); }

}  // namespace

Status PrepareInt16Softmax(KernelContext& context) { return GetInputMultiplier(context).status(); }

Status EvalInt16Softmax(KernelContext& context) {
  auto multiplier = GetInputMultiplier(context);
  if (!multiplier.ok()) return multiplier.status();
  constexpr double kRange = 65535.0;
  const Int16Lut exp_lut = PopulateInt16Lut(10.0 / kRange, 32767, 2.0 / kRange, 0, Exp);
  const Int16Lut reciprocal_lut =
      PopulateInt16Lut(1.0 / kRange, -32768, 2.0 / kRange, 0, OneOverOnePlus);
  const RuntimeTensor& in = context.input(0);
  const auto* input = in.Data<const int16_t>();
  auto* output = context.output(0).Data<int16_t>();
  const int64_t depth = in.Dim(in.Rank() - 1);
  if (depth == 0) return Status::Ok();
  const int64_t rows = in.NumElements() / depth;
  for (int64_t r = 0; r < rows; ++r) {
    const int16_t* x = input + r * depth;
    int16_t* y = output + r * depth;
    const int16_t max = *std::max_element(x, x + depth);
    // The exps go into the output row first, as upstream caches them there.
    int32_t sum = 0;
    for (int64_t c = 0; c < depth; ++c) {
      const int32_t scaled = MultiplyByQuantizedMultiplier(int32_t{x[c]} - max, *multiplier);
      y[c] = Int16LutLookup(SaturateInt16(scaled + 32767), exp_lut);
      sum += y[c];
    }
    const int headroom_plus_one = std::countl_zero(static_cast<uint32_t>(sum));
    const auto shifted_sum = static_cast<int32_t>(
        ((static_cast<int64_t>(sum) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    // 1 / (1 + x) of x = sum - 1, recentred from [0, 65535] to int16.
    const int16_t reciprocal =
        Int16LutLookup(SaturateInt16(shifted_sum - ((1 << 15) + (1 << 16))), reciprocal_lut);
    const int right_shift = 31 - headroom_plus_one;
    const int64_t round = int64_t{1} << (right_shift - 1);
    for (int64_t c = 0; c < depth; ++c) {
      const auto result =
          static_cast<int32_t>((int64_t{y[c]} * int64_t{reciprocal} + round) >> right_shift);
      y[c] = static_cast<int16_t>(std::clamp(result, 0, 32767));
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
