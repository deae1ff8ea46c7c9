// Element-wise float32 math: RSQRT and LOG (tflite/kernels/elementwise.cc), GELU exact or with
// the tanh approximation (tflite/kernels/gelu.cc), and COMPLEX_ABS of complex64 values
// (tflite/kernels/complex_support.cc).
#ifndef RUNTIME_KERNELS_CPU_UNARY_MATH_H_
#define RUNTIME_KERNELS_CPU_UNARY_MATH_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status EvalRsqrt(KernelContext& context);
[[nodiscard]] Status EvalLog(KernelContext& context);
[[nodiscard]] Status EvalGelu(KernelContext& context);
[[nodiscard]] Status PrepareComplexAbs(KernelContext& context);
[[nodiscard]] Status EvalComplexAbs(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_UNARY_MATH_H_
