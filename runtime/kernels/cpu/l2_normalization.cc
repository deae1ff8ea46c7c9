#include "runtime/kernels/cpu/l2_normalization.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareL2Normalization(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& input = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(input, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  if (input.Rank() < 1) return Status::Error("input must have rank 1 or more");
  return CheckOutputShape(context.output(0), input.shape);
}

Status EvalL2Normalization(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareL2Normalization(context));
  // Upstream's default epsilon (tflite/kernels/l2norm.cc).
  constexpr float kEpsilon = 1e-6f;
  const RuntimeTensor& input = context.input(0);
  const int64_t depth = input.Dim(input.Rank() - 1);
  if (depth == 0) return Status::Ok();
  const int64_t rows = input.NumElements() / depth;
  const float* in = input.Data<const float>();
  float* out = context.output(0).Data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    float squared = 0;
    for (int64_t c = 0; c < depth; ++c) squared += in[r * depth + c] * in[r * depth + c];
    const float norm = std::max(std::sqrt(squared), kEpsilon);
    for (int64_t c = 0; c < depth; ++c) out[r * depth + c] = in[r * depth + c] / norm;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
