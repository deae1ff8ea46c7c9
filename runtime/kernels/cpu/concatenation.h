// CONCATENATION along `axis` (negative counts from the end), on the element types upstream's
// Prepare lists (int16 with zero points 0, copied without rescaling as upstream does): each input
// contributes a contiguous run of bytes per outer index. Float fused activations other than NONE
// are refused rather than guessed.
#ifndef RUNTIME_KERNELS_CPU_CONCATENATION_H_
#define RUNTIME_KERNELS_CPU_CONCATENATION_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareConcatenation(KernelContext& context);
[[nodiscard]] Status EvalConcatenation(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_CONCATENATION_H_
