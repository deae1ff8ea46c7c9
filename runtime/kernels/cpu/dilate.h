// DILATE (tflite/kernels/dilate.cc): the input's elements spread `dilation - 1` apart along each
// dimension, the gaps filled with the padding value (input 2); a dimension d becomes
// (d - 1) * dilation + 1. Any fixed-size type; dilations below 1 are errors, as upstream's Eval
// makes them.
#ifndef RUNTIME_KERNELS_CPU_DILATE_H_
#define RUNTIME_KERNELS_CPU_DILATE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareDilate(KernelContext& context);
[[nodiscard]] Status EvalDilate(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_DILATE_H_
