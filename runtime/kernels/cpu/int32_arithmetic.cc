#include "runtime/kernels/cpu/int32_arithmetic.h"

#include <algorithm>
#include <array>
#include <limits>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kWideIntegerTypes = {TensorType::kInt32, TensorType::kInt64};

template <typename T>
struct IntegerRange {
  T min = std::numeric_limits<T>::lowest();
  T max = std::numeric_limits<T>::max();
};

template <typename T>
IntegerRange<T> ActivationBounds(Activation activation) {
  switch (activation) {
    case Activation::kRelu:
      return {0, std::numeric_limits<T>::max()};
    case Activation::kRelu6:
      return {0, 6};
    case Activation::kReluN1To1:
      return {-1, 1};
    default:
      return {};
  }
}

// Applies `op` (on the unsigned twin of T, where wrapping is defined) over the broadcast of both
// inputs.
template <typename T, typename Op>
void Broadcast(KernelContext& context, Op op) {
  using U = std::make_unsigned_t<T>;
  const IntegerRange<T> range = ActivationBounds<T>(context.options().fused_activation);
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* pa = a.Data<const T>();
  const T* pb = b.Data<const T>();
  T* po = out.Data<T>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t ia, int64_t ib) {
    const auto v = static_cast<T>(op(static_cast<U>(pa[ia]), static_cast<U>(pb[ib])));
    po[o] = std::clamp(v, range.min, range.max);
  });
}

template <typename Op>
Status Eval(KernelContext& context, Op op) {
  TFA_RETURN_IF_ERROR(PrepareInt32Or64Binary(context));
  if (context.input(0).type == TensorType::kInt64) {
    Broadcast<int64_t>(context, op);
  } else {
    Broadcast<int32_t>(context, op);
  }
  return Status::Ok();
}

}  // namespace

Status PrepareInt32Or64Binary(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(a, kWideIntegerTypes, "input 0"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), a.type, "input 1"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), a.type, "output"));
  auto shape = BroadcastShape(a.shape, context.input(1).shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalInt32Or64Add(KernelContext& context) {
  return Eval(context, [](auto x, auto y) { return x + y; });
}
Status EvalInt32Or64Sub(KernelContext& context) {
  return Eval(context, [](auto x, auto y) { return x - y; });
}
Status EvalInt32Or64Mul(KernelContext& context) {
  return Eval(context, [](auto x, auto y) { return x * y; });
}

Status PrepareInt32Binary(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareInt32Or64Binary(context));
  return CheckType(context.input(0), TensorType::kInt32, "input 0");
}

Status EvalInt32Div(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareInt32Binary(context));
  // div.cc refuses a zero divisor at Eval; INT32_MIN / -1, which traps on x86, is refused too.
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  const int32_t* pa = a.Data<const int32_t>();
  const int32_t* pb = b.Data<const int32_t>();
  bool overflows = false;
  for (int64_t i = 0; i < b.NumElements(); ++i) {
    if (pb[i] == 0) return Status::Error("DIV by zero");
    overflows = overflows || pb[i] == -1;
  }
  if (overflows) {
    for (int64_t i = 0; i < a.NumElements(); ++i) {
      if (pa[i] == std::numeric_limits<int32_t>::min())
        return Status::Error("DIV of INT32_MIN by -1 overflows");
    }
  }
  const IntegerRange<int32_t> range = ActivationBounds<int32_t>(context.options().fused_activation);
  int32_t* po = context.output(0).Data<int32_t>();
  ForEachBroadcastElement(a.shape, b.shape, context.output(0).shape,
                          [&](int64_t o, int64_t ia, int64_t ib) {
                            po[o] = std::clamp(pa[ia] / pb[ib], range.min, range.max);
                          });
  return Status::Ok();
}

Status EvalInt32SquaredDifference(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareInt32Binary(context));
  Broadcast<int32_t>(context, [](uint32_t x, uint32_t y) { return (x - y) * (x - y); });
  return Status::Ok();
}

}  // namespace tfa::runtime
