#include "runtime/kernels/cpu/fill.h"

#include <array>
#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareFill(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& value = context.input(1);
  if (value.NumElements() != 1) return Status::Error("the value input is not a scalar");
  RuntimeTensor& out = context.output(0);
  if (out.type != value.type) {
    return Status::Error(std::string("the output is ") + TensorTypeName(out.type) + ", the value " +
                         TensorTypeName(value.type));
  }
  switch (value.type) {
    case TensorType::kFloat32:
    case TensorType::kInt32:
    case TensorType::kInt64:
    case TensorType::kBool:
      break;
    default:
      return Status::Error(std::string("FILL of ") + TensorTypeName(value.type) +
                           " is not supported");
  }
  // The dims are only known here when constant; otherwise the planned shape stands.
  if (!context.input(0).is_constant) return Status::Ok();
  auto dims = ReadIndexTensor(context.input(0), "dims");
  if (!dims.ok()) return dims.status();
  std::vector<int32_t> shape;
  for (int64_t d : *dims) shape.push_back(static_cast<int32_t>(d));
  return CheckOutputShape(out, shape);
}

Status EvalFill(KernelContext& context) {
  const RuntimeTensor& value = context.input(1);
  RuntimeTensor& out = context.output(0);
  const uint64_t element = value.bytes;
  if (element == 0 || out.bytes % element != 0)
    return Status::Error("the output size is not a whole number of values");
  for (uint64_t offset = 0; offset < out.bytes; offset += element)
    std::memcpy(out.data + offset, value.data, element);
  return Status::Ok();
}

Status PrepareZerosLike(KernelContext& context) {
  constexpr std::array kTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt64};
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  return CheckOutputShape(context.output(0), in.shape);
}

Status EvalZerosLike(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareZerosLike(context));
  RuntimeTensor& out = context.output(0);
  if (out.bytes > 0) std::memset(out.data, 0, out.bytes);
  return Status::Ok();
}

}  // namespace tfa::runtime
