// BITCAST (tflite/kernels/bitcast.cc): the input's bytes read as the output's type. A wider input
// element gains a last dimension of (input size / output size); a narrower one drops its last
// dimension, which must be (output size / input size). Registered in place with data unmodified,
// so when the plan gave the output the input's buffer there is nothing to copy. Types are those
// upstream's GetSizeOfType sizes (not string, resource, variant or the sub-byte ones).
#ifndef RUNTIME_KERNELS_CPU_BITCAST_H_
#define RUNTIME_KERNELS_CPU_BITCAST_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBitcast(KernelContext& context);
[[nodiscard]] Status EvalBitcast(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BITCAST_H_
