#include "runtime/kernels/cpu/rounding.h"

#include <cmath>

#include "runtime/kernels/cpu/activations.h"

namespace tfa::runtime {
float RoundHalfToEven(float x) {
  const float floor = std::floor(x);
  const float fraction = x - floor;
  if (fraction < 0.5f) return floor;
  if (fraction > 0.5f) return floor + 1.0f;
  // A tie: the even one of floor and floor + 1 (fmod keeps huge values out of integer casts).
  return std::fmod(floor, 2.0f) == 0.0f ? floor : floor + 1.0f;
}

Status EvalFloor(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::floor(x); });
}

Status EvalCeil(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::ceil(x); });
}

Status EvalRound(KernelContext& context) { return MapUnaryFloat(context, RoundHalfToEven); }

}  // namespace tfa::runtime
