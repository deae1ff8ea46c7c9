// PAD, PADV2 (constant value input) and MIRROR_PAD (REFLECT / SYMMETRIC), any element type.
// Paddings are a [rank, 2] int32/int64 tensor. PAD pads quantized tensors with the output's
// zero point, as upstream does; PADV2 takes the value from its third input.
#ifndef RUNTIME_KERNELS_CPU_PAD_H_
#define RUNTIME_KERNELS_CPU_PAD_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PreparePad(KernelContext& context);
[[nodiscard]] Status EvalPad(KernelContext& context);
[[nodiscard]] Status PrepareMirrorPad(KernelContext& context);
[[nodiscard]] Status EvalMirrorPad(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_PAD_H_
