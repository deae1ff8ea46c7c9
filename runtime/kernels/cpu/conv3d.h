// CONV_3D and CONV_3D_TRANSPOSE (float32, NDHWC), as upstream's reference kernels
// (tflite/kernels/conv3d.cc, conv3d_transpose.cc, internal/reference/conv3d.h,
// conv3d_transpose.h). CONV_3D: filter [kd, kh, kw, in_c, out_c], optional bias, fused
// activation. CONV_3D_TRANSPOSE: inputs output_shape [5], filter [kd, kh, kw, out_c, in_c], input,
// optional bias; each input element scatters into the output, padding computed from the output
// size as for the forward convolution that the transpose inverts.
#ifndef RUNTIME_KERNELS_CPU_CONV3D_H_
#define RUNTIME_KERNELS_CPU_CONV3D_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareConv3D(KernelContext& context);
[[nodiscard]] Status EvalConv3D(KernelContext& context);
[[nodiscard]] Status PrepareConv3DTranspose(KernelContext& context);
[[nodiscard]] Status EvalConv3DTranspose(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_CONV3D_H_
