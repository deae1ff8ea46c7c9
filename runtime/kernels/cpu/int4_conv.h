// CONV_2D (int8 or int16 input) and DEPTHWISE_CONV_2D (int8 input) with int4 filters: upstream's
// builtin kernels unpack the filter to int8 (UnpackPackedIntToInt8, the even element in the low
// nibble) and run their int8-filter paths on it (tflite/kernels/conv.cc EvalQuantizedPerChannel
// and EvalQuantizedPerChannel16x8, depthwise_conv.cc EvalQuantizedPerChannel); so does this.
// A float input with int4 filters is the hybrid kernels' and does not come here.
#ifndef RUNTIME_KERNELS_CPU_INT4_CONV_H_
#define RUNTIME_KERNELS_CPU_INT4_CONV_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

// True when the filter (input 1) is int4 and the input int8 or int16.
bool HasInt4FilterOnIntegerInput(const KernelContext& context);

[[nodiscard]] Status PrepareInt4Conv2D(KernelContext& context);
[[nodiscard]] Status EvalInt4Conv2D(KernelContext& context);
[[nodiscard]] Status PrepareInt4DepthwiseConv2D(KernelContext& context);
[[nodiscard]] Status EvalInt4DepthwiseConv2D(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT4_CONV_H_
