#include "runtime/kernels/cpu/int32_arithmetic.h"

#include <algorithm>
#include <limits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct Int32Range {
  int32_t min = std::numeric_limits<int32_t>::lowest();
  int32_t max = std::numeric_limits<int32_t>::max();
};

Int32Range ActivationBounds(Activation activation) {
  switch (activation) {
    case Activation::kRelu: return {0, std::numeric_limits<int32_t>::max()};
    case Activation::kRelu6: return {0, 6};
    case Activation::kReluN1To1: return {-1, 1};
    default: return {};
  }
}

// Applies `op` (on uint32, where wrapping is defined) over the broadcast of both inputs.
template <typename Op>
Status Broadcast(KernelContext& context, Op op) {
  TFA_RETURN_IF_ERROR(PrepareInt32Binary(context));
  const Int32Range range = ActivationBounds(context.options().fused_activation);
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const int32_t* pa = a.Data<const int32_t>();
  const int32_t* pb = b.Data<const int32_t>();
  int32_t* po = out.Data<int32_t>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t ia, int64_t ib) {
    const auto v =
        static_cast<int32_t>(op(static_cast<uint32_t>(pa[ia]), static_cast<uint32_t>(pb[ib])));
    po[o] = std::clamp(v, range.min, range.max);
  });
  return Status::Ok();
}

}  // namespace

Status PrepareInt32Binary(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kInt32, "input 0"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kInt32, "input 1"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kInt32, "output"));
  auto shape = BroadcastShape(context.input(0).shape, context.input(1).shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalInt32Add(KernelContext& context) {
  return Broadcast(context, [](uint32_t x, uint32_t y) { return x + y; });
}
Status EvalInt32Sub(KernelContext& context) {
  return Broadcast(context, [](uint32_t x, uint32_t y) { return x - y; });
}
Status EvalInt32Mul(KernelContext& context) {
  return Broadcast(context, [](uint32_t x, uint32_t y) { return x * y; });
}

}  // namespace tfa::runtime
