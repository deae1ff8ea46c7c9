// Plain twins of the quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED kernels
// (quantized_conv.h): every output is the definition's sum
//   acc = sum (w - w_zp)(x - x_zp) + bias
// in int32, taken tap by tap, then requantised by the same Requantization (one rounding for
// CONV_2D and FULLY_CONNECTED, two for DEPTHWISE_CONV_2D). No GEMM, no im2col, no scratch, no
// threads: the property test (quantized_conv_property_test.cc) holds the fast kernels to them.
// They use the fast kernels' Prepare (its checks and scratch size; the scratch goes unused).
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_CONV_REFERENCE_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_CONV_REFERENCE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status EvalQuantizedConv2DReference(KernelContext& context);
[[nodiscard]] Status EvalQuantizedDepthwiseConv2DReference(KernelContext& context);
[[nodiscard]] Status EvalQuantizedFullyConnectedReference(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_CONV_REFERENCE_H_
