// The XNNPACK visits' building blocks: upstream's formatting, flags, quantization validation.

#include "libanalysis/profiles/xnnpack_visit.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace tfa::xnnpack_visit {

// printf-style formatting, so the reasons keep upstream's format strings.
[[gnu::format(printf, 1, 2)]] std::string Format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(size > 0 ? static_cast<size_t>(size) : 0, '\0');
  if (size > 0) std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  return text;
}

// TfLiteTypeGetName: upper-case names ("FLOAT32").
std::string TypeName(TensorType type) {
  std::string name = TensorTypeName(type);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

Flags FlagsOf(const DelegateProfile& profile) {
  return Flags{.qs8 = profile.OptionEnabled("qs8"),
               .qu8 = profile.OptionEnabled("qu8"),
               .dynamic_fully_connected = profile.OptionEnabled("dynamic_fully_connected"),
               .enable_latest_operators = profile.OptionEnabled("enable_latest_operators")};
}

// TfLite's quantization as the interpreter builds it: affine when the model gives scales, and
// the legacy per-tensor params (scale, zero point) only when there is exactly one of each.
bool IsAffine(const Tensor& t) { return !t.quantization->scale.empty(); }
// TfLiteQuantizationType: 0 none, 1 affine, 2 blockwise (tflite/core/c/common.h).
int QuantizationTypeCode(const Tensor& t) {
  if (t.quantization->blockwise) return 2;
  return IsAffine(t) ? 1 : 0;
}
float LegacyScale(const Tensor& t) {
  const Quantization& q = t.quantization;
  return q.scale.size() == 1 && q.zero_point.size() == 1 ? q.scale[0] : 0.0f;
}
int LegacyZeroPoint(const Tensor& t) {
  const Quantization& q = t.quantization;
  return q.scale.size() == 1 && q.zero_point.size() == 1 ? static_cast<int>(q.zero_point[0]) : 0;
}
int FirstZeroPoint(const Tensor& t) {
  return t.quantization->zero_point.empty() ? 0 : static_cast<int>(t.quantization->zero_point[0]);
}
bool PerTensorAffine(const Tensor& t, bool need_one_zero_point) {
  const Quantization& q = t.quantization;
  return IsAffine(t) && q.quantized_dimension == 0 && q.scale.size() == 1 &&
         (!need_one_zero_point || q.zero_point.size() == 1);
}

int Rank(const Tensor& t) { return static_cast<int>(t.shape.size()); }
int Dim(const Tensor& t, int i) {
  return i >= 0 && i < Rank(t) ? t.shape[static_cast<size_t>(i)] : 0;
}
int64_t NumElements(const Tensor& t) {
  int64_t n = 1;
  for (int32_t d : t.shape) n *= d;
  return n;
}

bool ZeroPointInRange(QuantizedType type, int zero_point) {
  switch (type) {
    case QuantizedType::kQint8:
    case QuantizedType::kQcint8:
      return zero_point >= -128 && zero_point <= 127;
    case QuantizedType::kQuint8:
      return zero_point >= 0 && zero_point <= 255;
    case QuantizedType::kQint32:
    case QuantizedType::kQcint32:
      return zero_point == 0;
  }
  return false;
}

bool ValidScale(float scale) { return scale > 0.0f && std::isnormal(scale); }

// xnn_validate_quantized_tensor.
bool ValidQuantized(QuantizedType type, int zero_point, float scale, const Tensor& t) {
  return Rank(t) <= kMaxTensorDims && ZeroPointInRange(type, zero_point) && ValidScale(scale);
}

// xnn_validate_channelwise_quantized_tensor.
bool ValidChannelwise(QuantizedType type, int zero_point, const Tensor& t, int channel_dim) {
  if (Rank(t) == 0 || Rank(t) > kMaxTensorDims || channel_dim < 0 || channel_dim >= Rank(t)) {
    return false;
  }
  if (!ZeroPointInRange(type, zero_point)) return false;
  const std::vector<float>& scales = t.quantization->scale;
  for (int c = 0; c < Dim(t, channel_dim); ++c) {
    if (static_cast<size_t>(c) >= scales.size() || !ValidScale(scales[static_cast<size_t>(c)])) {
      return false;
    }
  }
  return true;
}

// The planned node producing `tensor`, or nullptr.
const Node* PlannedProducer(const Subgraph& subgraph, int32_t tensor) {
  for (int32_t node_index : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[static_cast<size_t>(node_index)];
    if (std::find(node.outputs.begin(), node.outputs.end(), tensor) != node.outputs.end()) {
      return &node;
    }
  }
  return nullptr;
}

// A tensor unpacked from static data by a node XNNPACK takes without visiting it.
bool IsQuasiStatic(const Subgraph& subgraph, int32_t tensor) {
  if (tensor < 0) return false;
  const Node* producer = PlannedProducer(subgraph, tensor);
  return producer != nullptr && IsXnnpackStaticUnpackNode(subgraph, *producer);
}

CheckOutcome Outcome(const Reason& reason) {
  return reason ? CheckOutcome::Reject(*reason) : CheckOutcome::Pass();
}

}  // namespace tfa::xnnpack_visit
