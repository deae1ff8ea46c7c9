// GATHER along `axis` with int32/int64 indices and batch_dims, any element type; an index
// outside the axis is an error, as upstream.
#ifndef RUNTIME_KERNELS_CPU_GATHER_H_
#define RUNTIME_KERNELS_CPU_GATHER_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareGather(KernelContext& context);
[[nodiscard]] Status EvalGather(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_GATHER_H_
