// BROADCAST_TO (tflite/kernels/broadcast_to.cc): the input repeated to the shape its second input
// holds (int32 or int64), dimensions aligned from the right; each input dimension is 1 or the
// output's. Any fixed-size type is copied element by element.
#ifndef RUNTIME_KERNELS_CPU_BROADCAST_TO_H_
#define RUNTIME_KERNELS_CPU_BROADCAST_TO_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBroadcastTo(KernelContext& context);
[[nodiscard]] Status EvalBroadcastTo(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BROADCAST_TO_H_
