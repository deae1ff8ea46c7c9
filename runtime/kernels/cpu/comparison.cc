#include "runtime/kernels/cpu/comparison.h"

#include <functional>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

constexpr int kQuantizedComparisonLeftShift = 8;  // comparisons.cc ComparisonQuantized

bool IsEquality(const KernelContext& context) {
  return context.node->op == "EQUAL" || context.node->op == "NOT_EQUAL";
}

bool IsQuantized(const RuntimeTensor& t) {
  return t.quantization != nullptr && !t.quantization->scale.empty();
}

// EQUAL and NOT_EQUAL rescale quantized int16 like int8; the orderings compare int16 as stored.
bool RescalesInt16(const KernelContext& context) {
  return IsEquality(context) && IsQuantized(context.input(0));
}

// Each int8/uint8 (or quantized int16) operand's stored value, minus its zero point, shifted left 8
// and rescaled by its scale (a multiplier below one).
struct QuantizedOperand {
  int32_t zero_point = 0;
  QuantizedMultiplier multiplier;
  int32_t Rescale(int32_t stored) const {
    return MultiplyByQuantizedMultiplier(
        (stored - zero_point) * (1 << kQuantizedComparisonLeftShift), multiplier);
  }
};

Result<QuantizedOperand> QuantizedOperandOf(const RuntimeTensor& t, const char* role) {
  auto p = PerTensorParams(t, role);
  if (!p.ok()) return p.status();
  // QuantizeMultiplierSmallerThanOneExp checks the scale is below one.
  if (!(p->scale < 1.0f))
    return Status::Error(std::string(role) + " has a quantization scale of 1 or more");
  return QuantizedOperand{p->zero_point, QuantizeMultiplier(p->scale)};
}

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

template <typename T, typename Compare>
Status CompareQuantized(const KernelContext& context, Compare compare) {
  auto qa = QuantizedOperandOf(context.input(0), "input 0");
  if (!qa.ok()) return qa.status();
  auto qb = QuantizedOperandOf(context.input(1), "input 1");
  if (!qb.ok()) return qb.status();
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* x = a.Data<const T>();
  const T* y = b.Data<const T>();
  uint8_t* result = out.Data<uint8_t>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t i, int64_t j) {
    result[o] = compare(qa->Rescale(x[i]), qb->Rescale(y[j])) ? 1 : 0;
  });
  return Status::Ok();
}

template <template <typename> class Compare>
Status EvalCompare(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareComparison(context));
  switch (context.input(0).type) {
    case TensorType::kInt8:
      return CompareQuantized<int8_t>(context, Compare<int32_t>());
    case TensorType::kUInt8:
      return CompareQuantized<uint8_t>(context, Compare<int32_t>());
    case TensorType::kInt16:
      if (RescalesInt16(context)) return CompareQuantized<int16_t>(context, Compare<int32_t>());
      CompareAll<int16_t>(context, Compare<int16_t>());
      return Status::Ok();
    case TensorType::kBool:
      CompareAll<uint8_t>(context, Compare<uint8_t>());
      return Status::Ok();
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
  switch (a.type) {
    case TensorType::kFloat32:
    case TensorType::kInt32:
    case TensorType::kInt64:
      break;
    case TensorType::kInt16:
      // comparisons.cc's NOT_EQUAL leaves the output unwritten on an unquantized int16.
      if (context.node->op == "NOT_EQUAL" && !IsQuantized(a))
        return Status::Error("NOT_EQUAL of unquantized int16 is not supported");
      if (!RescalesInt16(context)) break;
      [[fallthrough]];
    case TensorType::kInt8:
    case TensorType::kUInt8: {
      auto qa = QuantizedOperandOf(a, "input 0");
      if (!qa.ok()) return qa.status();
      TFA_RETURN_IF_ERROR(QuantizedOperandOf(b, "input 1").status());
      break;
    }
    case TensorType::kBool:
      if (IsEquality(context)) break;
      [[fallthrough]];
    default:
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
