// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED in 16x8 quantization: int16 activations with
// zero point 0, int8 symmetric weights (per channel or per tensor), int64 or int32 bias. Upstream
// runs the reference integer kernels here (tflite/kernels/internal/reference/integer_ops/conv.h,
// depthwise_conv.h, fully_connected.h, int16 input): an int64 accumulator plus the bias,
// rescaled with the 64-bit MultiplyByQuantizedMultiplier (multiplier rounded to 16 bits, one
// rounding shift), clamped to the fused activation's int16 range.
#ifndef RUNTIME_KERNELS_CPU_INT16X8_CONV_H_
#define RUNTIME_KERNELS_CPU_INT16X8_CONV_H_

#include <cstdint>

#include "runtime/kernel.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareInt16x8Conv2D(KernelContext& context);
[[nodiscard]] Status EvalInt16x8Conv2D(KernelContext& context);
[[nodiscard]] Status PrepareInt16x8DepthwiseConv2D(KernelContext& context);
[[nodiscard]] Status EvalInt16x8DepthwiseConv2D(KernelContext& context);
[[nodiscard]] Status PrepareInt16x8FullyConnected(KernelContext& context);
[[nodiscard]] Status EvalInt16x8FullyConnected(KernelContext& context);

// Upstream's MultiplyByQuantizedMultiplier for a 64-bit accumulator (common.h).
int32_t MultiplyByQuantizedMultiplierInt64(int64_t x, QuantizedMultiplier m);

// True when input 0 is int16 (the 16x8 kernels above apply).
bool HasInt16Input(const KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT16X8_CONV_H_
