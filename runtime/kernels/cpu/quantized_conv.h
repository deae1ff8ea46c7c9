// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED on quantized tensors, with upstream's integer
// arithmetic (tflite/kernels/internal/reference/integer_ops/{conv,depthwise_conv,
// fully_connected}.h, kernel_util.cc PopulateConvolutionQuantizationParams):
//   int8:  activations per-tensor asymmetric, weights int8 symmetric per output channel (or per
//          tensor), int32 bias with scale input_scale * weight_scale[c];
//   uint8: activations and weights per tensor with zero points, int32 bias.
// acc = sum (w - w_zp)(x - x_zp) + bias, rescaled by input_scale * weight_scale / output_scale
// as a fixed-point multiplier, plus the output zero point, clamped to the fused activation.
// CONV_2D and FULLY_CONNECTED round that rescale once, as ruy (upstream's int8 GEMM on x86) does;
// DEPTHWISE_CONV_2D rounds twice, as TFLite's own MultiplyByQuantizedMultiplier does.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_CONV_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_CONV_H_

#include <cstdint>
#include <vector>

#include "runtime/kernel.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {

// What turns an int32 accumulator of output channel c into a stored value; shared with the
// reference twins (quantized_conv_reference.h).
struct Requantization {
  QuantParams input, output;
  int32_t weight_zero_point = 0;
  std::vector<QuantizedMultiplier> multipliers;  // one per output channel
  QuantizedRange range;
};

// The quantization of a weighted op (its checks included): `channels` output channels lie along
// the weights' dimension `channel_dim`.
[[nodiscard]] Result<Requantization> GetRequantization(const KernelContext& context,
                                                       int32_t channels, int channel_dim);

[[nodiscard]] Status PrepareQuantizedConv2D(KernelContext& context);
[[nodiscard]] Status EvalQuantizedConv2D(KernelContext& context);
[[nodiscard]] Status PrepareQuantizedDepthwiseConv2D(KernelContext& context);
[[nodiscard]] Status EvalQuantizedDepthwiseConv2D(KernelContext& context);
[[nodiscard]] Status PrepareQuantizedFullyConnected(KernelContext& context);
[[nodiscard]] Status EvalQuantizedFullyConnected(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_CONV_H_
