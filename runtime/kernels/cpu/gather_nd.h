// GATHER_ND (tflite/kernels/gather_nd.cc, reference_ops::GatherNd): slices of params picked by
// the last dimension of int16/int32/int64 indices; output shape indices[:-1] + params[nd:]. Any
// params type of 1, 2, 4 or 8 bytes a slot (upstream copies by element size). A negative index,
// or a slice whose flat start plus its size passes the end of params, is an error. Like upstream
// the bound is on the flat position only, so an index past its own dimension that stays inside
// params (index [0, 2] of a 2x2 matrix) reads the element it lands on.
#ifndef RUNTIME_KERNELS_CPU_GATHER_ND_H_
#define RUNTIME_KERNELS_CPU_GATHER_ND_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareGatherNd(KernelContext& context);
[[nodiscard]] Status EvalGatherNd(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_GATHER_ND_H_
