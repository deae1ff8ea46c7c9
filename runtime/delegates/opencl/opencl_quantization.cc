#include "runtime/delegates/opencl/opencl_quantization.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace tfa::runtime {
namespace {

bool IsEightBit(TensorType type) { return type == TensorType::kInt8 || type == TensorType::kUInt8; }

bool HasScale(const RuntimeTensor& tensor) {
  return tensor.quantization && !tensor.quantization->scale.empty();
}

struct PerTensor {
  float scale = 0;
  int32_t zero_point = 0;
};

// Upstream's PopulateQuantParams and boundary conversions read one scale and zero point.
Result<PerTensor> PerTensorParams(const RuntimeTensor& tensor) {
  if (!IsEightBit(tensor.type))
    return Status::Error(std::string("a quantized ") + TensorTypeName(tensor.type) +
                         " tensor (the GPU delegate quantizes int8 and uint8 tensors only)");
  if (!HasScale(tensor)) return Status::Error("an int8/uint8 tensor without a quantization scale");
  if (tensor.quantization->per_channel())
    return Status::Error("a non-constant per-channel quantized tensor (upstream refuses it)");
  const auto& zero_points = tensor.quantization->zero_point;
  return PerTensor{tensor.quantization->scale[0],
                   zero_points.empty() ? 0 : static_cast<int32_t>(zero_points[0])};
}

template <typename T>
void Dequantize(const T* q, int64_t n, PerTensor p, float* values) {
  for (int64_t i = 0; i < n; ++i) values[i] = p.scale * static_cast<float>(q[i] - p.zero_point);
}

template <typename T>
void Quantize(const float* values, int64_t n, PerTensor p, T* q) {
  constexpr float kLow = std::numeric_limits<T>::min(), kHigh = std::numeric_limits<T>::max();
  for (int64_t i = 0; i < n; ++i) {
    // Clamped in float first: a huge input must not overflow the int conversion; NaN lands on
    // the zero point as upstream's round of NaN does on the CPU kernels.
    const float rounded = std::round(values[i] / p.scale);
    const float shifted = std::isnan(rounded) ? static_cast<float>(p.zero_point)
                                              : rounded + static_cast<float>(p.zero_point);
    q[i] = static_cast<T>(std::clamp(shifted, kLow, kHigh));
  }
}

template <typename T>
std::vector<float> DequantizeAll(const RuntimeTensor& tensor, int64_t channel_stride,
                                 int64_t channels) {
  const Quantization& q = *tensor.quantization;
  const T* data = tensor.Data<const T>();
  std::vector<float> values(static_cast<size_t>(tensor.NumElements()));
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t c = static_cast<size_t>((static_cast<int64_t>(i) / channel_stride) % channels);
    const int64_t zero_point =
        q.zero_point.empty() ? 0 : q.zero_point[std::min(c, q.zero_point.size() - 1)];
    values[i] = q.scale[c] * static_cast<float>(static_cast<int64_t>(data[i]) - zero_point);
  }
  return values;
}

}  // namespace

bool HasFloatTwin(const RuntimeTensor& tensor) {
  return !tensor.is_constant && IsEightBit(tensor.type);
}

RuntimeTensor FloatTwin(const RuntimeTensor& tensor) {
  RuntimeTensor twin = tensor;
  twin.type = TensorType::kFloat32;
  twin.bytes = static_cast<uint64_t>(tensor.NumElements()) * sizeof(float);
  twin.data = nullptr;
  return twin;
}

bool IsQuantizedConstant(const RuntimeTensor& tensor) {
  // Upstream's CreateVectorCopyData<float> dequantizes int8, uint8 and int32 constants; int16
  // ones it refuses.
  return tensor.is_constant && HasScale(tensor) &&
         (IsEightBit(tensor.type) || tensor.type == TensorType::kInt32);
}

Result<std::vector<float>> DequantizeConstant(const RuntimeTensor& tensor) {
  if (!IsQuantizedConstant(tensor) || !tensor.data)
    return Status::Error("not a quantized constant with data");
  const Quantization& q = *tensor.quantization;
  int64_t channel_stride = 1, channels = 1;
  if (q.per_channel()) {
    const int dim = q.quantized_dimension;
    if (dim < 0 || dim >= tensor.Rank() || tensor.Dim(dim) != static_cast<int32_t>(q.scale.size()))
      return Status::Error("per-channel scales do not match quantized dimension " +
                           std::to_string(dim));
    channels = tensor.Dim(dim);
    for (int d = dim + 1; d < tensor.Rank(); ++d) channel_stride *= tensor.Dim(d);
  }
  switch (tensor.type) {
    case TensorType::kInt8:
      return DequantizeAll<int8_t>(tensor, channel_stride, channels);
    case TensorType::kUInt8:
      return DequantizeAll<uint8_t>(tensor, channel_stride, channels);
    default:
      return DequantizeAll<int32_t>(tensor, channel_stride, channels);
  }
}

Status DequantizeToFloat(const RuntimeTensor& quantized, float* values) {
  auto p = PerTensorParams(quantized);
  if (!p.ok()) return p.status();
  if (quantized.type == TensorType::kInt8)
    Dequantize(quantized.Data<const int8_t>(), quantized.NumElements(), *p, values);
  else
    Dequantize(quantized.Data<const uint8_t>(), quantized.NumElements(), *p, values);
  return Status::Ok();
}

Status QuantizeFromFloat(const float* values, RuntimeTensor& quantized) {
  auto p = PerTensorParams(quantized);
  if (!p.ok()) return p.status();
  if (quantized.type == TensorType::kInt8)
    Quantize(values, quantized.NumElements(), *p, quantized.Data<int8_t>());
  else
    Quantize(values, quantized.NumElements(), *p, quantized.Data<uint8_t>());
  return Status::Ok();
}

Result<FakeQuantRange> FakeQuantRangeOf(const RuntimeTensor& quantized, ClPrecision precision) {
  auto p = PerTensorParams(quantized);
  if (!p.ok()) return p.status();
  const bool int8 = quantized.type == TensorType::kInt8;
  const float qmin = int8 ? -128.0f : 0.0f, qmax = int8 ? 127.0f : 255.0f;
  const float zero_point = static_cast<float>(p->zero_point);
  FakeQuantRange range{p->scale * (qmin - zero_point), p->scale * (qmax - zero_point), p->scale};
  // fp16's smallest normal number (upstream's tasks/quantize_and_dequantize.cc raises the scale
  // to it at F16 and F32_F16).
  constexpr float kSmallestHalfNormal = 0.000062f;
  if (precision != ClPrecision::kF32 && range.scale < kSmallestHalfNormal)
    range.scale = kSmallestHalfNormal;
  return range;
}

}  // namespace tfa::runtime
