// Element-wise activations (float32): RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1, LOGISTIC, TANH,
// HARD_SWISH, LEAKY_RELU, ELU, and PRELU (alpha broadcast against the input), with upstream's
// formulas (tflite/kernels/activations.cc).
#ifndef RUNTIME_KERNELS_CPU_ACTIVATIONS_H_
#define RUNTIME_KERNELS_CPU_ACTIVATIONS_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareUnaryFloat(KernelContext& context);
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
