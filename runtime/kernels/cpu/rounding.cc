#include "runtime/kernels/cpu/rounding.h"

#include <cmath>

#include "runtime/kernels/cpu/activations.h"

namespace tfa::runtime {
namespace {

template <typename F>
Status Map(KernelContext& context, F f) {
  TFA_RETURN_IF_ERROR(PrepareUnaryFloat(context));
  const float* in = context.input(0).Data<const float>();
  float* out = context.output(0).Data<float>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
  return Status::Ok();
}

}  // namespace

float RoundHalfToEven(float x) {
  const float floor = std::floor(x);
  const float fraction = x - floor;
  if (fraction < 0.5f) return floor;
  if (fraction > 0.5f) return floor + 1.0f;
  // A tie: the even one of floor and floor + 1 (fmod keeps huge values out of integer casts).
  return std::fmod(floor, 2.0f) == 0.0f ? floor : floor + 1.0f;
}

Status EvalCeil(KernelContext& context) {
  return Map(context, [](float x) { return std::ceil(x); });
}

Status EvalRound(KernelContext& context) { return Map(context, RoundHalfToEven); }

}  // namespace tfa::runtime
