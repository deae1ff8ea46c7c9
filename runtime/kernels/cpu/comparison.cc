#include "runtime/kernels/cpu/comparison.h"

#include <functional>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

template <typename T, typename Compare>
void CompareAll(const KernelContext& context, Compare compare) {
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* x = a.Data<const T>();
  const T* y = b.Data<const T>();
  uint8_t* result = out.Data<uint8_t>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t i, int64_t j) {
    result[o] = compare(x[i], y[j]) ? 1 : 0;
  });
}

template <template <typename> class Compare>
Status EvalCompare(KernelContext& context) {
  switch (context.input(0).type) {
    case TensorType::kFloat32:
      CompareAll<float>(context, Compare<float>());
      return Status::Ok();
    case TensorType::kInt32:
      CompareAll<int32_t>(context, Compare<int32_t>());
      return Status::Ok();
    case TensorType::kInt64:
      CompareAll<int64_t>(context, Compare<int64_t>());
      return Status::Ok();
    default:
      return Status::Error(std::string("comparison of ") + TensorTypeName(context.input(0).type) +
                           " is not supported");
  }
}

}  // namespace

Status PrepareComparison(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  if (a.type != b.type) {
    return Status::Error(std::string("operands of different types: ") + TensorTypeName(a.type) +
                         " and " + TensorTypeName(b.type));
  }
  if (a.type != TensorType::kFloat32 && a.type != TensorType::kInt32 &&
      a.type != TensorType::kInt64) {
    return Status::Error(std::string("comparison of ") + TensorTypeName(a.type) +
                         " is not supported");
  }
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kBool, "output"));
  auto shape = BroadcastShape(a.shape, b.shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalLess(KernelContext& context) { return EvalCompare<std::less>(context); }
Status EvalLessEqual(KernelContext& context) { return EvalCompare<std::less_equal>(context); }
Status EvalGreater(KernelContext& context) { return EvalCompare<std::greater>(context); }
Status EvalGreaterEqual(KernelContext& context) { return EvalCompare<std::greater_equal>(context); }
Status EvalEqual(KernelContext& context) { return EvalCompare<std::equal_to>(context); }
Status EvalNotEqual(KernelContext& context) { return EvalCompare<std::not_equal_to>(context); }

}  // namespace tfa::runtime
