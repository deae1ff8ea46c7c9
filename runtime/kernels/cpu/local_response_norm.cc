#include "runtime/kernels/cpu/local_response_norm.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareLocalResponseNorm(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 4, "input"));
  return CheckOutputShape(context.output(0), in.shape);
}

Status EvalLocalResponseNorm(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareLocalResponseNorm(context));
  const RuntimeTensor& in = context.input(0);
  const OpOptions& o = context.options();
  const int64_t depth = in.Dim(3);
  const int64_t rows = depth == 0 ? 0 : in.NumElements() / depth;
  const int64_t radius = o.radius;
  const float* x = in.Data<const float>();
  float* y = context.output(0).Data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * depth;
    float* out = y + r * depth;
    for (int64_t c = 0; c < depth; ++c) {
      const int64_t begin = std::max<int64_t>(0, c - radius);
      const int64_t end = std::min(depth, c + radius + 1);
      float squares = 0.0f;
      for (int64_t k = begin; k < end; ++k) squares += row[k] * row[k];
      out[c] = row[c] * std::pow(o.bias + o.alpha * squares, -o.beta);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
