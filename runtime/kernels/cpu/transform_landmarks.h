// TransformLandmarks, mediapipe's custom op version 2
// (mediapipe/util/tflite/operations/transform_landmarks.cc): maps each landmark of a
// [1, N, D] float tensor (D = 2 or 3, read from the shape; the op has no options) through the
// first two rows of a 4x4 row-major matrix: x' = m0 x + m1 y + m3, y' = m4 x + m5 y + m7, the
// landmark taken at z = 0. A third coordinate is copied unchanged. The output has the input's
// shape.
#ifndef RUNTIME_KERNELS_CPU_TRANSFORM_LANDMARKS_H_
#define RUNTIME_KERNELS_CPU_TRANSFORM_LANDMARKS_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareTransformLandmarks(KernelContext& context);
[[nodiscard]] Status EvalTransformLandmarks(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TRANSFORM_LANDMARKS_H_
