// Activations on int8/uint8 tensors, as upstream's default (optimized) kernels compute them
// (tflite/kernels/activations.cc):
//   RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1: rescale input to output scale (double-rounding fixed
//   point),
//     then clamp to zero_point + round(bound / scale);
//   LOGISTIC, TANH, EXP, ELU (int8 only), GELU: a 256-entry table built in float from the
//   dequantized input
//     (tflite/kernels/internal/optimized/lut.h LUTPopulate: round(f(x) / out_scale) + zp);
//     int16 EXP the 513-entry interpolated table (int16_lut.h);
//   PRELU: x >= 0 rescaled by s_in / s_out, else x * alpha rescaled by s_in * s_alpha / s_out
//     (reference_ops::BroadcastPrelu4DSlow);
//   LEAKY_RELU: the same with alpha a float option (s_in * alpha / s_out).
// Every multiplier comes from float scales combined in float, then widened, as upstream's
// Prepare computes them.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_ACTIVATIONS_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_ACTIVATIONS_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedUnary(KernelContext& context);
[[nodiscard]] Status EvalQuantizedRelu(KernelContext& context);
[[nodiscard]] Status EvalQuantizedRelu6(KernelContext& context);
[[nodiscard]] Status EvalQuantizedReluN1To1(KernelContext& context);
[[nodiscard]] Status EvalQuantizedRelu0To1(KernelContext& context);
[[nodiscard]] Status PrepareQuantizedLogistic(KernelContext& context);
[[nodiscard]] Status EvalQuantizedLogistic(KernelContext& context);
[[nodiscard]] Status EvalQuantizedTanh(KernelContext& context);
[[nodiscard]] Status PrepareQuantizedExp(KernelContext& context);
[[nodiscard]] Status EvalQuantizedExp(KernelContext& context);
[[nodiscard]] Status EvalQuantizedLeakyRelu(KernelContext& context);
[[nodiscard]] Status PrepareQuantizedElu(KernelContext& context);
[[nodiscard]] Status EvalQuantizedElu(KernelContext& context);
[[nodiscard]] Status EvalQuantizedGelu(KernelContext& context);
[[nodiscard]] Status PrepareQuantizedPrelu(KernelContext& context);
[[nodiscard]] Status EvalQuantizedPrelu(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_ACTIVATIONS_H_
