#include "runtime/kernels/cpu/integer_maximum_minimum.h"

#include <cstdint>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

bool IsIntegerType(TensorType type) {
  switch (type) {
    case TensorType::kInt8:
    case TensorType::kUInt8:
    case TensorType::kInt16:
    case TensorType::kInt32:
    case TensorType::kInt64:
      return true;
    default:
      return false;
  }
}

// Upstream's MaximumOp / MinimumOp.
struct Maximum {
  template <typename T>
  static T Apply(T a, T b) {
    return a > b ? a : b;
  }
};
struct Minimum {
  template <typename T>
  static T Apply(T a, T b) {
    return a < b ? a : b;
  }
};

template <typename T, typename Op>
void Run(KernelContext& context) {
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* x = a.Data<const T>();
  const T* y = b.Data<const T>();
  T* z = out.Data<T>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape,
                          [&](int64_t o, int64_t i, int64_t j) { z[o] = Op::Apply(x[i], y[j]); });
}

template <typename Op>
Status Eval(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareIntegerMaximumMinimum(context));
  // Upstream returns at once when an input has no elements.
  if (context.input(0).NumElements() == 0 || context.input(1).NumElements() == 0)
    return Status::Ok();
  switch (context.input(0).type) {
    case TensorType::kInt8:
      Run<int8_t, Op>(context);
      break;
    case TensorType::kUInt8:
      Run<uint8_t, Op>(context);
      break;
    case TensorType::kInt16:
      Run<int16_t, Op>(context);
      break;
    case TensorType::kInt32:
      Run<int32_t, Op>(context);
      break;
    default:
      Run<int64_t, Op>(context);
      break;
  }
  return Status::Ok();
}

}  // namespace

bool HasIntegerInput(const KernelContext& context) {
  return !context.inputs.empty() && context.inputs[0] && IsIntegerType(context.inputs[0]->type);
}

Status PrepareIntegerMaximumMinimum(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  if (!IsIntegerType(a.type)) {
    return Status::Error(std::string("input 0 is ") + TensorTypeName(a.type) +
                         ", not an integer type");
  }
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), a.type, "input 1"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), a.type, "output"));
  auto shape = BroadcastShape(a.shape, context.input(1).shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalIntegerMaximum(KernelContext& context) { return Eval<Maximum>(context); }
Status EvalIntegerMinimum(KernelContext& context) { return Eval<Minimum>(context); }

}  // namespace tfa::runtime
