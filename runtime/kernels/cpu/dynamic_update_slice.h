// DYNAMIC_UPDATE_SLICE: the operand with `update` written at `start_indices`, each start clamped
// to [0, operand_dim - update_dim] (tflite/kernels/dynamic_update_slice.cc). Any element type:
// the copy is bytewise.
#ifndef RUNTIME_KERNELS_CPU_DYNAMIC_UPDATE_SLICE_H_
#define RUNTIME_KERNELS_CPU_DYNAMIC_UPDATE_SLICE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareDynamicUpdateSlice(KernelContext& context);
[[nodiscard]] Status EvalDynamicUpdateSlice(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_DYNAMIC_UPDATE_SLICE_H_
