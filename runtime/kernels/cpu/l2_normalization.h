// L2_NORMALIZATION of float32 (tflite/kernels/l2norm.cc, reference_ops::L2Normalization): each
// vector along the last dimension divided by its L2 norm, the norm kept at least epsilon 1e-6.
#ifndef RUNTIME_KERNELS_CPU_L2_NORMALIZATION_H_
#define RUNTIME_KERNELS_CPU_L2_NORMALIZATION_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareL2Normalization(KernelContext& context);
[[nodiscard]] Status EvalL2Normalization(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_L2_NORMALIZATION_H_
