// SOFTMAX (float32) over the last dimension: exp(beta * (x - max)) / sum, as upstream.
#ifndef RUNTIME_KERNELS_CPU_SOFTMAX_H_
#define RUNTIME_KERNELS_CPU_SOFTMAX_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSoftmax(KernelContext& context);
[[nodiscard]] Status EvalSoftmax(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SOFTMAX_H_
