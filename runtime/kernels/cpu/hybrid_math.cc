#include "runtime/kernels/cpu/hybrid_math.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

QuantizedRow SymmetricQuantizeFloats(const float* values, int64_t size, int8_t* quantized) {
  QuantizedRow row;
  if (size == 0) return row;
  const auto [min, max] = std::minmax_element(values, values + size);
  const float range = std::max(std::abs(*min), std::abs(*max));
  if (range == 0) {
    std::memset(quantized, 0, static_cast<size_t>(size));
    return row;
  }
  row.scale = range / 127;
  const float inverse = 127 / range;
  for (int64_t i = 0; i < size; ++i) {
    const auto q = static_cast<int32_t>(std::round(values[i] * inverse));
    quantized[i] = static_cast<int8_t>(std::clamp(q, -127, 127));
  }
  return row;
}

QuantizedRow AsymmetricQuantizeFloats(const float* values, int64_t size, int8_t* quantized) {
  QuantizedRow row;
  if (size == 0) return row;
  const auto [min, max] = std::minmax_element(values, values + size);
  const double rmin = std::min(0.0f, *min), rmax = std::max(0.0f, *max);
  if (rmin == rmax) {
    std::memset(quantized, 0, static_cast<size_t>(size));
    return row;
  }
  constexpr double kQmin = -128, kQmax = 127;
  const double scale = (rmax - rmin) / (kQmax - kQmin);
  const double from_min = kQmin - rmin / scale, from_max = kQmax - rmax / scale;
  const double from_min_error = std::abs(kQmin) + std::abs(rmin / scale);
  const double from_max_error = std::abs(kQmax) + std::abs(rmax / scale);
  const double zero_point = from_min_error < from_max_error ? from_min : from_max;
  row.offset = zero_point <= kQmin   ? -128
               : zero_point >= kQmax ? 127
                                     : static_cast<int32_t>(std::round(zero_point));
  row.scale = static_cast<float>(scale);
  const float inverse = 1.0f / row.scale;
  for (int64_t i = 0; i < size; ++i) {
    const auto q = static_cast<int32_t>(std::round(row.offset + values[i] * inverse));
    quantized[i] = static_cast<int8_t>(std::clamp(q, -128, 127));
  }
  return row;
}

Result<HybridWeights> ReadHybridWeights(const RuntimeTensor& weights, const char* role) {
  TFA_RETURN_IF_ERROR(CheckType(weights, TensorType::kInt8, role));
  if (weights.Rank() < 1) return Status::Error(std::string(role) + " must have a rank");
  HybridWeights w;
  w.data = weights.Data<const int8_t>();
  w.rows = weights.Dim(0);
  w.cols = w.rows == 0 ? 0 : weights.NumElements() / w.rows;
  const Quantization* q = weights.quantization;
  if (!q || q->scale.empty()) return Status::Error(std::string(role) + " has no scale");
  if (q->scale.size() == 1) {
    w.scale = q->scale[0];
  } else if (static_cast<int64_t>(q->scale.size()) == w.rows) {
    w.row_scales = q->scale;
  } else {
    return Status::Error(std::string(role) + " has " + std::to_string(q->scale.size()) +
                         " scales for " + std::to_string(w.rows) + " rows");
  }
  return w;
}

void HybridMatrixBatchVectorMultiplyAccumulate(const HybridWeights& weights, const float* input,
                                               int64_t batches, bool asymmetric, int8_t* quantized,
                                               float* result) {
  const int64_t cols = weights.cols;
  std::vector<int32_t> row_sums;
  if (asymmetric) {
    row_sums.assign(static_cast<size_t>(weights.rows), 0);
    for (int64_t r = 0; r < weights.rows; ++r) {
      for (int64_t c = 0; c < cols; ++c)
        row_sums[static_cast<size_t>(r)] += weights.data[r * cols + c];
    }
  }
  for (int64_t b = 0; b < batches; ++b) {
    int8_t* x = quantized + b * cols;
    const QuantizedRow row = asymmetric ? AsymmetricQuantizeFloats(input + b * cols, cols, x)
                                        : SymmetricQuantizeFloats(input + b * cols, cols, x);
    // The weights' per-tensor scale is folded into the row's factor first, as upstream does.
    const float batch_scale = weights.row_scales.empty() ? row.scale * weights.scale : row.scale;
    float* out = result + b * weights.rows;
    for (int64_t r = 0; r < weights.rows; ++r) {
      const int8_t* w = weights.data + r * cols;
      int32_t dot = 0;
      for (int64_t c = 0; c < cols; ++c) dot += w[c] * x[c];
      if (asymmetric) dot -= row_sums[static_cast<size_t>(r)] * row.offset;
      float scale = batch_scale;
      if (!weights.row_scales.empty()) scale *= weights.row_scales[static_cast<size_t>(r)];
      out[r] += static_cast<float>(dot) * scale;
    }
  }
}

}  // namespace tfa::runtime
