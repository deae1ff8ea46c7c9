// ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE (float32) with numpy broadcasting
// and the fused activation of the arithmetic ops. The output may share input 0's or input 1's
// buffer (upstream registers ADD/SUB/MUL/DIV in place): every element is read before the same
// index is written, and a shared input always has the output's shape.
#ifndef RUNTIME_KERNELS_CPU_ELEMENTWISE_H_
#define RUNTIME_KERNELS_CPU_ELEMENTWISE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBinary(KernelContext& context);
[[nodiscard]] Status EvalAdd(KernelContext& context);
[[nodiscard]] Status EvalSub(KernelContext& context);
[[nodiscard]] Status EvalMul(KernelContext& context);
[[nodiscard]] Status EvalDiv(KernelContext& context);
[[nodiscard]] Status EvalMaximum(KernelContext& context);
[[nodiscard]] Status EvalMinimum(KernelContext& context);
[[nodiscard]] Status EvalSquaredDifference(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_ELEMENTWISE_H_
