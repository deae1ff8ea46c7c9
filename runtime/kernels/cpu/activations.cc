#include "runtime/kernels/cpu/activations.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
Status PrepareUnaryFloat(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  return CheckOutputShape(context.output(0), context.input(0).shape);
}

Status EvalRelu(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::max(x, 0.0f); });
}
Status EvalRelu6(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::min(std::max(x, 0.0f), 6.0f); });
}
Status EvalReluN1To1(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::min(std::max(x, -1.0f), 1.0f); });
}
Status EvalRelu0To1(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::min(std::max(x, 0.0f), 1.0f); });
}
Status EvalLogistic(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
}
Status EvalTanh(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::tanh(x); });
}
Status EvalHardSwish(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f; });
}
Status EvalLeakyRelu(KernelContext& context) {
  const float alpha = context.options().alpha;
  return MapUnaryFloat(context, [alpha](float x) { return x > 0.0f ? x : x * alpha; });
}
Status EvalElu(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return x < 0.0f ? std::expm1(x) : x; });
}

Status PreparePrelu(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kFloat32, "alpha"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto shape = BroadcastShape(context.input(0).shape, context.input(1).shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalPrelu(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PreparePrelu(context));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& alpha = context.input(1);
  RuntimeTensor& out = context.output(0);
  const float* x = in.Data<const float>();
  const float* a = alpha.Data<const float>();
  float* y = out.Data<float>();
  const int64_t n = out.NumElements();
  if (n == 0) return Status::Ok();
  // The corpus' case: alpha broadcast along the inner dimensions of an input of the output's
  // shape; alpha then repeats with period alpha.NumElements().
  const int64_t alpha_size = alpha.NumElements();
  int leading_ones = 0;
  while (leading_ones < alpha.Rank() && alpha.Dim(leading_ones) == 1) ++leading_ones;
  const int alpha_rank = alpha.Rank() - leading_ones;
  bool periodic = in.shape == out.shape && alpha_rank <= out.Rank() && alpha_size > 0;
  for (int i = 0; periodic && i < alpha_rank; ++i) {
    periodic = alpha.Dim(alpha.Rank() - 1 - i) == out.Dim(out.Rank() - 1 - i);
  }
  if (periodic) {
    for (int64_t o = 0; o < n; o += alpha_size) {
      for (int64_t i = 0; i < alpha_size; ++i) {
        const float v = x[o + i];
        y[o + i] = v >= 0.0f ? v : v * a[i];
      }
    }
    return Status::Ok();
  }
  const std::vector<int64_t> sx = BroadcastStrides(in.shape, out.shape);
  const std::vector<int64_t> sa = BroadcastStrides(alpha.shape, out.shape);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, ox = 0, oa = 0;
    for (int d = out.Rank() - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      const int64_t coord = rest % out.shape[ud];
      rest /= out.shape[ud];
      ox += coord * sx[ud];
      oa += coord * sa[ud];
    }
    y[i] = x[ox] >= 0.0f ? x[ox] : x[ox] * a[oa];
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
