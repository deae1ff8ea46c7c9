#include "runtime/kernels/cpu/where.h"

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  switch (context.input(0).type) {
    case TensorType::kBool:
    case TensorType::kFloat32:
    case TensorType::kInt64:
    case TensorType::kInt32:
    case TensorType::kInt8:
    case TensorType::kUInt8:
    case TensorType::kUInt32:
      break;
    default:
      return Status::Error(std::string("condition has unsupported type ") +
                           TensorTypeName(context.input(0).type));
  }
  // Upstream sets the output's type to int64; the runtime runs on the model's.
  return CheckType(context.output(0), TensorType::kInt64, "output");
}

// Calls `visit(flat_index)` for each nonzero element of the condition, in order.
template <typename T, typename Visit>
void ForEachNonzero(const RuntimeTensor& condition, Visit visit) {
  const T* data = condition.Data<const T>();
  const int64_t n = condition.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (data[i] != T(0)) visit(i);
  }
}

template <typename Visit>
void ForEachTrue(const RuntimeTensor& condition, Visit visit) {
  switch (condition.type) {
    case TensorType::kBool:
      return ForEachNonzero<bool>(condition, visit);
    case TensorType::kFloat32:
      return ForEachNonzero<float>(condition, visit);
    case TensorType::kInt64:
      return ForEachNonzero<int64_t>(condition, visit);
    case TensorType::kInt32:
      return ForEachNonzero<int32_t>(condition, visit);
    case TensorType::kInt8:
      return ForEachNonzero<int8_t>(condition, visit);
    case TensorType::kUInt8:
      return ForEachNonzero<uint8_t>(condition, visit);
    case TensorType::kUInt32:
      return ForEachNonzero<uint32_t>(condition, visit);
    default:
      return;
  }
}

std::vector<int32_t> CountedShape(const RuntimeTensor& condition) {
  int64_t count = 0;
  ForEachTrue(condition, [&count](int64_t) { ++count; });
  return {static_cast<int32_t>(count), condition.Rank()};
}

}  // namespace

Status PrepareWhere(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& condition = context.input(0);
  const RuntimeTensor& output = context.output(0);
  if (condition.is_constant) return CheckOutputShape(output, CountedShape(condition));
  if (output.Rank() != 2 || output.Dim(1) != condition.Rank()) {
    return Status::Error("output has shape " + ShapeString(output.shape) + ", expected [n," +
                         std::to_string(condition.Rank()) + "]");
  }
  return Status::Ok();
}

Status EvalWhere(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& condition = context.input(0);
  RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, CountedShape(condition))
                          .WithContext("the condition's true count differs from the planned "
                                       "output rows (upstream would resize the output)"));
  if (condition.Rank() == 0) return Status::Error("WHERE requires a condition of rank > 0");
  // Row-major coordinates: the flat index divided by the trailing dimensions' products.
  const int rank = condition.Rank();
  std::vector<int64_t> trailing(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d)
    trailing[static_cast<size_t>(d)] = trailing[static_cast<size_t>(d) + 1] * condition.Dim(d + 1);
  int64_t* out = output.Data<int64_t>();
  ForEachTrue(condition, [&](int64_t flat) {
    for (int d = 0; d < rank; ++d) {
      *out++ = flat / trailing[static_cast<size_t>(d)];
      flat %= trailing[static_cast<size_t>(d)];
    }
  });
  return Status::Ok();
}

}  // namespace tfa::runtime
