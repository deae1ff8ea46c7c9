#include "runtime/kernels/cpu/softmax.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareSoftmax(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  if (context.input(0).Rank() < 1) return Status::Error("input must have at least one dimension");
  return CheckOutputShape(context.output(0), context.input(0).shape);
}

Status EvalSoftmax(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareSoftmax(context));
  const RuntimeTensor& in = context.input(0);
  const int64_t depth = in.shape.back();
  if (depth == 0) return Status::Ok();
  const int64_t rows = in.NumElements() / depth;
  const float beta = context.options().beta;
  // In place is allowed (upstream registers SOFTMAX so): each row is read fully before written.
  const float* x = in.Data<const float>();
  float* y = context.output(0).Data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * depth;
    float* yr = y + r * depth;
    const float max = *std::max_element(xr, xr + depth);
    float sum = 0.0f;
    for (int64_t i = 0; i < depth; ++i) {
      yr[i] = std::exp((xr[i] - max) * beta);
      sum += yr[i];
    }
    for (int64_t i = 0; i < depth; ++i) yr[i] /= sum;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
