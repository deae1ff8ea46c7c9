// Element-wise math. float32: RSQRT, LOG, SQRT (tflite/kernels/elementwise.cc), EXP (exp.cc),
// SQUARE (square.cc), GELU exact or with the tanh approximation (gelu.cc). Several types:
//   NEG  float32, int32, int64 (neg.cc);
//   SIGN float32, float64, int32 (sign.cc);
//   ABS  float32, int32, int16 without quantization, and quantized int8/int16: |q - zp_in|
//        rescaled by s_in / s_out only when the scales differ, plus zp_out (elementwise.cc
//        AbsEvalQuantized);
//   RSQRT int8: q - zp_in must not be negative (an error at Eval, as upstream); 0 gives 127,
//        others 1 / sqrt(q - zp_in) from gemmlowp's Newton iteration shifted up 20 bits, rescaled
//        by 1 / (sqrt(s_in) * s_out) plus zp_out (elementwise.cc RsqrtEvalQuantized).
#ifndef RUNTIME_KERNELS_CPU_UNARY_MATH_H_
#define RUNTIME_KERNELS_CPU_UNARY_MATH_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status EvalRsqrt(KernelContext& context);
[[nodiscard]] Status PrepareQuantizedRsqrt(KernelContext& context);
[[nodiscard]] Status EvalQuantizedRsqrt(KernelContext& context);
[[nodiscard]] Status EvalLog(KernelContext& context);
[[nodiscard]] Status EvalGelu(KernelContext& context);
[[nodiscard]] Status EvalExp(KernelContext& context);
[[nodiscard]] Status EvalSqrt(KernelContext& context);
[[nodiscard]] Status EvalSquare(KernelContext& context);
[[nodiscard]] Status PrepareNeg(KernelContext& context);
[[nodiscard]] Status EvalNeg(KernelContext& context);
[[nodiscard]] Status PrepareSign(KernelContext& context);
[[nodiscard]] Status EvalSign(KernelContext& context);
[[nodiscard]] Status PrepareAbs(KernelContext& context);
[[nodiscard]] Status EvalAbs(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_UNARY_MATH_H_
