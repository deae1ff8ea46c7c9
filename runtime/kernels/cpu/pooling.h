// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D (float32, NHWC) as tflite/kernels/pooling.cc: the
// window is clipped to the image, an average divides by the number of pixels inside it (padding
// never counts), L2 is the square root of the average of the squares; then the fused activation.
#ifndef RUNTIME_KERNELS_CPU_POOLING_H_
#define RUNTIME_KERNELS_CPU_POOLING_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PreparePool2D(KernelContext& context);
[[nodiscard]] Status EvalAveragePool2D(KernelContext& context);
[[nodiscard]] Status EvalMaxPool2D(KernelContext& context);
[[nodiscard]] Status EvalL2Pool2D(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_POOLING_H_
