// LOGICAL_AND and LOGICAL_OR of two bool tensors with numpy broadcasting (logical.cc), and
// LOGICAL_NOT (elementwise.cc). Bools are one byte; any non-zero byte reads as true.
#ifndef RUNTIME_KERNELS_CPU_LOGICAL_H_
#define RUNTIME_KERNELS_CPU_LOGICAL_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareLogicalBinary(KernelContext& context);
[[nodiscard]] Status EvalLogicalAnd(KernelContext& context);
[[nodiscard]] Status EvalLogicalOr(KernelContext& context);
[[nodiscard]] Status PrepareLogicalNot(KernelContext& context);
[[nodiscard]] Status EvalLogicalNot(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_LOGICAL_H_
