// DEPTH_TO_SPACE and SPACE_TO_DEPTH (NHWC, any element type) with the block size from the
// operator's options: output[b, y, x, c] = input[b, y / bs, x / bs, ((y % bs) * bs + x % bs) *
// out_c + c], and its inverse.
#ifndef RUNTIME_KERNELS_CPU_DEPTH_TO_SPACE_H_
#define RUNTIME_KERNELS_CPU_DEPTH_TO_SPACE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareDepthToSpace(KernelContext& context);
[[nodiscard]] Status EvalDepthToSpace(KernelContext& context);
[[nodiscard]] Status PrepareSpaceToDepth(KernelContext& context);
[[nodiscard]] Status EvalSpaceToDepth(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_DEPTH_TO_SPACE_H_
