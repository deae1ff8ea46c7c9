// TRANSPOSE_CONV on quantized tensors, with the integer arithmetic of upstream's kernels
// (tflite/kernels/transpose_conv.cc; internal/reference/integer_ops/transpose_conv.h for int8 and
// 16x8, reference/transpose_conv.h for uint8). Inputs as for float: output shape (int32),
// weights [out_c, kh, kw, in_c], input [b, h, w, in_c], optional bias.
//   int8:  activations per tensor; int8 weights per output channel or per tensor, their zero
//          points ignored (upstream's int8 kernel never reads them); int32 bias;
//   uint8: activations and weights per tensor with zero points; int32 bias, whose scale must be
//          within 2% of an output step of input_scale * weight_scale (upstream's check);
//   16x8:  int16 activations with zero point 0, int8 weights; an int64 bias (or none) takes the
//          int64 accumulator and the 64-bit rescale; an int32 bias takes the int32 accumulator
//          and the 32-bit rescale, which upstream runs when quantized_bias_type is INT32 (the
//          only setting in which it accepts an int32 bias).
// acc = sum over the taps reaching an output of (x - x_zp)(w [- w_zp]), plus the bias, rescaled
// per channel by input_scale * weight_scale[c] / output_scale with TFLite's double-rounding
// MultiplyByQuantizedMultiplier (its 64-bit form for the int64 accumulator), plus the output zero
// point, clamped to the fused activation (RELU, RELU6, RELU_N1_TO_1; any other clamps nothing,
// as CalculateActivationRangeQuantized). int32 accumulators wrap, as upstream's do.
//
// Upstream scatters every input pixel into an accumulator shaped like the output. Integer sums do
// not depend on their order (wrapped ones included), so this gathers each output pixel's taps
// instead: the same values, with scratch for one pixel's accumulators and the weights transposed
// to [kh][kw][in_c][out_c] (zero point folded in) rather than for the whole output.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_TRANSPOSE_CONV_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_TRANSPOSE_CONV_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedTransposeConv(KernelContext& context);
[[nodiscard]] Status EvalQuantizedTransposeConv(KernelContext& context);

// True when TRANSPOSE_CONV's data input (input 2) is int8, uint8 or int16.
bool HasQuantizedTransposeConvInput(const KernelContext& context);

// Runs the quantized kernel when the data input is quantized, else the other (float) one, so
// that one op name maps to both in the kernel table.
template <KernelFunction kOther, KernelFunction kQuantized>
Status ByTransposeConvInputType(KernelContext& context) {
  return HasQuantizedTransposeConvInput(context) ? kQuantized(context) : kOther(context);
}

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_TRANSPOSE_CONV_H_
