#include "runtime/kernels/cpu/fake_quant.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr int32_t kMaxBits = 16;  // the nudged zero point is a uint16 upstream

struct NudgedRange {
  float min = 0.0f;
  float max = 0.0f;
  float scale = 0.0f;
};

// NudgeQuantizationRange: the range moved so that real 0 falls exactly on a level.
NudgedRange Nudge(float min, float max, int32_t num_bits) {
  const float quant_min = 0.0f;
  const auto quant_max = static_cast<float>((1 << num_bits) - 1);
  NudgedRange r;
  r.scale = (max - min) / (quant_max - quant_min);
  const float zero_point_from_min = quant_min - min / r.scale;
  float zero_point = std::round(zero_point_from_min);
  if (zero_point_from_min < quant_min) zero_point = quant_min;
  if (zero_point_from_min > quant_max) zero_point = quant_max;
  r.min = (quant_min - zero_point) * r.scale;
  r.max = (quant_max - zero_point) * r.scale;
  return r;
}

Result<FakeQuantParameters> CheckedParameters(const KernelContext& context) {
  auto p = FakeQuantParametersOf(context.options());
  if (!p.ok()) return p.status();
  if (p->narrow_range) {
    return Status::Error(
        "narrow_range FakeQuant is not supported at runtime (upstream's Prepare refuses it)");
  }
  if (p->num_bits < 1 || p->num_bits > kMaxBits) {
    return Status::Error("num_bits " + std::to_string(p->num_bits) + " is outside [1, " +
                         std::to_string(kMaxBits) + "]");
  }
  if (!std::isfinite(p->min) || !std::isfinite(p->max) || !(p->min < p->max)) {
    return Status::Error("the range [" + std::to_string(p->min) + ", " + std::to_string(p->max) +
                         "] is not a finite range with min < max");
  }
  return p;
}

}  // namespace

Status PrepareFakeQuant(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  auto p = CheckedParameters(context);
  if (!p.ok()) return p.status();
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  return CheckOutputShape(context.output(0), context.input(0).shape);
}

Status EvalFakeQuant(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareFakeQuant(context));
  const FakeQuantParameters p = *CheckedParameters(context);
  const NudgedRange r = Nudge(p.min, p.max, p.num_bits);
  const float inverse_scale = 1.0f / r.scale;
  const float* in = context.input(0).Data<const float>();
  float* out = context.output(0).Data<float>();
  const int64_t n = context.input(0).NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const float clamped = std::min(r.max, std::max(r.min, in[i]));
    out[i] = std::round((clamped - r.min) * inverse_scale) * r.scale + r.min;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
