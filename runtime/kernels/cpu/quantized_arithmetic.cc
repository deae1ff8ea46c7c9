#include "runtime/kernels/cpu/quantized_arithmetic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

QuantizedMultiplier QuantizeMultiplier(double real) {
  if (real == 0.0) return {};
  int shift = 0;
  const double significand = std::frexp(real, &shift);
  auto fixed = static_cast<int64_t>(std::round(significand * (int64_t{1} << 31)));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) return {};
  // A multiplier of 2^30 or more cannot come from a sane model; saturating it (as upstream's
  // single-rounding build does) keeps every shift below 31, whatever a file says.
  if (shift > 30) return {std::numeric_limits<int32_t>::max(), 30};
  return {static_cast<int32_t>(fixed), shift};
}

std::optional<int> CheckedLog2(float x) {
  const float log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2);
  if (!(std::abs(log2 - rounded) < 1e-3f)) return std::nullopt;
  return static_cast<int>(rounded);
}

bool IsQuantizedType(TensorType type) {
  return type == TensorType::kInt8 || type == TensorType::kUInt8;
}

Result<QuantParams> PerTensorParams(const RuntimeTensor& tensor, const char* role) {
  if (!tensor.quantization || tensor.quantization->scale.empty()) {
    return Status::Error(std::string(role) + " has no quantization scale");
  }
  const Quantization& q = *tensor.quantization;
  if (q.scale.size() != 1)
    return Status::Error(std::string(role) + " must be quantized per tensor");
  if (!(q.scale[0] > 0.0f) || !std::isfinite(q.scale[0]))
    return Status::Error(std::string(role) + " has a non-positive quantization scale");
  const int64_t zero_point = q.zero_point.empty() ? 0 : q.zero_point[0];
  const QuantizedRange range = TypeRange(tensor.type);
  if (IsQuantizedType(tensor.type) && (zero_point < range.min || zero_point > range.max))
    return Status::Error(std::string(role) + " has a zero point outside its type");
  return QuantParams{q.scale[0], static_cast<int32_t>(zero_point)};
}

QuantizedRange TypeRange(TensorType type) {
  if (type == TensorType::kUInt8) return {0, 255};
  if (type == TensorType::kInt16) return {-32768, 32767};
  return {-128, 127};
}

Result<QuantizedRange> QuantizedActivationRange(Activation activation, TensorType type,
                                                QuantParams output) {
  const QuantizedRange full = TypeRange(type);
  auto quantize = [&](float v) {
    return output.zero_point + static_cast<int32_t>(std::round(v / output.scale));
  };
  switch (activation) {
    case Activation::kNone:
    // CalculateActivationRangeQuantized (tflite/kernels/kernel_util.cc) gives SIGN_BIT the
    // type's full range, like NONE.
    case Activation::kSignBit:
      return full;
    case Activation::kRelu:
      return QuantizedRange{std::max(full.min, quantize(0.0f)), full.max};
    case Activation::kRelu6:
      return QuantizedRange{std::max(full.min, quantize(0.0f)), std::min(full.max, quantize(6.0f))};
    case Activation::kReluN1To1:
      return QuantizedRange{std::max(full.min, quantize(-1.0f)),
                            std::min(full.max, quantize(1.0f))};
    default:
      break;
  }
  return Status::Error(std::string("fused activation ") + ActivationName(activation) +
                       " is not supported");
}

}  // namespace tfa::runtime
