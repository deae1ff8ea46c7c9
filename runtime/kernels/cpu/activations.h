// Element-wise activations (float32): RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1, LOGISTIC, TANH,
// HARD_SWISH, LEAKY_RELU, ELU, and PRELU (alpha broadcast against the input), with upstream's
// formulas (tflite/kernels/activations.cc).
#ifndef RUNTIME_KERNELS_CPU_ACTIVATIONS_H_
#define RUNTIME_KERNELS_CPU_ACTIVATIONS_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareUnaryFloat(KernelContext& context);

// Checks the node as PrepareUnaryFloat does, then writes f(x) for every element x.
template <typename F>
[[nodiscard]] Status MapUnaryFloat(KernelContext& context, F f) {
  TFA_RETURN_IF_ERROR(PrepareUnaryFloat(context));
  const float* in = context.input(0).Data<const float>();
  float* out = context.output(0).Data<float>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
  return Status::Ok();
}
[[nodiscard]] Status EvalRelu(KernelContext& context);
[[nodiscard]] Status EvalRelu6(KernelContext& context);
[[nodiscard]] Status EvalReluN1To1(KernelContext& context);
[[nodiscard]] Status EvalRelu0To1(KernelContext& context);
[[nodiscard]] Status EvalLogistic(KernelContext& context);
[[nodiscard]] Status EvalTanh(KernelContext& context);
[[nodiscard]] Status EvalHardSwish(KernelContext& context);
[[nodiscard]] Status EvalLeakyRelu(KernelContext& context);
[[nodiscard]] Status EvalElu(KernelContext& context);
[[nodiscard]] Status PreparePrelu(KernelContext& context);
[[nodiscard]] Status EvalPrelu(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_ACTIVATIONS_H_
