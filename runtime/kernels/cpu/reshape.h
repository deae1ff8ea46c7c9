// RESHAPE, SQUEEZE, EXPAND_DIMS: the output has the input's bytes under the planned shape. They
// are registered in place with data unmodified, so when the arena gave the output the input's
// buffer there is nothing to copy. Any element type.
#ifndef RUNTIME_KERNELS_CPU_RESHAPE_H_
#define RUNTIME_KERNELS_CPU_RESHAPE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareReshape(KernelContext& context);
[[nodiscard]] Status EvalReshape(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_RESHAPE_H_
