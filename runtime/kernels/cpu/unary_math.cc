#include "runtime/kernels/cpu/unary_math.h"

#include <cmath>
#include <complex>

#include "runtime/kernels/cpu/activations.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status EvalRsqrt(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return 1.0f / std::sqrt(x); });
}

Status EvalLog(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::log(x); });
}

Status EvalGelu(KernelContext& context) {
  if (context.node_data && context.node_data->gelu_approximate) {
    return MapUnaryFloat(context, [](float x) {
      constexpr float kSqrt2OverPi = 0.7978845608028654f;
      return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
    });
  }
  return MapUnaryFloat(context, [](float x) {
    constexpr float kSqrtHalf = 0.7071067811865476f;
    return 0.5f * x * (1.0f + std::erf(x * kSqrtHalf));
  });
}

Status PrepareComplexAbs(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kComplex64, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  return CheckOutputShape(context.output(0), context.input(0).shape);
}

Status EvalComplexAbs(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareComplexAbs(context));
  const auto* in = context.input(0).Data<const std::complex<float>>();
  float* out = context.output(0).Data<float>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = std::abs(in[i]);
  return Status::Ok();
}

}  // namespace tfa::runtime
