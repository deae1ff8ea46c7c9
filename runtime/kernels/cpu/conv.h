// CONV_2D (float32): im2col into scratch (none for a 1x1 stride-1 unpadded convolution), then
// Eigen's GEMM against the filter as stored (gemm.h); output pixels split over the threads.
// Filter [out_c, kh, kw, in_c], optional bias [out_c], SAME/VALID padding, strides, dilation,
// fused activation, as tflite/kernels/conv.cc. Grouped convolutions are refused.
#ifndef RUNTIME_KERNELS_CPU_CONV_H_
#define RUNTIME_KERNELS_CPU_CONV_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareConv2D(KernelContext& context);
[[nodiscard]] Status EvalConv2D(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_CONV_H_
