// LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL with numpy broadcasting, into a
// bool tensor (tflite/kernels/comparisons.cc): float32, int32, int64 and int16 as stored; int8
// and uint8 (and, for EQUAL and NOT_EQUAL, quantized int16) rescaled as upstream's
// ComparisonWithScaling does: each operand minus its zero point, shifted left 8 and multiplied
// by its scale in fixed point; bool for EQUAL and NOT_EQUAL. Strings and float16 are refused.
#ifndef RUNTIME_KERNELS_CPU_COMPARISON_H_
#define RUNTIME_KERNELS_CPU_COMPARISON_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareComparison(KernelContext& context);
[[nodiscard]] Status EvalLess(KernelContext& context);
[[nodiscard]] Status EvalLessEqual(KernelContext& context);
[[nodiscard]] Status EvalGreater(KernelContext& context);
[[nodiscard]] Status EvalGreaterEqual(KernelContext& context);
[[nodiscard]] Status EvalEqual(KernelContext& context);
[[nodiscard]] Status EvalNotEqual(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_COMPARISON_H_
