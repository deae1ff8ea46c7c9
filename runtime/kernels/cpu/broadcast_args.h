// BROADCAST_ARGS (tflite/kernels/broadcast_args.cc, reference_ops::BroadcastArgs): the numpy
// broadcast of two 1-D shape tensors (int32 or int64, both and the output of one type), aligned
// to the right: a 1 takes the other's dimension. Dimensions that differ and are not 1 make
// upstream's kernel abort (TFLITE_DCHECK): refused here. Known shapes fold at Prepare
// (the output becomes persistent_ro).
#ifndef RUNTIME_KERNELS_CPU_BROADCAST_ARGS_H_
#define RUNTIME_KERNELS_CPU_BROADCAST_ARGS_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBroadcastArgs(KernelContext& context);
[[nodiscard]] Status EvalBroadcastArgs(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BROADCAST_ARGS_H_
