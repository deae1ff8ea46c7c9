// ADD, SUB and MUL on int8/uint8 tensors with numpy broadcasting, with upstream's integer
// arithmetic (tflite/kernels/add.cc, sub.cc, mul.cc Prepare; reference/integer_ops/add.h,
// mul.h):
//   ADD/SUB: both inputs, minus their zero points, are shifted left by 20 bits and rescaled to
//            twice the larger input scale, summed, then rescaled to the output;
//   MUL:     the product of the offset inputs is rescaled by s1 * s2 / s_out.
// Every rescale is TFLite's double-rounding fixed-point multiply. The output may share an
// input's buffer: every element is read before the same index is written.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_ELEMENTWISE_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_ELEMENTWISE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedBinary(KernelContext& context);
[[nodiscard]] Status EvalQuantizedAdd(KernelContext& context);
[[nodiscard]] Status EvalQuantizedSub(KernelContext& context);
[[nodiscard]] Status EvalQuantizedMul(KernelContext& context);
// SQUARED_DIFFERENCE on int8 tensors (squared_difference.cc): each input rescaled to twice the
// larger input scale with a 7-bit headroom, the difference squared and rescaled to the output.
[[nodiscard]] Status PrepareQuantizedSquaredDifference(KernelContext& context);
[[nodiscard]] Status EvalQuantizedSquaredDifference(KernelContext& context);
// MUL on int16 tensors quantized with zero points 0 (16x8 models): MUL's arithmetic above.
[[nodiscard]] Status PrepareInt16Mul(KernelContext& context);
[[nodiscard]] Status EvalInt16Mul(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_ELEMENTWISE_H_
