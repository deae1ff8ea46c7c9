// LOCAL_RESPONSE_NORMALIZATION (tflite/kernels/local_response_norm.cc, reference_ops
// LocalResponseNormalization): float32 of rank 4, normalised along the last dimension:
//   out[c] = in[c] * (bias + alpha * sum of in[k]^2 for k in [c - radius, c + radius]) ^ -beta,
// the window clipped to the dimension. Upstream's uint16 path is not here.
#ifndef RUNTIME_KERNELS_CPU_LOCAL_RESPONSE_NORM_H_
#define RUNTIME_KERNELS_CPU_LOCAL_RESPONSE_NORM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareLocalResponseNorm(KernelContext& context);
[[nodiscard]] Status EvalLocalResponseNorm(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_LOCAL_RESPONSE_NORM_H_
