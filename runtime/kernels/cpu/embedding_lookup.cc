#include "runtime/kernels/cpu/embedding_lookup.h"

#include <array>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kHybridTableTypes = {TensorType::kInt8, TensorType::kUInt8};

bool IsHybrid(const KernelContext& context) {
  return context.input(1).type != context.output(0).type &&
         context.output(0).type == TensorType::kFloat32;
}

// The checks of upstream's Prepare on a quantized table.
Status CheckTableQuantization(const KernelContext& context) {
  const RuntimeTensor& table = context.input(1);
  const Quantization* q = table.quantization;
  const bool hybrid = IsHybrid(context);
  if (q == nullptr || q->scale.empty()) {
    if (hybrid) return Status::Error("a quantized table needs a scale");
    return Status::Ok();
  }
  if (q->zero_point.empty()) return Status::Error("the table's quantization has no zero point");
  if (hybrid && q->zero_point[0] != 0) {
    return Status::Error("a table dequantized to float32 must be symmetric (zero point 0)");
  }
  if (!q->per_channel()) return Status::Ok();
  if (!hybrid) return Status::Error("a table quantized per row must be dequantized to float32");
  const auto rows = static_cast<size_t>(table.Dim(0));
  if (q->quantized_dimension != 0 || q->scale.size() != rows ||
      (q->zero_point.size() != rows && q->zero_point.size() != 1)) {
    return Status::Error("a table quantized per axis needs one scale per row (dimension 0)");
  }
  return Status::Ok();
}

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& ids = context.input(0);
  const RuntimeTensor& table = context.input(1);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(ids, TensorType::kInt32, "ids"));
  TFA_RETURN_IF_ERROR(CheckRank(ids, 1, "ids"));
  if (table.Rank() < 2) {
    return Status::Error("the table " + ShapeString(table.shape) + " has rank below 2");
  }
  if (IsHybrid(context)) {
    TFA_RETURN_IF_ERROR(CheckTypeIn(table, kHybridTableTypes, "table"));
  } else if (ElementSize(table.type) != ElementSize(out.type)) {
    return Status::Error(std::string("a ") + TensorTypeName(table.type) + " table cannot fill a " +
                         TensorTypeName(out.type) + " output");
  }
  TFA_RETURN_IF_ERROR(CheckTableQuantization(context));
  std::vector<int32_t> shape = table.shape;
  shape[0] = ids.Dim(0);
  return CheckOutputShape(out, shape);
}

Status CheckId(int32_t id, int32_t rows) {
  if (id >= 0 && id < rows) return Status::Ok();
  return Status::Error("id " + std::to_string(id) + " is outside the table's rows [0, " +
                       std::to_string(rows) + ")");
}

}  // namespace

Status PrepareEmbeddingLookup(KernelContext& context) { return CheckTensors(context); }

Status EvalEmbeddingLookup(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& ids = context.input(0);
  const RuntimeTensor& table = context.input(1);
  RuntimeTensor& out = context.output(0);
  const int32_t rows = table.Dim(0);
  const int64_t row_size = rows == 0 ? 0 : table.NumElements() / rows;
  const int32_t* id = ids.Data<const int32_t>();
  const int64_t lookups = ids.NumElements();
  if (!IsHybrid(context)) {
    const uint64_t row_bytes =
        static_cast<uint64_t>(row_size) * ElementSize(table.type).value_or(1);
    for (int64_t i = 0; i < lookups; ++i) {
      TFA_RETURN_IF_ERROR(CheckId(id[i], rows));
      if (row_bytes == 0) continue;
      std::memcpy(out.data + static_cast<uint64_t>(i) * row_bytes,
                  table.data + static_cast<uint64_t>(id[i]) * row_bytes, row_bytes);
    }
    return Status::Ok();
  }
  const Quantization& q = *table.quantization;
  // embedding_lookup.cc EvalHybrid reads the table as int8 whether it is int8 or uint8.
  const int8_t* values = table.Data<const int8_t>();
  float* y = out.Data<float>();
  for (int64_t i = 0; i < lookups; ++i) {
    TFA_RETURN_IF_ERROR(CheckId(id[i], rows));
    const float scale = q.per_channel() ? q.scale[static_cast<size_t>(id[i])] : q.scale[0];
    const int8_t* row = values + static_cast<int64_t>(id[i]) * row_size;
    for (int64_t j = 0; j < row_size; ++j) y[i * row_size + j] = static_cast<float>(row[j]) * scale;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
