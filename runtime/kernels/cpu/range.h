// RANGE (tflite/kernels/range.cc, reference_ops::Range): start, limit and delta scalars of one
// type (int32, int64 or float32) give ceil(|limit - start| / |delta|) values, each the previous
// plus delta (accumulated, as upstream's, not start + i * delta). A zero delta, or one pointing
// away from limit, is an error.
#ifndef RUNTIME_KERNELS_CPU_RANGE_H_
#define RUNTIME_KERNELS_CPU_RANGE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareRange(KernelContext& context);
[[nodiscard]] Status EvalRange(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_RANGE_H_
