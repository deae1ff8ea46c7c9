#include "runtime/kernels/cpu/embedding_lookup_sparse.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr size_t kIds = 0, kIndices = 1, kDenseShape = 2, kWeights = 3, kParams = 4;
constexpr int32_t kCombinerMean = 1, kCombinerSqrtn = 2;

// Divides a finished position by its combiner's divisor; SUM, and any other value upstream's
// FinalizeAggregation does not know, divides by nothing.
void Finish(int32_t combiner, int32_t count, float total_weight, float squared_weights,
            int64_t embedding_size, float* out) {
  if (count == 0) return;
  float divisor = 1.0f;
  if (combiner == kCombinerMean) divisor = total_weight;
  if (combiner == kCombinerSqrtn) divisor = std::sqrt(squared_weights);
  if (divisor == 1.0f) return;
  for (int64_t k = 0; k < embedding_size; ++k) out[k] /= divisor;
}

}  // namespace

Status PrepareEmbeddingLookupSparse(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 5, 5, 1));
  const RuntimeTensor& ids = context.input(kIds);
  const RuntimeTensor& indices = context.input(kIndices);
  const RuntimeTensor& dense_shape = context.input(kDenseShape);
  const RuntimeTensor& weights = context.input(kWeights);
  const RuntimeTensor& params = context.input(kParams);
  TFA_RETURN_IF_ERROR(CheckType(ids, TensorType::kInt32, "ids"));
  TFA_RETURN_IF_ERROR(CheckType(indices, TensorType::kInt32, "indices"));
  TFA_RETURN_IF_ERROR(CheckType(dense_shape, TensorType::kInt32, "dense_shape"));
  TFA_RETURN_IF_ERROR(CheckType(weights, TensorType::kFloat32, "weights"));
  TFA_RETURN_IF_ERROR(CheckType(params, TensorType::kFloat32, "params"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(ids, 1, "ids"));
  TFA_RETURN_IF_ERROR(CheckRank(indices, 2, "indices"));
  TFA_RETURN_IF_ERROR(CheckRank(dense_shape, 1, "dense_shape"));
  TFA_RETURN_IF_ERROR(CheckRank(weights, 1, "weights"));
  if (indices.Dim(0) != ids.Dim(0) || indices.Dim(0) != weights.Dim(0)) {
    return Status::Error("ids, indices and weights do not have the same number of rows");
  }
  if (params.Rank() < 2) {
    return Status::Error("params " + ShapeString(params.shape) + " has rank below 2");
  }
  auto combiner = EmbeddingLookupSparseCombinerOf(context.options());
  return combiner.ok() ? Status::Ok() : combiner.status();
}

Status EvalEmbeddingLookupSparse(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareEmbeddingLookupSparse(context));
  const RuntimeTensor& indices = context.input(kIndices);
  const RuntimeTensor& dense_shape = context.input(kDenseShape);
  const RuntimeTensor& params = context.input(kParams);
  const int32_t lookup_rank = indices.Dim(1);
  if (dense_shape.Dim(0) != lookup_rank || lookup_rank < 1) {
    return Status::Error("dense_shape " + ShapeString(dense_shape.shape) +
                         " does not match indices " + ShapeString(indices.shape));
  }
  const int32_t* dense = dense_shape.Data<const int32_t>();
  std::vector<int32_t> out_shape(dense, dense + lookup_rank - 1);
  out_shape.insert(out_shape.end(), params.shape.begin() + 1, params.shape.end());
  RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, out_shape));

  const int32_t combiner = *EmbeddingLookupSparseCombinerOf(context.options());
  const int32_t* ids = context.input(kIds).Data<const int32_t>();
  const int32_t* index = indices.Data<const int32_t>();
  const float* weights = context.input(kWeights).Data<const float>();
  const float* table = params.Data<const float>();
  float* out = output.Data<float>();
  const int64_t embedding_size = params.NumElements() / std::max(params.Dim(0), 1);
  std::fill_n(out, output.NumElements(), 0.0f);

  // Ids are combined while they fall on the same output position (upstream expects the indices
  // sorted); a new position finishes the previous one.
  int64_t position_offset = 0;
  float total_weight = 0.0f, squared_weights = 0.0f;
  int32_t count = 0;
  const int32_t lookups = context.input(kIds).Dim(0);
  const int32_t rows = params.Dim(0);
  for (int32_t i = 0; i < lookups; ++i) {
    if (ids[i] < 0 || ids[i] >= rows) {
      return Status::Error("id " + std::to_string(ids[i]) + " is outside [0, " +
                           std::to_string(rows) + ")");
    }
    int64_t position = 0, stride = 1;
    for (int32_t k = lookup_rank - 2; k >= 0; --k) {
      const int32_t value = index[static_cast<int64_t>(i) * lookup_rank + k];
      if (value < 0 || value >= dense[k]) {
        return Status::Error("index " + std::to_string(value) + " at dimension " +
                             std::to_string(k) + " is outside [0, " + std::to_string(dense[k]) +
                             ")");
      }
      position += value * stride;
      stride *= dense[k];
    }
    const int64_t offset = position * embedding_size;
    if (offset != position_offset) {
      Finish(combiner, count, total_weight, squared_weights, embedding_size, out + position_offset);
      count = 0;
      total_weight = squared_weights = 0.0f;
      position_offset = offset;
    }
    ++count;
    const float w = weights[i];
    squared_weights += w * w;
    total_weight += w;
    const float* row = table + static_cast<int64_t>(ids[i]) * embedding_size;
    for (int64_t k = 0; k < embedding_size; ++k) out[offset + k] += row[k] * w;
  }
  Finish(combiner, count, total_weight, squared_weights, embedding_size, out + position_offset);
  return Status::Ok();
}

}  // namespace tfa::runtime
