// MEAN and SUM (float32, int32, int64) over the axes of a constant int32 axis tensor (negative axes
// count from the end, repeats ignored), keep_dims or not.
#ifndef RUNTIME_KERNELS_CPU_REDUCE_H_
#define RUNTIME_KERNELS_CPU_REDUCE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareReduce(KernelContext& context);
[[nodiscard]] Status EvalMean(KernelContext& context);
[[nodiscard]] Status EvalSum(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_REDUCE_H_
