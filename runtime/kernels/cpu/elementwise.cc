#include "runtime/kernels/cpu/elementwise.h"

#include <algorithm>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

Status CheckBinary(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input 0"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kFloat32, "input 1"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto shape = BroadcastShape(context.input(0).shape, context.input(1).shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

// Applies `op` over the broadcast of both inputs. The last output dimension runs as an inner
// loop with each input's stride 0 or 1, so the common cases (same shape, per-channel operand,
// scalar operand) are flat vectorisable loops.
template <typename Op>
Status Broadcast(KernelContext& context, bool fused_activation, Op op) {
  TFA_RETURN_IF_ERROR(CheckBinary(context));
  ActivationRange range = GetActivationRange(Activation::kNone).value();
  if (fused_activation) {
    auto r = GetActivationRange(context.options().fused_activation);
    if (!r.ok()) return r.status();
    range = *r;
  }
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const float* pa = a.Data<const float>();
  const float* pb = b.Data<const float>();
  float* po = out.Data<float>();
  const int64_t total = out.NumElements();
  if (total == 0) return Status::Ok();
  if (a.shape == b.shape) {
    for (int64_t i = 0; i < total; ++i) po[i] = range.Apply(op(pa[i], pb[i]));
    return Status::Ok();
  }
  const std::vector<int32_t>& shape = out.shape;
  const std::vector<int64_t> sa = BroadcastStrides(a.shape, shape);
  const std::vector<int64_t> sb = BroadcastStrides(b.shape, shape);
  const int rank = static_cast<int>(shape.size());
  const int64_t inner = shape.back();
  const int64_t ia = sa.back(), ib = sb.back();
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  int64_t offset_a = 0, offset_b = 0;
  for (int64_t o = 0; o < total; o += inner) {
    for (int64_t i = 0; i < inner; ++i)
      po[o + i] = range.Apply(op(pa[offset_a + i * ia], pb[offset_b + i * ib]));
    // Advance the outer index (all dimensions but the last) like an odometer.
    for (int d = rank - 2; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      ++index[ud];
      offset_a += sa[ud];
      offset_b += sb[ud];
      if (index[ud] < shape[ud]) break;
      offset_a -= sa[ud] * shape[ud];
      offset_b -= sb[ud] * shape[ud];
      index[ud] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace

Status PrepareBinary(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckBinary(context));
  return GetActivationRange(context.options().fused_activation).status();
}

Status EvalAdd(KernelContext& context) {
  return Broadcast(context, true, [](float x, float y) { return x + y; });
}
Status EvalSub(KernelContext& context) {
  return Broadcast(context, true, [](float x, float y) { return x - y; });
}
Status EvalMul(KernelContext& context) {
  return Broadcast(context, true, [](float x, float y) { return x * y; });
}
Status EvalDiv(KernelContext& context) {
  return Broadcast(context, true, [](float x, float y) { return x / y; });
}
Status EvalMaximum(KernelContext& context) {
  return Broadcast(context, false, [](float x, float y) { return std::max(x, y); });
}
Status EvalMinimum(KernelContext& context) {
  return Broadcast(context, false, [](float x, float y) { return std::min(x, y); });
}
Status EvalSquaredDifference(KernelContext& context) {
  return Broadcast(context, false, [](float x, float y) { return (x - y) * (x - y); });
}

}  // namespace tfa::runtime
