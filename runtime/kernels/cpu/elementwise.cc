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

// Applies `op` over the broadcast of both inputs (ForEachBroadcastElement).
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
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t ia, int64_t ib) {
    po[o] = range.Apply(op(pa[ia], pb[ib]));
  });
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
