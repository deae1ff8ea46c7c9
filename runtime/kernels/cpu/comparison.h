// LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL on float32, int32 and int64 with numpy
// broadcasting, into a bool tensor (tflite/kernels/comparisons.cc). Quantized operands are
// refused: upstream rescales them first, which these kernels do not do.
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
