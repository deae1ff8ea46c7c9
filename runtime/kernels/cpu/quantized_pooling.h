// MAX_POOL_2D and AVERAGE_POOL_2D on int8/uint8/int16 tensors (int16: upstream's
// reference_integer_ops kernels, the same arithmetic) (input and output share scale and zero
// point, as upstream requires): the maximum, or the window sum over in-image taps divided by
// their count rounding half away from zero (reference/integer_ops/pooling.h), then clamped to
// the fused activation's stored bounds.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_POOLING_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_POOLING_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedPool2D(KernelContext& context);
[[nodiscard]] Status EvalQuantizedMaxPool2D(KernelContext& context);
[[nodiscard]] Status EvalQuantizedAveragePool2D(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_POOLING_H_
