// Landmarks2TransformMatrix, mediapipe's custom op version 2
// (mediapipe/util/tflite/operations/landmarks_to_transform_matrix.cc, options parsed as in
// tflite/delegates/gpu/common/mediapipe/landmarks_to_transform_matrix.cc): from float landmarks
// (x, y, z triples) it builds the 4x4 row-major matrix that maps a pixel of an
// output_width x output_height crop to input coordinates. The crop is aligned with the line from
// landmark left_rotation_idx to right_rotation_idx, turned to target_rotation_radians, and is the
// bounding box of the subset_idxs landmarks in that rotated frame, scaled by scale_x / scale_y.
#ifndef RUNTIME_KERNELS_CPU_LANDMARKS_TO_TRANSFORM_MATRIX_H_
#define RUNTIME_KERNELS_CPU_LANDMARKS_TO_TRANSFORM_MATRIX_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareLandmarksToTransformMatrix(KernelContext& context);
[[nodiscard]] Status EvalLandmarksToTransformMatrix(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_LANDMARKS_TO_TRANSFORM_MATRIX_H_
