// TRANSPOSE by a constant permutation (int32/int64), any element type.
#ifndef RUNTIME_KERNELS_CPU_TRANSPOSE_H_
#define RUNTIME_KERNELS_CPU_TRANSPOSE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareTranspose(KernelContext& context);
[[nodiscard]] Status EvalTranspose(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TRANSPOSE_H_
