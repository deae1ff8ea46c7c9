#include "runtime/kernels/cpu/logical.h"

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

template <typename F>
Status MapLogicalBinary(KernelContext& context, F f) {
  TFA_RETURN_IF_ERROR(PrepareLogicalBinary(context));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const uint8_t* x = a.Data<const uint8_t>();
  const uint8_t* y = b.Data<const uint8_t>();
  uint8_t* z = out.Data<uint8_t>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t i, int64_t j) {
    z[o] = f(x[i] != 0, y[j] != 0) ? 1 : 0;
  });
  return Status::Ok();
}

}  // namespace

Status PrepareLogicalBinary(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kBool, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kBool, "second input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kBool, "output"));
  auto shape = BroadcastShape(context.input(0).shape, context.input(1).shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalLogicalAnd(KernelContext& context) {
  return MapLogicalBinary(context, [](bool a, bool b) { return a && b; });
}

Status EvalLogicalOr(KernelContext& context) {
  return MapLogicalBinary(context, [](bool a, bool b) { return a || b; });
}

Status PrepareLogicalNot(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kBool, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kBool, "output"));
  return CheckOutputShape(context.output(0), context.input(0).shape);
}

Status EvalLogicalNot(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareLogicalNot(context));
  const uint8_t* x = context.input(0).Data<const uint8_t>();
  uint8_t* z = context.output(0).Data<uint8_t>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) z[i] = x[i] == 0 ? 1 : 0;
  return Status::Ok();
}

}  // namespace tfa::runtime
