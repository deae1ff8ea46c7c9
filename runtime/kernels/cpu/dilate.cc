#include "runtime/kernels/cpu/dilate.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr size_t kInput = 0, kDilations = 1, kPadding = 2;

// The output shape, or an error for dilations upstream's Eval refuses.
Result<std::vector<int32_t>> DilatedShape(const KernelContext& context) {
  const RuntimeTensor& input = context.input(kInput);
  const RuntimeTensor& dilations = context.input(kDilations);
  const int32_t* factors = dilations.Data<const int32_t>();
  std::vector<int32_t> shape;
  for (int i = 0; i < input.Rank(); ++i) {
    if (factors[i] < 1) {
      return Status::Error("dilation " + std::to_string(factors[i]) + " is below 1");
    }
    const int64_t dim = (static_cast<int64_t>(input.Dim(i)) - 1) * factors[i] + 1;
    if (dim < 0 || dim > INT32_MAX) {
      return Status::Error("output dimension " + std::to_string(dim) + " is out of range");
    }
    shape.push_back(static_cast<int32_t>(dim));
  }
  return shape;
}

}  // namespace

Status PrepareDilate(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  const RuntimeTensor& input = context.input(kInput);
  const RuntimeTensor& dilations = context.input(kDilations);
  if (input.Rank() == 0) return Status::Error("the input is a scalar");
  if (!ElementSize(input.type) || input.type == TensorType::kString) {
    return Status::Error(std::string("the runtime has no kernel for ") +
                         TensorTypeName(input.type) + " input");
  }
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), input.type, "output"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(kPadding), input.type, "padding value"));
  if (context.input(kPadding).NumElements() < 1) {
    return Status::Error("the padding value has no element");
  }
  TFA_RETURN_IF_ERROR(CheckType(dilations, TensorType::kInt32, "dilations"));
  TFA_RETURN_IF_ERROR(CheckRank(dilations, 1, "dilations"));
  if (dilations.Dim(0) != input.Rank()) {
    return Status::Error("dilations " + ShapeString(dilations.shape) + " for an input of rank " +
                         std::to_string(input.Rank()));
  }
  return Status::Ok();
}

Status EvalDilate(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareDilate(context));
  auto shape = DilatedShape(context);
  if (!shape.ok()) return shape.status();
  RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, *shape));
  const RuntimeTensor& input = context.input(kInput);
  const size_t element = *ElementSize(input.type);
  const int rank = input.Rank();
  const int32_t* factors = context.input(kDilations).Data<const int32_t>();
  const uint8_t* padding = context.input(kPadding).data;
  const int64_t out_count = output.NumElements();
  for (int64_t i = 0; i < out_count; ++i) {
    std::memcpy(output.data + static_cast<uint64_t>(i) * element, padding, element);
  }
  // Row-major strides of the output; each input element lands at its coordinates times the
  // dilations.
  std::vector<int64_t> out_strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d) out_strides[d] = out_strides[d + 1] * (*shape)[d + 1];
  const int64_t in_count = input.NumElements();
  for (int64_t i = 0; i < in_count; ++i) {
    int64_t remaining = i, target = 0;
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t coordinate = remaining % input.Dim(d);
      remaining /= input.Dim(d);
      target += coordinate * factors[d] * out_strides[d];
    }
    std::memcpy(output.data + static_cast<uint64_t>(target) * element,
                input.data + static_cast<uint64_t>(i) * element, element);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
