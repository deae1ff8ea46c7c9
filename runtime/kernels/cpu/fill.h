// FILL: an output of the shape its `dims` input names, every element the scalar `value` input
// (tflite/kernels/fill.cc), for float32, int32, int64 and bool values.
#ifndef RUNTIME_KERNELS_CPU_FILL_H_
#define RUNTIME_KERNELS_CPU_FILL_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareFill(KernelContext& context);
[[nodiscard]] Status EvalFill(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_FILL_H_
