#include "runtime/kernels/cpu/reverse.h"

#include <array>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kReverseTypes = {TensorType::kFloat32, TensorType::kUInt8, TensorType::kInt8,
                                      TensorType::kInt16,   TensorType::kInt32, TensorType::kInt64,
                                      TensorType::kBool};

// Which dimensions are reversed.
Result<std::vector<bool>> ReversedDims(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kReverseTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), in.shape));
  auto axes = ReadIndexTensor(context.input(1), "axis");
  if (!axes.ok()) return axes.status();
  std::vector<bool> reversed(static_cast<size_t>(in.Rank()), false);
  for (int64_t a : *axes) {
    auto axis = ResolveAxis(a, in.Rank());
    if (!axis.ok()) return axis.status();
    reversed[static_cast<size_t>(*axis)] = true;
  }
  return reversed;
}

}  // namespace

Status PrepareReverseV2(KernelContext& context) { return ReversedDims(context).status(); }

Status EvalReverseV2(KernelContext& context) {
  auto reversed = ReversedDims(context);
  if (!reversed.ok()) return reversed.status();
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const uint64_t element_bytes = ElementSize(in.type).value_or(1);
  const int rank = in.Rank();
  const int64_t total = in.NumElements();
  std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d) {
    strides[static_cast<size_t>(d)] = strides[static_cast<size_t>(d) + 1] * in.Dim(d + 1);
  }
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t source = 0;
    for (int d = 0; d < rank; ++d) {
      const auto ud = static_cast<size_t>(d);
      const int32_t at = (*reversed)[ud] ? in.Dim(d) - 1 - index[ud] : index[ud];
      source += at * strides[ud];
    }
    std::memcpy(out.data + static_cast<uint64_t>(i) * element_bytes,
                in.data + static_cast<uint64_t>(source) * element_bytes, element_bytes);
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      if (++index[ud] < in.Dim(d)) break;
      index[ud] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
