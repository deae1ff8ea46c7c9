// DEPTHWISE_CONV_2D (float32): filter [1, kh, kw, in_c * depth_multiplier], optional bias,
// padding/strides/dilation/fused activation as tflite/kernels/depthwise_conv.cc. Direct loops
// with the channel loop innermost (contiguous, vectorised).
#ifndef RUNTIME_KERNELS_CPU_DEPTHWISE_CONV_H_
#define RUNTIME_KERNELS_CPU_DEPTHWISE_CONV_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareDepthwiseConv2D(KernelContext& context);
[[nodiscard]] Status EvalDepthwiseConv2D(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_DEPTHWISE_CONV_H_
