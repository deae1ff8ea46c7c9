#include "runtime/kernels/cpu/broadcast_to.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

// Upstream's limit on the output rank (broadcast_to.cc kMaxDims).
constexpr size_t kMaxRank = 8;

// The output's shape: the shape input's values, checked against the input's dimensions.
Result<std::vector<int32_t>> BroadcastShape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  const RuntimeTensor& input = context.input(0);
  if (!ElementSize(input.type)) return Status::Error("BROADCAST_TO needs a fixed-size type");
  if (context.output(0).type != input.type)
    return Status::Error("output type differs from the input's");
  auto values = ReadIndexTensor(context.input(1), "shape");
  if (!values.ok()) return values.status();
  if (values->size() > kMaxRank || values->size() < input.shape.size()) {
    return Status::Error("a shape of rank " + std::to_string(values->size()) +
                         " for an input of rank " + std::to_string(input.Rank()));
  }
  std::vector<int32_t> shape;
  for (int64_t v : *values) {
    if (v < 0 || v > INT32_MAX)
      return Status::Error("shape value " + std::to_string(v) + " is out of range");
    shape.push_back(static_cast<int32_t>(v));
  }
  const size_t offset = shape.size() - input.shape.size();
  for (size_t d = 0; d < input.shape.size(); ++d) {
    if (input.shape[d] != 1 && input.shape[d] != shape[offset + d]) {
      return Status::Error("input dimension " + std::to_string(d) + " (" +
                           std::to_string(input.shape[d]) + ") does not broadcast to " +
                           std::to_string(shape[offset + d]));
    }
  }
  return shape;
}

}  // namespace

Status PrepareBroadcastTo(KernelContext& context) {
  auto shape = BroadcastShape(context);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalBroadcastTo(KernelContext& context) {
  auto shape = BroadcastShape(context);
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), *shape));
  const RuntimeTensor& input = context.input(0);
  const uint64_t element = *ElementSize(input.type);
  const auto& out_shape = *shape;
  const size_t rank = out_shape.size();
  // The input's shape padded with leading 1s to the output's rank.
  std::vector<int32_t> in_shape(rank - input.shape.size(), 1);
  in_shape.insert(in_shape.end(), input.shape.begin(), input.shape.end());
  const int64_t total = context.output(0).NumElements();
  std::vector<int32_t> index(rank, 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d)
      source = source * in_shape[d] + (in_shape[d] == 1 ? 0 : index[d]);
    std::memcpy(context.output(0).data + i * element, input.data + source * element, element);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < out_shape[d]) break;
      index[d] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
