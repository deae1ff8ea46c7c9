// CUMSUM (tflite/kernels/cumsum.cc): the running sum of a float32, int32 or int64 tensor along
// the axis that an int32 one-element input names (negative counts from the end), read at Eval.
// `exclusive` leaves the element itself out of its sum (the first sum is 0); `reverse` sums from
// the end of the axis. Integer sums wrap, as upstream's. A tensor with a zero dimension is left as
// it is. Upstream's uint16 path (dequantized, summed as float, requantized) is not here.
#ifndef RUNTIME_KERNELS_CPU_CUMSUM_H_
#define RUNTIME_KERNELS_CPU_CUMSUM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareCumsum(KernelContext& context);
[[nodiscard]] Status EvalCumsum(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_CUMSUM_H_
