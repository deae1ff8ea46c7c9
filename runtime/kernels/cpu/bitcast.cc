#include "runtime/kernels/cpu/bitcast.h"

#include <cstring>
#include <optional>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

std::optional<uint32_t> BitcastSize(TensorType type) {
  switch (type) {
    case TensorType::kString:
    case TensorType::kResource:
    case TensorType::kVariant:
    case TensorType::kInt4:
    case TensorType::kUInt4:
    case TensorType::kInt2:
      return std::nullopt;
    default:
      return ElementSize(type);
  }
}

Result<std::vector<int32_t>> BitcastShape(const RuntimeTensor& input, const RuntimeTensor& output) {
  const auto from = BitcastSize(input.type), to = BitcastSize(output.type);
  if (!from || !to) {
    return Status::Error(std::string("cannot bitcast ") + TensorTypeName(input.type) + " to " +
                         TensorTypeName(output.type) + " (upstream's GetSizeOfType has no size)");
  }
  std::vector<int32_t> shape = input.shape;
  if (*from > *to) {
    shape.push_back(static_cast<int32_t>(*from / *to));
  } else if (*from < *to) {
    if (shape.empty() || shape.back() != static_cast<int32_t>(*to / *from)) {
      return Status::Error("input " + ShapeString(input.shape) + " does not end in " +
                           std::to_string(*to / *from) + " " + TensorTypeName(input.type) +
                           " elements per " + TensorTypeName(output.type));
    }
    shape.pop_back();
  }
  return shape;
}

}  // namespace

Status PrepareBitcast(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  auto shape = BitcastShape(context.input(0), context.output(0));
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), *shape));
  if (context.output(0).bytes != context.input(0).bytes) {
    return Status::Error("output bytes differ from the input's");
  }
  return Status::Ok();
}

Status EvalBitcast(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareBitcast(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  if (out.data != in.data && in.bytes > 0) std::memmove(out.data, in.data, in.bytes);
  return Status::Ok();
}

}  // namespace tfa::runtime
