#include "runtime/kernels/cpu/sparse_to_dense.h"

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr size_t kIndices = 0, kOutputShape = 1, kValues = 2, kDefault = 3;
constexpr int kMaxRank = 4;
constexpr std::array kIndexTypes = {TensorType::kInt32, TensorType::kInt64};
constexpr std::array kValueTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt64,
                                    TensorType::kInt8, TensorType::kUInt8};

template <typename T>
std::vector<int64_t> Widen(const RuntimeTensor& tensor) {
  const T* data = tensor.Data<const T>();
  return std::vector<int64_t>(data, data + tensor.NumElements());
}

std::vector<int64_t> IndexValues(const RuntimeTensor& tensor) {
  return tensor.type == TensorType::kInt32 ? Widen<int32_t>(tensor) : Widen<int64_t>(tensor);
}

// Entries per index: 1 for 0-D or 1-D indices, else the second dimension.
int64_t IndexWidth(const RuntimeTensor& indices) {
  return indices.Rank() == 2 ? indices.Dim(1) : 1;
}

int64_t IndexCount(const RuntimeTensor& indices) {
  return indices.Rank() == 0 ? 1 : indices.Dim(0);
}

}  // namespace

Status PrepareSparseToDense(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 4, 4, 1));
  const RuntimeTensor& indices = context.input(kIndices);
  const RuntimeTensor& shape = context.input(kOutputShape);
  const RuntimeTensor& values = context.input(kValues);
  const RuntimeTensor& fill = context.input(kDefault);
  TFA_RETURN_IF_ERROR(CheckTypeIn(indices, kIndexTypes, "indices"));
  TFA_RETURN_IF_ERROR(CheckTypeIn(shape, kIndexTypes, "output shape"));
  TFA_RETURN_IF_ERROR(CheckTypeIn(values, kValueTypes, "values"));
  TFA_RETURN_IF_ERROR(CheckType(fill, values.type, "default value"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), values.type, "output"));
  // Upstream takes the index count from the first dimension, which 0-D indices do not have.
  if (indices.Rank() < 1 || indices.Rank() > 2) {
    return Status::Error("indices " + ShapeString(indices.shape) + " are not 1-D or 2-D");
  }
  TFA_RETURN_IF_ERROR(CheckRank(shape, 1, "output shape"));
  if (values.Rank() > 1)
    return Status::Error("values " + ShapeString(values.shape) + " are not 0-D or 1-D");
  if (fill.NumElements() != 1) return Status::Error("the default value is not one element");
  if (shape.Dim(0) > kMaxRank) {
    return Status::Error("output shape of " + std::to_string(shape.Dim(0)) +
                         " dimensions (upstream's kernel takes at most 4)");
  }
  if (IndexWidth(indices) != shape.Dim(0)) {
    return Status::Error("indices " + ShapeString(indices.shape) + " do not address an output of " +
                         std::to_string(shape.Dim(0)) + " dimensions");
  }
  if (values.Rank() == 1 && values.NumElements() < IndexCount(indices)) {
    return Status::Error("values " + ShapeString(values.shape) + " are fewer than the indices");
  }
  if (!shape.is_constant) return Status::Ok();
  std::vector<int32_t> dims;
  for (int64_t d : IndexValues(shape)) dims.push_back(static_cast<int32_t>(d));
  return CheckOutputShape(context.output(0), dims);
}

Status EvalSparseToDense(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareSparseToDense(context));
  const RuntimeTensor& indices = context.input(kIndices);
  const RuntimeTensor& values = context.input(kValues);
  RuntimeTensor& output = context.output(0);
  std::vector<int32_t> dims;
  for (int64_t d : IndexValues(context.input(kOutputShape)))
    dims.push_back(static_cast<int32_t>(d));
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, dims));
  const auto size = static_cast<size_t>(*ElementSize(values.type));
  const uint8_t* fill = context.input(kDefault).data;
  for (int64_t i = 0; i < output.NumElements(); ++i)
    std::memcpy(output.data + i * size, fill, size);
  const std::vector<int64_t> positions = IndexValues(indices);
  const int64_t width = IndexWidth(indices);
  for (int64_t n = 0; n < IndexCount(indices); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < width; ++d) {
      const int64_t at = positions[static_cast<size_t>(n * width + d)];
      if (at < 0 || at >= dims[static_cast<size_t>(d)]) {
        return Status::Error("index " + std::to_string(at) + " of entry " + std::to_string(n) +
                             " is outside the output " + ShapeString(dims));
      }
      offset = offset * dims[static_cast<size_t>(d)] + at;
    }
    const int64_t source = values.Rank() == 0 ? 0 : n;
    std::memcpy(output.data + static_cast<size_t>(offset) * size,
                values.data + static_cast<size_t>(source) * size, size);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
