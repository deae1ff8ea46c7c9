#include "runtime/kernels/cpu/gather_nd.h"

#include <array>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kParamsTypes = {
    TensorType::kFloat32, TensorType::kFloat16, TensorType::kBFloat16, TensorType::kUInt8,
    TensorType::kInt8,    TensorType::kInt16,   TensorType::kUInt16,   TensorType::kInt32,
    TensorType::kInt64,   TensorType::kBool};
constexpr std::array kIndicesTypes = {TensorType::kInt32, TensorType::kInt64, TensorType::kInt16};

Result<std::vector<int64_t>> ReadIndices(const RuntimeTensor& indices) {
  if (indices.type != TensorType::kInt16) return ReadIndexTensor(indices, "indices");
  const int16_t* v = indices.Data<const int16_t>();
  return std::vector<int64_t>(v, v + indices.NumElements());
}

}  // namespace

Status PrepareGatherNd(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& params = context.input(0);
  const RuntimeTensor& indices = context.input(1);
  TFA_RETURN_IF_ERROR(CheckTypeIn(params, kParamsTypes, "params"));
  TFA_RETURN_IF_ERROR(CheckTypeIn(indices, kIndicesTypes, "indices"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), params.type, "output"));
  if (params.Rank() < 1) return Status::Error("params must be at least a vector");
  if (indices.Rank() < 1) return Status::Error("indices must be at least a vector");
  const int32_t nd = indices.shape.back();
  if (nd < 0 || nd > params.Rank()) {
    return Status::Error("the index depth " + std::to_string(nd) + " exceeds params rank " +
                         std::to_string(params.Rank()));
  }
  std::vector<int32_t> shape(indices.shape.begin(), indices.shape.end() - 1);
  shape.insert(shape.end(), params.shape.begin() + nd, params.shape.end());
  return CheckOutputShape(context.output(0), shape);
}

Status EvalGatherNd(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareGatherNd(context));
  const RuntimeTensor& params = context.input(0);
  const RuntimeTensor& indices = context.input(1);
  RuntimeTensor& out = context.output(0);
  if (params.NumElements() == 0 && indices.NumElements() > 0) {
    return Status::Error("indices into empty params");
  }
  auto values = ReadIndices(indices);
  if (!values.ok()) return values.status();
  const auto nd = static_cast<size_t>(indices.shape.back());
  // Elements per step of each indexed dimension, and per slice.
  std::vector<int64_t> stride(nd, 1);
  int64_t slice = 1;
  for (int d = params.Rank() - 1; d >= 0; --d) {
    if (static_cast<size_t>(d) < nd) stride[static_cast<size_t>(d)] = slice;
    slice *= params.Dim(d);
  }
  slice = 1;
  for (int d = static_cast<int>(nd); d < params.Rank(); ++d) slice *= params.Dim(d);
  const int64_t params_elements = params.NumElements();
  const uint64_t element_bytes = ElementSize(params.type).value_or(1);
  int64_t slices = 1;
  for (int d = 0; d + 1 < indices.Rank(); ++d) slices *= indices.Dim(d);
  // gather_nd.cc refuses any negative index before gathering.
  for (int64_t index : *values) {
    if (index < 0)
      return Status::Error("gather_nd index " + std::to_string(index) + " is negative");
  }
  for (int64_t s = 0; s < slices; ++s) {
    int64_t from = 0;
    for (size_t j = 0; j < nd; ++j) {
      from += (*values)[static_cast<size_t>(s) * nd + j] * stride[j];
    }
    if (from + slice > params_elements) {
      return Status::Error("gather_nd index out of bounds: slice " + std::to_string(s) +
                           " starts at element " + std::to_string(from) + " of " +
                           std::to_string(params_elements));
    }
    std::memcpy(out.data + static_cast<uint64_t>(s * slice) * element_bytes,
                params.data + static_cast<uint64_t>(from) * element_bytes,
                static_cast<uint64_t>(slice) * element_bytes);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
