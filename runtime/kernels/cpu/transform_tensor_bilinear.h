// TransformTensorBilinear, mediapipe's custom op version 2
// (mediapipe/util/tflite/operations/transform_tensor_bilinear.cc): crops a [1, H, W, C] float
// tensor along a 4x4 row-major matrix. Output pixel (x, y) samples the input at
// (m0 x + m1 y + m3, m4 x + m5 y + m7) after an align-corners correction that treats pixel
// centres as the half-integer points; the sample is bilinear between the four surrounding
// pixels (a neighbour beyond the last row or column reads 0), and a sample point outside
// [0, W-1] x [0, H-1] gives 0 in every channel. The output size is the output tensor's own
// (upstream's Prepare keeps the file's shape); the options' output_height / output_width, when
// present, must agree with it.
#ifndef RUNTIME_KERNELS_CPU_TRANSFORM_TENSOR_BILINEAR_H_
#define RUNTIME_KERNELS_CPU_TRANSFORM_TENSOR_BILINEAR_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareTransformTensorBilinear(KernelContext& context);
[[nodiscard]] Status EvalTransformTensorBilinear(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TRANSFORM_TENSOR_BILINEAR_H_
