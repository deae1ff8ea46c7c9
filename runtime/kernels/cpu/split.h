// SPLIT (axis tensor, input; equal parts) and SPLIT_V (input, size_splits with at most one -1,
// axis tensor), any element type.
#ifndef RUNTIME_KERNELS_CPU_SPLIT_H_
#define RUNTIME_KERNELS_CPU_SPLIT_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSplit(KernelContext& context);
[[nodiscard]] Status EvalSplit(KernelContext& context);
[[nodiscard]] Status PrepareSplitV(KernelContext& context);
[[nodiscard]] Status EvalSplitV(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SPLIT_H_
