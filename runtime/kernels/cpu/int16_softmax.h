// SOFTMAX on int16 tensors (16x8 models), as upstream computes it for every kernel type
// (tflite/kernels/activations.cc SoftmaxPrepare, reference_ops::SoftmaxInt16): zero points 0,
// output scale 1/32768 within 0.1%, rank 1 to 4. Each row's differences from its maximum are
// rescaled so that [-65535, 0] spans [-10, 0] (multiplier s_in * beta / (10 / 65535)), looked up
// in a 513-entry exp table over [-10, 0]; the Q15 sum, normalised by its leading zeros, is looked
// up in a 1 / (1 + x) table over [0, 1]; each exp times that reciprocal, rounded by the sum's
// headroom, clamped to [0, 32767], is the output. Both tables are built in double.
#ifndef RUNTIME_KERNELS_CPU_INT16_SOFTMAX_H_
#define RUNTIME_KERNELS_CPU_INT16_SOFTMAX_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareInt16Softmax(KernelContext& context);
[[nodiscard]] Status EvalInt16Softmax(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT16_SOFTMAX_H_
