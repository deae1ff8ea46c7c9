// FILL: an output of the shape its `dims` input names, every element the scalar `value` input
// (tflite/kernels/fill.cc), for float32, int32, int64 and bool values. ZEROS_LIKE: zeros of its
// input's shape and type, for float32, int32 and int64 (zeros_like.cc).
#ifndef RUNTIME_KERNELS_CPU_FILL_H_
#define RUNTIME_KERNELS_CPU_FILL_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareFill(KernelContext& context);
[[nodiscard]] Status EvalFill(KernelContext& context);
[[nodiscard]] Status PrepareZerosLike(KernelContext& context);
[[nodiscard]] Status EvalZerosLike(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_FILL_H_
