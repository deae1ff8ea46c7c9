#include "runtime/kernels/cpu/transform_landmarks.h"

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareTransformLandmarks(KernelContext& context) {
  if (context.node->version != 2) {
    return Status::Error("version " + std::to_string(context.node->version) +
                         " is not supported (mediapipe registers version 2)");
  }
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& landmarks = context.input(0);
  const RuntimeTensor& matrix = context.input(1);
  TFA_RETURN_IF_ERROR(CheckType(landmarks, TensorType::kFloat32, "landmarks"));
  TFA_RETURN_IF_ERROR(CheckRank(landmarks, 3, "landmarks"));
  TFA_RETURN_IF_ERROR(CheckType(matrix, TensorType::kFloat32, "matrix"));
  if (matrix.NumElements() != 16)
    return Status::Error("matrix has shape " + ShapeString(matrix.shape) + ", expected 16 values");
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), landmarks.shape));
  // Upstream transforms only the first batch (it indexes landmarks as if the batch were 1).
  if (landmarks.Dim(0) != 1) return Status::Error("landmarks batch must be 1");
  // Upstream reads the landmark size from the output's last dimension.
  if (landmarks.Dim(2) != 2 && landmarks.Dim(2) != 3) {
    return Status::Error("landmarks have " + std::to_string(landmarks.Dim(2)) +
                         " coordinates, expected 2 or 3");
  }
  return Status::Ok();
}

Status EvalTransformLandmarks(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareTransformLandmarks(context));
  const RuntimeTensor& landmarks = context.input(0);
  const float* m = context.input(1).Data<const float>();
  const float* in = landmarks.Data<const float>();
  float* out = context.output(0).Data<float>();
  const int32_t count = landmarks.Dim(1), size = landmarks.Dim(2);
  for (int64_t i = 0; i < count; ++i) {
    const float* p = in + i * size;
    float* q = out + i * size;
    const float x = p[0], y = p[1];
    q[0] = m[0] * x + m[1] * y + m[3];
    q[1] = m[4] * x + m[5] * y + m[7];
    if (size == 3) q[2] = p[2];
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
