// SOFTMAX on int8/uint8 inputs over the last dimension, as upstream's default kernel
// (kGenericOptimized in tflite/kernels/activations.cc, optimized_ops::Softmax<In, Out>) computes
// it on x86-64. Upstream's SoftmaxInt8LUT (two uint8 tables of a 16-bit exp, then a fixed-point
// rescale) is compiled only under TFLITE_SOFTMAX_USE_UINT16_LUT, which optimized_ops.h defines for
// clang on aarch64; elsewhere the 8-bit kernel is this float one:
//   a 256-entry float table holds exp(-input_scale * beta * d) for each stored distance
//   d = max - x of a row (upstream's PopulateSoftmaxLookupTable, in float with expf);
//   the row's sum of table values is accumulated in float, left to right;
//   p = table[d] * (1 / (sum * output_scale)), stored as round(p) + zero_point (int8, int16
//   outputs) or as truncate(p + 0.5) (uint8 output: upstream's non-aarch64 QuantizeSoftmaxOutput,
//   which ignores the output zero point), clamped to the output type.
// The results are bit-exact with that build. Outputs: int8 -> int8 or int16; uint8 -> uint8 or
// int16. Upstream's SoftmaxPrepare fixes the int8 output's parameters (zero point -128, scale
// 1/256 within 0.1%); it checks neither a uint8 output nor an int16 output of an 8-bit input,
// and neither do we (the output scale is honoured, the uint8 zero point is not, as upstream).
// Read from LiteRT tflite/kernels/activations.cc @ 049cdbcf and
// tflite/kernels/internal/optimized/optimized_ops.h @ 007168de.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_SOFTMAX_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_SOFTMAX_H_

#include <array>
#include <string>

#include "runtime/kernel.h"

namespace tfa::runtime {

// Upstream's PopulateSoftmaxLookupTable: entry 255 - d is expf(-input_scale * beta * d) for
// d in [0, 255], so entry 255 - max + x is the unnormalised probability of stored value x in a
// row whose largest stored value is max. LOG_SOFTMAX's 8-bit kernel uses it too (beta 1).
std::array<float, 256> SoftmaxExpTable(float input_scale, float beta);

// x86's conversion of a float to int32 (cvttss2si): truncation, and the "integer indefinite"
// INT32_MIN where the value does not fit (NaN included), which is what upstream's implicit
// float-to-int conversions give on x86-64.
int32_t TruncateToInt32LikeX86(float x);

// The shortest text that reads back as `x` ("0.00390625"), for the scale checks' messages.
std::string ScaleText(float x);

[[nodiscard]] Status PrepareQuantizedSoftmax(KernelContext& context);
[[nodiscard]] Status EvalQuantizedSoftmax(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_SOFTMAX_H_
