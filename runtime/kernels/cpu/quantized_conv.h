// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED on quantized tensors, with upstream's integer
// arithmetic (tflite/kernels/internal/reference/integer_ops/{conv,depthwise_conv,
// fully_connected}.h, kernel_util.cc PopulateConvolutionQuantizationParams):
//   int8:  activations per-tensor asymmetric, weights int8 symmetric per output channel (or per
//          tensor), int32 bias with scale input_scale * weight_scale[c];
//   uint8: activations and weights per tensor with zero points, int32 bias.
// acc = sum (w - w_zp)(x - x_zp) + bias, rescaled by input_scale * weight_scale / output_scale
// as a fixed-point multiplier, plus the output zero point, clamped to the fused activation.
// CONV_2D and FULLY_CONNECTED rescale as upstream's GEMM does (RescaleGemmOutput);
// DEPTHWISE_CONV_2D rounds twice, as TFLite's own MultiplyByQuantizedMultiplier does.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_CONV_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_CONV_H_

#include <cstdint>
#include <type_traits>
#include <vector>

#include "runtime/kernel.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {

// The rescale of CONV_2D's and FULLY_CONNECTED's GEMM (tflite/kernels/cpu_backend_gemm_x86.h):
// an int8 output goes to ruy, which rounds once, ties upward (gemmlowp cannot store int8 off
// NEON); a uint8 output goes to gemmlowp's fixed-point output stage, which rounds twice.
// Upstream's builtin run of a uint8 MobileNet on x86-64 (oracle/external
// coral-test_data__mobilenet_v1_0.25_128_quant.none.json) matches two roundings bit for bit and
// is 3 steps off with one.
template <typename T>
int32_t RescaleGemmOutput(int32_t acc, QuantizedMultiplier m) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return MultiplyByQuantizedMultiplier(acc, m);
  } else {
    return MultiplyByQuantizedMultiplierSingleRounding(acc, m);
  }
}

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
