// MEAN on int8/uint8 tensors, along upstream's two paths (tflite/kernels/reduce.cc EvalMean):
//   4-D input, keep_dims, axes {1, 2}: optimized_integer_ops::Mean — the raw sum rescaled by
//     s_in / (count * s_out), plus a bias that folds both zero points in float;
//   anything else: reference_ops::QuantizedMeanOrSum — the sum minus count * zp_in, rescaled by
//     s_in / s_out with 1/count folded into the multiplier (shifted by floor(log2 count)).
// Both rescale with TFLite's double-rounding fixed-point multiply.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_REDUCE_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_REDUCE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedMean(KernelContext& context);
[[nodiscard]] Status EvalQuantizedMean(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_REDUCE_H_
