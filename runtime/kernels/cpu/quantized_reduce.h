// MEAN and SUM on int8/uint8/int16 tensors (int16 with zero points 0), along upstream's paths
// (tflite/kernels/reduce.cc EvalMean, EvalSum):
//   MEAN, int8/uint8 4-D input, keep_dims, axes {1, 2}: optimized_integer_ops::Mean — the raw sum
//     rescaled by s_in / (count * s_out), plus a bias that folds both zero points in float;
//   other MEANs: reference_ops::QuantizedMeanOrSum — the sum minus count * zp_in, rescaled by
//     s_in / s_out with 1/count folded into the multiplier (shifted by floor(log2 count));
//   SUM: optimized_ops::QuantizedMeanOrSum — the sum rescaled by s_in / s_out in float.
// Both MEANs rescale with TFLite's double-rounding fixed-point multiply.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_REDUCE_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_REDUCE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedMean(KernelContext& context);
[[nodiscard]] Status EvalQuantizedMean(KernelContext& context);
[[nodiscard]] Status EvalQuantizedSum(KernelContext& context);  // PrepareQuantizedMean's checks

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_REDUCE_H_
