#include "libanalysis/profiles/xnnpack_rules.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <string>
#include <unordered_map>

#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {
namespace {

// XNN_MAX_TENSOR_DIMS.
constexpr int kMaxTensorDims = 6;

// A reason when the node is refused, nothing when this part of the visit passes.
using Reason = std::optional<std::string>;

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

// The TFLITE_XNNPACK_DELEGATE_FLAG_* flags the visits read.
struct Flags {
  bool qs8 = false;
  bool qu8 = false;
  bool dynamic_fully_connected = false;
  bool enable_latest_operators = false;
};

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

// The XNNPACK datatypes whose quantization xnn_validate_*quantized_tensor checks
// (XNNPACK src/tensor.c).
enum class QuantizedType { kQint8, kQuint8, kQint32, kQcint8, kQcint32 };

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

// One visit: the node, its tensors and the delegate flags, with upstream's Check* helpers.
class Visit {
 public:
  explicit Visit(const NodeContext& context)
      : c_(context), flags_(FlagsOf(context.profile)), node_(context.node_index) {}

  const Node& node() const { return c_.node; }
  const OpOptions& options() const { return c_.node.options; }
  int node_index() const { return node_; }
  int num_inputs() const { return static_cast<int>(c_.inputs.size()); }
  int num_outputs() const { return static_cast<int>(c_.node.outputs.size()); }
  // EnumNameBuiltinOperator of the op being visited ("CUSTOM" for custom ops).
  std::string op_name() const {
    return c_.node.kind == NodeKind::kCustom ? std::string("CUSTOM") : c_.node.op;
  }
  const Flags& flags() const { return flags_; }

  int32_t input_id(int k) const { return c_.inputs[static_cast<size_t>(k)]; }
  int32_t output_id(int k) const { return c_.node.outputs[static_cast<size_t>(k)]; }
  // Upstream indexes the tensor array directly; an absent optional tensor there reads out of
  // bounds. Here it is refused with a reason instead.
  Reason RequireInput(int k) const {
    return Require(k < num_inputs() ? input_id(k) : -1, "input", k);
  }
  Reason RequireOutput(int k) const {
    return Require(k < num_outputs() ? output_id(k) : -1, "output", k);
  }
  const Tensor& tensor(int32_t id) const { return c_.subgraph.tensors[static_cast<size_t>(id)]; }
  const Tensor& input(int k) const { return tensor(input_id(k)); }
  const Tensor& output(int k) const { return tensor(output_id(k)); }
  bool quasi_static(int32_t id) const { return IsQuasiStatic(c_.subgraph, id); }
  // The first `count` values of constant `id` when the model carries them (Tensor::int_values),
  // else nullptr: the value is unknown (Graph JSON) and the check reading it passes, as it
  // would on a valid model.
  const int64_t* known_values(int32_t id, int64_t count) const {
    const std::vector<int64_t>& values = tensor(id).int_values;
    if (count < 0 || values.size() < static_cast<size_t>(count)) return nullptr;
    return values.data();
  }
  const NodeContext& context() const { return c_; }

  Reason CheckNumInputs(int expected) const {
    if (num_inputs() == expected) return std::nullopt;
    return Format("unexpected number of inputs (%d != %d) in node %s #%d", num_inputs(), expected,
                  op_name().c_str(), node_);
  }
  Reason CheckNumInputs(int min, int max) const {
    if (num_inputs() >= min && num_inputs() <= max) return std::nullopt;
    return Format("unexpected number of inputs (%d) in %s node #%d", num_inputs(),
                  op_name().c_str(), node_);
  }
  Reason CheckNumOutputs(int expected) const {
    if (num_outputs() == expected) return std::nullopt;
    return Format("unexpected number of outputs (%d != %d) in %s node #%d", num_outputs(), expected,
                  op_name().c_str(), node_);
  }
  Reason CheckNumOutputs(int min, int max) const {
    if (num_outputs() >= min && num_outputs() <= max) return std::nullopt;
    return Format("unexpected number of outputs (%d) in %s node #%d", num_outputs(),
                  op_name().c_str(), node_);
  }
  Reason CheckNumInputsAndOutputs(int inputs, int outputs) const {
    if (Reason r = CheckNumInputs(inputs)) return r;
    return CheckNumOutputs(outputs);
  }
  Reason CheckNumInputsAndOutputs(int min_inputs, int max_inputs, int outputs) const {
    if (Reason r = CheckNumInputs(min_inputs, max_inputs)) return r;
    return CheckNumOutputs(outputs);
  }

  Reason UnsupportedType(const char* function, int32_t id) const {
    return Format("%s: unsupported type %s in tensor #%d in node #%d", function,
                  TypeName(tensor(id).type).c_str(), id, node_);
  }
  Reason UnsupportedQuantization(int32_t id) const {
    return Format("unsupported quantization type %d in tensor #%d in node #%d",
                  QuantizationTypeCode(tensor(id)), id, node_);
  }

  Reason CheckTensorType(int32_t id, TensorType expected) const {
    if (tensor(id).type == expected) return std::nullopt;
    return UnsupportedType("CheckTensorType", id);
  }
  Reason CheckTensorFloat32Type(int32_t id) const {
    return CheckTensorType(id, TensorType::kFloat32);
  }
  Reason CheckTensorFloatType(int32_t id) const {
    const TensorType type = tensor(id).type;
    if (type == TensorType::kFloat32 || type == TensorType::kFloat16) return std::nullopt;
    return UnsupportedType("CheckTensorFloatType", id);
  }
  Reason CheckTensorInt32Type(int32_t id) const {
    if (tensor(id).type == TensorType::kInt32) return std::nullopt;
    return UnsupportedType("CheckTensorInt32Type", id);
  }
  Reason CheckTensorInt32OrInt64Type(int32_t id) const {
    const TensorType type = tensor(id).type;
    if (type == TensorType::kInt32 || type == TensorType::kInt64) return std::nullopt;
    return UnsupportedType("CheckTensorInt32OrInt64Type", id);
  }

  // The signed / unsigned 8-bit per-tensor cases shared by the Check*Q*Type helpers: nullopt
  // with `handled` set when the type is accepted, a reason when its quantization is refused.
  Reason CheckPerTensorInt8(int32_t id, bool* handled) const {
    const Tensor& t = tensor(id);
    if (t.type == TensorType::kInt8 && flags_.qs8) {
      *handled = true;
      if (!PerTensorAffine(t, /*need_one_zero_point=*/false)) return UnsupportedQuantization(id);
    } else if (t.type == TensorType::kUInt8 && flags_.qu8) {
      *handled = true;
      if (!PerTensorAffine(t, /*need_one_zero_point=*/true)) return UnsupportedQuantization(id);
    }
    return std::nullopt;
  }

  Reason CheckTensorFloat32OrQUInt8Type(int32_t id) const {
    if (tensor(id).type == TensorType::kFloat32) return std::nullopt;
    bool handled = false;
    if (Reason r = CheckPerTensorInt8(id, &handled)) return r;
    if (handled) return std::nullopt;
    return UnsupportedType("CheckTensorFloat32OrQUInt8Type", id);
  }
  Reason CheckTensorFloat32OrQInt8Type(int32_t id) const {
    const Tensor& t = tensor(id);
    if (t.type == TensorType::kFloat32) return std::nullopt;
    if (t.type == TensorType::kInt8 && flags_.qs8) {
      if (!PerTensorAffine(t, false)) return UnsupportedQuantization(id);
      return std::nullopt;
    }
    return UnsupportedType("CheckTensorFloat32OrQInt8Type", id);
  }
  Reason CheckTensorQInt8OrQUInt8Type(int32_t id) const {
    bool handled = false;
    if (Reason r = CheckPerTensorInt8(id, &handled)) return r;
    if (handled) return std::nullopt;
    return UnsupportedType("CheckTensorQInt8OrQUInt8Type", id);
  }

  Reason CheckTensorFloat32OrQCInt8Type(int32_t id, int expected_quantized_dimension) const {
    const Tensor& t = tensor(id);
    const Quantization& q = t.quantization;
    if (t.type == TensorType::kFloat32) return std::nullopt;
    if (t.type == TensorType::kInt8 && flags_.qs8) {
      if (!IsAffine(t)) return UnsupportedQuantization(id);
      if (q.scale.size() > 1 && q.quantized_dimension != expected_quantized_dimension) {
        return Format("unsupported quantized dimension %d in tensor #%d in node #%d",
                      q.quantized_dimension, id, node_);
      }
      if (q.scale.size() > 1) {
        if (!ValidChannelwise(QuantizedType::kQcint8, FirstZeroPoint(t), t,
                              q.quantized_dimension)) {
          return Format(
              "Channelwise quantized tensor #%d in node #%d has invalid quantization parameters",
              id, node_);
        }
      } else if (!ValidQuantized(QuantizedType::kQint8, FirstZeroPoint(t), q.scale[0], t)) {
        return Format("Quantized tensor #%d in node #%d has invalid quantization parameters", id,
                      node_);
      }
      return std::nullopt;
    }
    if (t.type == TensorType::kUInt8 && flags_.qu8) {
      if (!PerTensorAffine(t, true)) return UnsupportedQuantization(id);
      if (!ValidQuantized(QuantizedType::kQuint8, FirstZeroPoint(t), q.scale[0], t)) {
        return Format("Quantized tensor #%d in node #%d has invalid quantization parameters", id,
                      node_);
      }
      return std::nullopt;
    }
    return UnsupportedType("CheckTensorFloat32OrQCInt8Type", id);
  }

  Reason CheckTensorFloat32OrFloat16OrQCInt4OrQCInt8Type(int32_t id,
                                                         int expected_quantized_dimension) const {
    const Tensor& t = tensor(id);
    const Quantization& q = t.quantization;
    if (t.type == TensorType::kFloat32 || t.type == TensorType::kFloat16) return std::nullopt;
    if ((t.type == TensorType::kInt8 || t.type == TensorType::kInt4) && flags_.qs8) {
      if (q.blockwise) {
        if (q.block_scales < 0) {
          return Format("missing scale quantization parameters in tensor #%d in node #%d", id,
                        node_);
        }
        if (q.block_size % 32 != 0) {
          return Format("Blocksize %d must be multiple of 32 in tensor #%d in node #%d",
                        q.block_size, id, node_);
        }
        return std::nullopt;
      }
      // Upstream only logs an unknown quantization type here and accepts the tensor.
      if (!IsAffine(t)) return std::nullopt;
      if (q.scale.size() > 1 && q.quantized_dimension != expected_quantized_dimension) {
        return Format("unsupported quantized dimension %d in tensor #%d in node #%d",
                      q.quantized_dimension, id, node_);
      }
      if (t.type == TensorType::kInt4 &&
          static_cast<int64_t>(q.scale.size()) != Dim(t, q.quantized_dimension)) {
        return Format(
            "4 bit weights must be per channel and not per tensor quantized in channel #%d in "
            "tensor #%d in node #%d",
            q.quantized_dimension, id, node_);
      }
      return std::nullopt;
    }
    if (t.type == TensorType::kUInt8 && flags_.qu8) {
      if (!PerTensorAffine(t, true)) return UnsupportedQuantization(id);
      return std::nullopt;
    }
    return UnsupportedType("CheckTensorFloat32OrFloat16OrQCInt4OrQCInt8Type", id);
  }

  Reason CheckTensorFloat32OrFloat16OrQCInt32Type(int32_t id) const {
    const Tensor& t = tensor(id);
    const Quantization& q = t.quantization;
    if (t.type == TensorType::kFloat32 || t.type == TensorType::kFloat16) return std::nullopt;
    if (t.type == TensorType::kInt32 && flags_.qs8) {
      if (!IsAffine(t) || q.quantized_dimension != 0) return UnsupportedQuantization(id);
      if (q.scale.size() > 1) {
        if (!ValidChannelwise(QuantizedType::kQcint32, 0, t, 0)) {
          return Format(
              "Channelwise quantized tensor #%d in node #%d has invalid quantization parameters",
              id, node_);
        }
      } else if (!ValidQuantized(QuantizedType::kQint32, FirstZeroPoint(t), q.scale[0], t)) {
        return Format("Quantized tensor #%d in node #%d has invalid quantization parameters", id,
                      node_);
      }
      return std::nullopt;
    }
    return UnsupportedType("CheckTensorFloat32OrFloat16OrQCInt32Type", id);
  }

  Reason CheckTensorShape(int32_t id, int min_dims, int max_dims) const {
    const Tensor& t = tensor(id);
    const std::string op = op_name();
    if (min_dims == max_dims) {
      if (Rank(t) != min_dims) {
        return Format(
            "unsupported number of shape dimensions (%d) in tensor #%d in %s node #%d: %d "
            "dimensions expected",
            Rank(t), id, op.c_str(), node_, min_dims);
      }
    } else {
      if (Rank(t) < min_dims) {
        return Format(
            "unsupported number of shape dimensions (%d) in tensor #%d in %s node #%d: at least "
            "%d dimensions expected",
            Rank(t), id, op.c_str(), node_, min_dims);
      }
      if (Rank(t) > max_dims) {
        return Format(
            "unsupported number of shape dimensions (%d) in tensor #%d in %s node #%d: at most "
            "%d dimensions expected",
            Rank(t), id, op.c_str(), node_, max_dims);
      }
    }
    for (int i = 0; i < Rank(t); ++i) {
      if (Dim(t, i) <= 0) {
        return Format("invalid num of elements (%d) in dimension #%d in tensor #%d in %s node #%d",
                      Dim(t, i), i, id, op.c_str(), node_);
      }
    }
    return std::nullopt;
  }
  Reason CheckTensorShape(int32_t id, int dims) const { return CheckTensorShape(id, dims, dims); }

  Reason CheckShapeTensorShape(int32_t id, bool squeeze_dims, const std::string& op) const {
    const Tensor& t = tensor(id);
    if (Rank(t) == 1) return std::nullopt;
    if (!squeeze_dims) {
      return Format(
          "unexpected number of shape dimensions (%d) in shape tensor #%d in %s node #%d: "
          "expected a 1D tensor",
          Rank(t), id, op.c_str(), node_);
    }
    for (int i = 0; i < Rank(t) - 1; ++i) {
      if (Dim(t, i) != 1) {
        return Format(
            "unexpected non-unit (%d) shape dimension #%d in shape tensor #%d in %s node #%d: "
            "expected %d leading dimensions of the %dD tensor to be 1",
            Dim(t, i), i, id, op.c_str(), node_, Rank(t) - 1, Rank(t));
      }
    }
    return std::nullopt;
  }

  Reason CheckTensorStaticAllocation(int32_t id, const std::string& op) const {
    if (tensor(id).is_constant()) return std::nullopt;
    return Format(
        "invalid allocation type in tensor #%d in %s node #%d: expected static read-only tensor",
        id, op.c_str(), node_);
  }
  // SLICE's and STRIDED_SLICE's parameter tensors: 1-D, static, int32 (SLICE: or int64).
  Reason CheckSliceParamTensor(int32_t id, const std::string& op, bool allow_int64) const {
    if (Reason r = CheckShapeTensorShape(id, /*squeeze_dims=*/false, op)) return r;
    if (Reason r = CheckTensorStaticAllocation(id, op)) return r;
    return allow_int64 ? CheckTensorInt32OrInt64Type(id) : CheckTensorInt32Type(id);
  }
  // Weights and biases may also be quasi-static (unpacked by the delegate itself).
  Reason CheckStaticUnlessQuasiStatic(int32_t id) const {
    if (tensor(id).is_constant() || quasi_static(id)) return std::nullopt;
    return CheckTensorStaticAllocation(id, op_name());
  }
  // A convolution's bias: float or int32-quantized, 1-D, static or quasi-static.
  Reason CheckBias(int32_t id) const {
    if (Reason r = CheckTensorFloat32OrFloat16OrQCInt32Type(id)) return r;
    if (Reason r = CheckTensorShape(id, 1)) return r;
    return CheckStaticUnlessQuasiStatic(id);
  }

  Reason CheckTensorsDimensionMatch(int32_t a, int32_t b, int dimension, const char* op) const {
    if (Dim(tensor(a), dimension) == Dim(tensor(b), dimension)) return std::nullopt;
    return Format(
        "mismatch in shape dimension %d (%d != %d) in input and output tensors of %s operator #%d",
        dimension, Dim(tensor(a), dimension), Dim(tensor(b), dimension), op, node_);
  }

  Reason CalculatePadding() const {
    if (options().padding != Padding::kUnknown) return std::nullopt;
    return Format("invalid padding mode (%d) in node #%d", 0, node_);
  }

  Reason ConvertActivationToOutputRange(Activation activation) const {
    switch (activation) {
      case Activation::kNone:
      case Activation::kRelu:
      case Activation::kReluN1To1:
      case Activation::kRelu6:
        return std::nullopt;
      case Activation::kTanh:
        return Format("unsupported fused activation (Tanh) in node #%d", node_);
      case Activation::kSignBit:
        return Format("unsupported fused activation (Sign) in node #%d", node_);
      case Activation::kUnknown:
        break;
    }
    return Format("invalid fused activation in node #%d", node_);
  }

  Reason CheckPoolingParams() const {
    const OpOptions& o = options();
    const char* op = c_.node.op.c_str();
    if (o.stride_w <= 0)
      return Format("invalid stride width %d in %s node #%d", o.stride_w, op, node_);
    if (o.stride_h <= 0) {
      return Format("invalid stride height %d in %s node #%d", o.stride_h, op, node_);
    }
    if (o.filter_w <= 0)
      return Format("invalid filter width %d in %s node #%d", o.filter_w, op, node_);
    if (o.filter_h <= 0) {
      return Format("invalid filter height %d in %s node #%d", o.filter_h, op, node_);
    }
    if (o.stride_w > o.filter_w) {
      return Format("unsupported width stride %d exceeding filter width %d in %s node #%d",
                    o.stride_w, o.filter_w, op, node_);
    }
    if (o.stride_h > o.filter_h) {
      return Format("unsupported height stride %d exceeding filter height %d in %s node #%d",
                    o.stride_h, o.filter_h, op, node_);
    }
    if (o.filter_w == 1 && o.filter_h == 1 && std::max(o.stride_w, o.stride_h) > 1) {
      return Format("unsupported pooling with 1x1 filter and %dx%d stride in %s node #%d",
                    o.stride_w, o.stride_h, op, node_);
    }
    return std::nullopt;
  }

  Reason CheckStridesAndDilations(bool dilations) const {
    const OpOptions& o = options();
    if (o.stride_w <= 0) return Format("invalid stride width %d in node #%d", o.stride_w, node_);
    if (o.stride_h <= 0) return Format("invalid stride height %d in node #%d", o.stride_h, node_);
    if (!dilations) return std::nullopt;
    if (o.dilation_w <= 0) {
      return Format("invalid dilation width factor %d in node #%d", o.dilation_w, node_);
    }
    if (o.dilation_h <= 0) {
      return Format("invalid dilation height factor %d in node #%d", o.dilation_h, node_);
    }
    return std::nullopt;
  }

  // Scale checks only apply to 8-bit tensors of one type (per-tensor by then).
  Reason CheckTensorsInputOutputScale(int32_t in, int32_t out, float min, float max) const {
    const Tensor& a = tensor(in);
    const Tensor& b = tensor(out);
    if (a.type != b.type) return std::nullopt;
    if (a.type != TensorType::kInt8 && a.type != TensorType::kUInt8) return std::nullopt;
    const float ratio = a.quantization->scale[0] / b.quantization->scale[0];
    if (ratio < min || ratio >= max) {
      return Format("unsupported input-to-output scale in %s node #%d", op_name().c_str(), node_);
    }
    return std::nullopt;
  }
  Reason CheckTensorsInputProductOutputScale(int32_t in1, int32_t in2, int32_t out, float min,
                                             float max) const {
    const Tensor& a = tensor(in1);
    const Tensor& b = tensor(in2);
    const Tensor& o = tensor(out);
    if (a.type != b.type || a.type != o.type) return std::nullopt;
    if (a.type != TensorType::kInt8 && a.type != TensorType::kUInt8) return std::nullopt;
    const float ratio =
        a.quantization->scale[0] * b.quantization->scale[0] / o.quantization->scale[0];
    if (ratio < min || ratio >= max) {
      return Format("unsupported input-product-to-output scale in %s, node #%d", op_name().c_str(),
                    node_);
    }
    return std::nullopt;
  }

 private:
  Reason Require(int32_t id, const char* what, int k) const {
    if (id >= 0 && static_cast<size_t>(id) < c_.subgraph.tensors.size()) return std::nullopt;
    return Format("%s %d of %s node #%d is absent", what, k, op_name().c_str(), node_);
  }

  const NodeContext& c_;
  Flags flags_;
  int node_;
};

CheckOutcome Outcome(const Reason& reason) {
  return reason ? CheckOutcome::Reject(*reason) : CheckOutcome::Pass();
}

// Runs `visit` after making sure the first `inputs` inputs and `outputs` outputs exist.
template <typename F>
CheckOutcome Run(const NodeContext& context, int inputs, int outputs, F visit) {
  const Visit v(context);
  for (int k = 0; k < inputs; ++k) {
    if (Reason r = v.RequireInput(k)) return Outcome(r);
  }
  for (int k = 0; k < outputs; ++k) {
    if (Reason r = v.RequireOutput(k)) return Outcome(r);
  }
  return Outcome(visit(v));
}

// Runs `visit` after upstream's CheckNumInputsAndOutputs(inputs, outputs).
template <typename F>
CheckOutcome RunCounted(const NodeContext& context, int inputs, int outputs, F visit) {
  if (Reason r = Visit(context).CheckNumInputsAndOutputs(inputs, outputs)) return Outcome(r);
  return Run(context, inputs, outputs, visit);
}

// ----- PrepareOpsToDelegate -----

CheckOutcome StaticUnpack(const NodeContext& context) {
  if (IsXnnpackStaticUnpackNode(context.subgraph, context.node)) return CheckOutcome::Accept();
  // A DEQUANTIZE that unpacks nothing static is an ordinary unary node; a DENSIFY has no Visit.
  if (context.node.op == "DEQUANTIZE") return CheckOutcome::Pass();
  return CheckOutcome::Reject(Format("unsupported operator type %s in node #%d",
                                     context.node.op.c_str(), context.node_index));
}

// ----- VisitUnaryNode -----

CheckOutcome UnaryNode(const NodeContext& context) {
  return RunCounted(context, 1, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorShape(in, 0, kMaxTensorDims)) return r;
    const std::string& op = v.node().op;
    if (op == "DEQUANTIZE") {
      if (Reason r = v.CheckTensorQInt8OrQUInt8Type(in)) return r;
      return v.CheckTensorFloat32Type(out);
    }
    if (op == "ELU") {
      if (Reason r = v.CheckTensorFloat32OrQInt8Type(in)) return r;
      return v.CheckTensorFloat32OrQInt8Type(out);
    }
    if (op == "LOGISTIC" || op == "TANH") {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
      return v.CheckTensorFloat32OrQUInt8Type(out);
    }
    if (op == "LEAKY_RELU") {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
      const float alpha = v.options().alpha;
      if (!std::isnormal(alpha) || alpha == 0.0f) {
        return Format("unsupported alpha %g in LEAKY_RELU node #%d", alpha, v.node_index());
      }
      // GetTensorScaleOrDefault: the per-tensor scale of 8-bit tensors, else NaN.
      const auto scale_of = [](const Tensor& t) {
        const bool eight_bit = t.type == TensorType::kInt8 || t.type == TensorType::kUInt8;
        return eight_bit && PerTensorAffine(t, false) ? t.quantization->scale[0] : std::nanf("");
      };
      const float input_scale = scale_of(v.input(0));
      const float output_scale = scale_of(v.output(0));
      if (std::isnormal(input_scale) && std::isnormal(output_scale)) {
        const float positive_scale = input_scale / output_scale;
        if (positive_scale < 1.0f / 256.0f || positive_scale > 128.0f) {
          return Format("unsupported positive input-to-output scale %g in LEAKY_RELU node #%d",
                        positive_scale, v.node_index());
        }
        const float negative_scale = positive_scale * alpha;
        if (negative_scale < -127.99609375f || negative_scale > 128.0f ||
            std::fabs(negative_scale) < 1.0f / 256.0f) {
          return Format("unsupported negative input-to-output scale %g in LEAKY_RELU node #%d",
                        negative_scale, v.node_index());
        }
      }
      return std::nullopt;
    }
    if (op == "QUANTIZE") {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
      if (Reason r = v.CheckTensorQInt8OrQUInt8Type(out)) return r;
      const Tensor& input = v.input(0);
      const Tensor& output = v.output(0);
      if (input.type == TensorType::kFloat32) return std::nullopt;
      // An 8-bit input: same datatype on both sides (GetXNNPackDatatype: qint8 / quint8).
      if (input.type == output.type) {
        const float ratio = input.quantization->scale[0] / output.quantization->scale[0];
        if (ratio < 1.0f / 256.0f || ratio > 128.0f) {
          return Format("unsupported input-to-output scale in QUANTIZE node #%d", v.node_index());
        }
        return std::nullopt;
      }
      return Format(
          "unsupported combination of input type (%s) and output type (%s) in QUANTIZE node #%d",
          TypeName(input.type).c_str(), TypeName(output.type).c_str(), v.node_index());
    }
    // ABS, CEIL, COS, EXP, FLOOR, GELU, HARD_SWISH, LOG, NEG, RELU*, ROUND, RSQRT, SIN, SQRT,
    // SQUARE.
    if (Reason r = v.CheckTensorFloatType(in)) return r;
    return v.CheckTensorFloatType(out);
  });
}

// ----- VisitBinaryNode -----

CheckOutcome BinaryNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in1 = v.input_id(0);
    const int32_t in2 = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorShape(in1, 0, kMaxTensorDims)) return r;
    if (Reason r = v.CheckTensorShape(in2, 0, kMaxTensorDims)) return r;
    const std::string& op = v.node().op;
    const bool quantizable = op == "ADD" || op == "MUL" || op == "SUB";
    if (quantizable) {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in1)) return r;
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in2)) return r;
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
      if (v.tensor(in1).type != v.tensor(in2).type || v.tensor(in1).type != v.tensor(out).type) {
        return Format("unsupported mixed types in %s operator #%d", op.c_str(), v.node_index());
      }
    } else {
      if (Reason r = v.CheckTensorFloat32Type(in1)) return r;
      if (Reason r = v.CheckTensorFloat32Type(in2)) return r;
      if (Reason r = v.CheckTensorFloat32Type(out)) return r;
    }
    if (op == "ADD" || op == "SUB") {
      if (Reason r = v.CheckTensorsInputOutputScale(in1, out, 1.0f / 1024.0f, 256.0f)) return r;
      if (Reason r = v.CheckTensorsInputOutputScale(in2, out, 1.0f / 1024.0f, 256.0f)) return r;
      return v.ConvertActivationToOutputRange(v.options().fused_activation);
    }
    if (op == "MUL") {
      if (Reason r =
              v.CheckTensorsInputProductOutputScale(in1, in2, out, 1.0f / 65536.0f, 256.0f)) {
        return r;
      }
      return v.ConvertActivationToOutputRange(v.options().fused_activation);
    }
    if (op == "DIV") return v.ConvertActivationToOutputRange(v.options().fused_activation);
    if (op == "PRELU") return v.CheckStaticUnlessQuasiStatic(in2);
    return std::nullopt;
  });
}

// ----- Pooling -----

Reason PoolNode(const Visit& v, bool quantizable) {
  const int32_t in = v.input_id(0);
  const int32_t out = v.output_id(0);
  if (quantizable) {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
  } else {
    if (Reason r = v.CheckTensorFloat32Type(in)) return r;
    if (Reason r = v.CheckTensorFloat32Type(out)) return r;
  }
  if (Reason r = v.CheckPoolingParams()) return r;
  if (Reason r = v.CalculatePadding()) return r;
  return v.ConvertActivationToOutputRange(v.options().fused_activation);
}

CheckOutcome AveragePool2dNode(const NodeContext& context) {
  return RunCounted(context, 1, 1,
                    [](const Visit& v) { return PoolNode(v, /*quantizable=*/false); });
}

CheckOutcome MaxPool2dNode(const NodeContext& context) {
  return RunCounted(context, 1, 1,
                    [](const Visit& v) { return PoolNode(v, /*quantizable=*/true); });
}

// ----- VisitBatchMatMulNode -----

CheckOutcome BatchMatMulNode(const NodeContext& context) {
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t a = v.input_id(0);
    const int32_t b = v.input_id(1);
    if (Reason r = v.CheckTensorFloat32Type(a)) return r;
    const int rank_b = Rank(v.tensor(b));
    if (Reason r =
            v.CheckTensorFloat32OrQCInt8Type(b, v.options().adj_y ? rank_b - 2 : rank_b - 1)) {
      return r;
    }
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    for (const int32_t id : {a, b}) {
      if (Rank(v.tensor(id)) < 2) {
        return Format(
            "failed to delegate BATCH_MATMUL node #%d. Unsupported number of dimensions %d for "
            "tensor #%d, must be at least 2",
            v.node_index(), Rank(v.tensor(id)), id);
      }
    }
    return std::nullopt;
  });
}

// ----- VisitConcatenationNode -----

CheckOutcome ConcatenationNode(const NodeContext& context) {
  const Visit probe(context);
  // XNNPACK defines concatenations of 2 to 5 inputs only (xnn_define_concatenate2..5).
  if (Reason r = probe.CheckNumInputsAndOutputs(2, 5, 1)) return Outcome(r);
  return Run(context, probe.num_inputs(), 1, [](const Visit& v) -> Reason {
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    const Tensor& output = v.tensor(out);
    if (output.type == TensorType::kUInt8) {
      for (int i = 0; i < v.num_inputs(); ++i) {
        const Tensor& input = v.input(i);
        if (LegacyZeroPoint(input) != LegacyZeroPoint(output)) {
          return Format(
              "Mismatching quantization zero point across the %dth input (%d) and the output (%d) "
              "for CONCATENATE operator #%d",
              i, LegacyZeroPoint(input), LegacyZeroPoint(output), v.node_index());
        }
        if (LegacyScale(input) != LegacyScale(output)) {
          return Format(
              "Mismatching quantization scale across the %dth input (%f) and the output (%f) for "
              "CONCATENATE operator #%d",
              i, static_cast<double>(LegacyScale(input)), static_cast<double>(LegacyScale(output)),
              v.node_index());
        }
      }
    }
    for (int i = 0; i < v.num_inputs(); ++i) {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(i))) return r;
    }
    return std::nullopt;
  });
}

// ----- Convolutions -----

// The tensor checks CONV_2D and DEPTHWISE_CONV_2D share, in upstream's order: a 4-D input; a 4-D
// filter quantized along `filter_quantized_dimension`, static or quasi-static; a present 1-D
// static bias; a 4-D output.
Reason ConvolutionTensors(const Visit& v, int filter_quantized_dimension) {
  const int32_t in = v.input_id(0);
  const int32_t filter = v.input_id(1);
  const int32_t out = v.output_id(0);
  if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
  if (Reason r = v.CheckTensorShape(in, 4)) return r;
  if (Reason r = v.CheckTensorFloat32OrQCInt8Type(filter, filter_quantized_dimension)) return r;
  if (Reason r = v.CheckTensorShape(filter, 4)) return r;
  if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
  const int32_t bias = v.input_id(2);
  if (bias < 0) {
    return Format("unsupported %s node #%d without bias", v.op_name().c_str(), v.node_index());
  }
  if (Reason r = v.CheckBias(bias)) return r;
  if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
  return v.CheckTensorShape(out, 4);
}

CheckOutcome Conv2dNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckStridesAndDilations(/*dilations=*/true)) return Outcome(r);
  if (Reason r = probe.CheckNumInputsAndOutputs(3, 1)) return Outcome(r);
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = ConvolutionTensors(v, /*filter_quantized_dimension=*/0)) return r;
    const TensorType in_type = v.tensor(in).type;
    const TensorType filter_type = v.tensor(filter).type;
    const bool dynamically_quantized = v.flags().enable_latest_operators &&
                                       in_type == TensorType::kFloat32 &&
                                       filter_type == TensorType::kInt8;
    if (in_type != v.tensor(out).type || (in_type != filter_type && !dynamically_quantized)) {
      return Format("unsupported mixed types in CONV_2D operator #%d", v.node_index());
    }
    const int input_channels = Dim(v.tensor(filter), 3);
    if (input_channels == 0 || Dim(v.tensor(in), 3) / input_channels == 0) {
      return Format("groups of zero is not supported by CONV_2D operator #%d", v.node_index());
    }
    if (Reason r = v.CalculatePadding()) return r;
    return v.ConvertActivationToOutputRange(v.options().fused_activation);
  });
}

CheckOutcome DepthwiseConv2dNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckNumInputsAndOutputs(3, 1)) return Outcome(r);
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = ConvolutionTensors(v, /*filter_quantized_dimension=*/3)) return r;
    const TensorType in_type = v.tensor(in).type;
    if (in_type != v.tensor(out).type || in_type != v.tensor(filter).type) {
      return Format("unsupported mixed types in DEPTHWISE_CONV_2D operator #%d", v.node_index());
    }
    // CheckDepthwiseConvolutionParams.
    const OpOptions& o = v.options();
    const int output_channels = Dim(v.tensor(filter), 3);
    if (Reason r = v.CheckStridesAndDilations(/*dilations=*/false)) return r;
    if (o.depth_multiplier <= 0) {
      return Format("invalid depth multiplier %d in node #%d", o.depth_multiplier, v.node_index());
    }
    if (output_channels % o.depth_multiplier != 0) {
      return Format(
          "depth multiplier %d is incompatible with number of output channels %d in node #%d",
          o.depth_multiplier, output_channels, v.node_index());
    }
    if (o.dilation_w <= 0) {
      return Format("invalid dilation width factor %d in node #%d", o.dilation_w, v.node_index());
    }
    if (o.dilation_h <= 0) {
      return Format("invalid dilation height factor %d in node #%d", o.dilation_h, v.node_index());
    }
    if (Reason r = v.CalculatePadding()) return r;
    return v.ConvertActivationToOutputRange(o.fused_activation);
  });
}

// CalculateTransposeConvPaddings (dilation 1).
Reason TransposeConvPaddings(const Visit& v, int input_height, int input_width, int kernel_height,
                             int kernel_width, int output_height, int output_width) {
  const OpOptions& o = v.options();
  switch (o.padding) {
    case Padding::kValid:
      if (kernel_height > output_height || kernel_width > output_width) {
        return Format(
            "output smaller than effective kernel dimensions unsupported with VALID padding in "
            "TRANSPOSE_CONV node #%d: effective kernel size %dx%d (HxW), output %dx%d",
            v.node_index(), kernel_height, kernel_width, output_height, output_width);
      }
      return std::nullopt;
    case Padding::kSame: {
      // ComputePaddingHeightWidth with SAME: the input a convolution would take to produce the
      // output size.
      if (o.stride_h <= 0 || o.stride_w <= 0) {
        return Format("invalid stride in TRANSPOSE_CONV node #%d", v.node_index());
      }
      const int expected_height = (output_height + o.stride_h - 1) / o.stride_h;
      const int expected_width = (output_width + o.stride_w - 1) / o.stride_w;
      if (expected_height != input_height || expected_width != input_width) {
        return Format(
            "inconsistent combination of parameters for TRANSPOSE_CONV op in node #%d: computed "
            "input size %dx%d (HxW), actual %dx%d",
            v.node_index(), expected_height, expected_width, input_height, input_width);
      }
      if (kernel_height < o.stride_h || kernel_width < o.stride_w) {
        return Format(
            "strides larger than effective kernel dimensions unsupported in TRANSPOSE_CONV node "
            "#%d: kernel size %dx%d (HxW), strides %dx%d",
            v.node_index(), kernel_height, kernel_width, o.stride_h, o.stride_w);
      }
      return std::nullopt;
    }
    case Padding::kUnknown:
      break;
  }
  return v.CalculatePadding();
}

CheckOutcome TransposeConvNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckNumInputsAndOutputs(3, 4, 1)) return Outcome(r);
  return Run(context, 3, 1, [](const Visit& v) -> Reason {
    const int32_t output_shape = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t in = v.input_id(2);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorType(output_shape, TensorType::kInt32)) return r;
    // Upstream names TRANSPOSE here, not TRANSPOSE_CONV.
    if (Reason r = v.CheckShapeTensorShape(output_shape, false, "TRANSPOSE")) return r;
    if (Reason r = v.CheckTensorStaticAllocation(output_shape, "TRANSPOSE_CONV")) return r;
    if (Dim(v.tensor(output_shape), 0) != 4) {
      return Format(
          "unsupported number of output shape dimensions (%d) in node #%d: 4 dimensions expected",
          Dim(v.tensor(output_shape), 0), v.node_index());
    }
    if (Reason r = v.CheckTensorShape(filter, 4)) return r;
    if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 4)) return r;
    if (Reason r = v.CheckTensorFloat32OrQCInt8Type(filter, 0)) return r;
    if (v.num_inputs() >= 4 && v.input_id(3) >= 0) {
      if (Reason r = v.CheckBias(v.input_id(3))) return r;
    }
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 4)) return r;
    const Tensor& input = v.tensor(in);
    const Tensor& weights = v.tensor(filter);
    // The output-shape tensor's values, read from the output tensor's shape.
    const Tensor& output = v.tensor(out);
    if (Dim(weights, 0) != Dim(output, 3)) {
      return Format(
          "transpose convolution kernel output channel dimension (%d) doesn't match output shape "
          "channel dimension (%d) in node #%d: 4 dimensions expected",
          Dim(weights, 0), Dim(output, 3), v.node_index());
    }
    if (Dim(weights, 3) != Dim(input, 3)) {
      return Format(
          "transpose convolution kernel input channel dimension (%d) doesn't match filter input "
          "channel (%d) in node #%d",
          Dim(weights, 3), Dim(input, 3), v.node_index());
    }
    if (Reason r = TransposeConvPaddings(v, Dim(input, 1), Dim(input, 2), Dim(weights, 1),
                                         Dim(weights, 2), Dim(output, 1), Dim(output, 2))) {
      return r;
    }
    return v.ConvertActivationToOutputRange(v.options().fused_activation);
  });
}

// ----- Shape and layout ops -----

// DEPTH_TO_SPACE's block size from its shapes (output height / input height).
CheckOutcome DepthToSpaceNode(const NodeContext& context) {
  return RunCounted(context, 1, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    const int input_height = Dim(v.input(0), 1);
    const int block_size = input_height > 0 ? Dim(v.output(0), 1) / input_height : 0;
    if (block_size <= 1) {
      return Format("invalid block size (%d) in DEPTH_TO_SPACE node #%d", block_size,
                    v.node_index());
    }
    return std::nullopt;
  });
}

// SPACE_TO_DEPTH's block size from its shapes (input height / output height).
CheckOutcome SpaceToDepthNode(const NodeContext& context) {
  return RunCounted(context, 1, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    const int output_height = Dim(v.output(0), 1);
    const int block_size = output_height > 0 ? Dim(v.input(0), 1) / output_height : 0;
    if (block_size <= 1) {
      return Format("block size (%d) in SPACE_TO_DEPTH node #%d must be greater > 1", block_size,
                    v.node_index());
    }
    const int input_height = Dim(v.input(0), 1);
    const int input_width = Dim(v.input(0), 2);
    // Upstream passes (height or width, block size, node) to a format naming the node first;
    // its line is reproduced as it prints.
    if (input_height % block_size != 0) {
      return Format(
          "SPACE_TO_DEPTH node #%d input height (%d) must be divisible by block_size (%d).",
          input_height, block_size, v.node_index());
    }
    if (input_width % block_size != 0) {
      return Format(
          "SPACE_TO_DEPTH node #%d input width (%d) must be divisible by block_size (%d).",
          input_width, block_size, v.node_index());
    }
    return std::nullopt;
  });
}

// VisitExpandDimsNode returns an error before any of its checks.
CheckOutcome ExpandDimsNode(const NodeContext& context) {
  return CheckOutcome::Reject(
      Format("EXPAND_DIMS node #%d: VisitExpandDimsNode refuses every node", context.node_index));
}

CheckOutcome FullyConnectedNode(const NodeContext& context) {
  // VisitNode: version 8 is FULLY_CONNECTED with sparse weights.
  if (context.node.version == 8) {
    return CheckOutcome::Reject(Format("Unsupported version %d of FullyConnected.", 8));
  }
  const Visit probe(context);
  if (probe.options().weights_format != 0) {
    return Outcome(
        Format("unsupported non-default weights format in node #%d", probe.node_index()));
  }
  if (Reason r = probe.CheckNumInputsAndOutputs(2, 3, 1)) return Outcome(r);
  return Run(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(filter, 2)) return r;
    const Tensor& weights = v.tensor(filter);
    // Dynamic weights and biases are allowed, float32 only, with the dynamic FC flag.
    if (!(v.flags().dynamic_fully_connected && weights.type == TensorType::kFloat32)) {
      if (Reason r = v.CheckTensorFloat32OrFloat16OrQCInt4OrQCInt8Type(filter, 0)) return r;
      if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
    }
    const int output_channels = Dim(weights, 0);
    const int input_channels = Dim(weights, 1);
    if (v.num_inputs() >= 3 && v.input_id(2) >= 0) {
      const int32_t bias = v.input_id(2);
      if (!(v.flags().dynamic_fully_connected && v.tensor(bias).type == TensorType::kFloat32)) {
        const int64_t bias_elements = NumElements(v.tensor(bias));
        if (bias_elements != output_channels) {
          // Upstream prints the input tensor's index as "node".
          return Format(
              "Fully Connected: Mismatch between number of bias elements %d and number of output "
              "channels %d at node %d",
              static_cast<int>(bias_elements), output_channels, in);
        }
        if (Reason r = v.CheckTensorFloat32OrFloat16OrQCInt32Type(bias)) return r;
        if (Reason r = v.CheckStaticUnlessQuasiStatic(bias)) return r;
      }
    }
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    const TensorType in_type = v.tensor(in).type;
    const TensorType w_type = weights.type;
    const bool int_weights = w_type == TensorType::kInt4 || w_type == TensorType::kInt8;
    const bool dynamically_quantized =
        v.flags().enable_latest_operators && in_type == TensorType::kFloat32 && int_weights;
    const bool supported_srq = in_type == TensorType::kInt8 && int_weights;
    if (in_type != v.tensor(out).type ||
        (in_type != w_type && !(dynamically_quantized || supported_srq))) {
      return Format("unsupported mixed types in FULLY_CONNECTED operator #%d", v.node_index());
    }
    if (w_type == TensorType::kInt4 && input_channels % 2 == 1) {
      return Format(
          "unsupported odd number of inputs channels (%d) in FULLY_CONNECTED operator #%d",
          input_channels, v.node_index());
    }
    return v.ConvertActivationToOutputRange(v.options().fused_activation);
  });
}

CheckOutcome ReduceNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t axes = v.input_id(1);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorType(axes, TensorType::kInt32)) return r;
    if (Rank(v.tensor(axes)) > 1) {
      return Format(
          "unexpected number of shape dimensions (%d) in axes tensor #%d in node #%d: expected a "
          "1D tensor",
          Rank(v.tensor(axes)), axes, v.node_index());
    }
    if (Reason r = v.CheckTensorStaticAllocation(axes, v.op_name())) return r;
    return v.CheckTensorFloat32OrQUInt8Type(v.output_id(0));
  });
}

CheckOutcome PadNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t paddings = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 1, kMaxTensorDims)) return r;
    if (Reason r = v.CheckTensorType(paddings, TensorType::kInt32)) return r;
    // CheckPaddingsTensorShape; upstream prints the rank where it means the row / column count.
    const Tensor& p = v.tensor(paddings);
    if (Rank(p) != 2) {
      return Format(
          "unexpected number of shape dimensions (%d) in padding tensor #%d in node #%d: "
          "expected a 2D tensor",
          Rank(p), paddings, v.node_index());
    }
    if (Dim(p, 0) != Rank(v.tensor(in))) {
      return Format(
          "unexpected number of rows (%d) in padding tensor #%d in node #%d: %d rows expected",
          Rank(p), paddings, v.node_index(), Rank(v.tensor(in)));
    }
    if (Dim(p, 1) != 2) {
      return Format(
          "unexpected number of columns (%d) in padding tensor #%d in node #%d: 2 columns "
          "expected",
          Rank(p), paddings, v.node_index());
    }
    if (Reason r = v.CheckTensorStaticAllocation(paddings, "PAD")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 1, kMaxTensorDims)) return r;
    // Upstream loops over the paddings tensor's rank (2), not its rows, so only the first two
    // rows are checked, and the post-padding line prints the pre-padding.
    const int checked_rows = std::min(Rank(p), Dim(p, 0));
    if (const int64_t* pads = v.known_values(paddings, 2 * int64_t{checked_rows})) {
      for (int i = 0; i < checked_rows; ++i) {
        const int pre = static_cast<int>(pads[2 * i]);
        const int post = static_cast<int>(pads[2 * i + 1]);
        if (pre < 0) {
          return Format("invalid pre-padding %d for dimension #%d in node %d", pre, i,
                        v.node_index());
        }
        if (post < 0) {
          return Format("invalid post-padding %d for dimension #%d in node %d", pre, i,
                        v.node_index());
        }
      }
    }
    return std::nullopt;
  });
}

CheckOutcome ReshapeNode(const NodeContext& context) {
  const Visit probe(context);
  if (Reason r = probe.CheckNumInputsAndOutputs(1, 2, 1)) return Outcome(r);
  return Run(context, probe.num_inputs(), 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 0, kMaxTensorDims)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 0, kMaxTensorDims)) return r;
    const Tensor& input = v.tensor(in);
    const Tensor& output = v.tensor(out);
    if (output.type == TensorType::kUInt8 || output.type == TensorType::kInt8) {
      if (LegacyZeroPoint(input) != LegacyZeroPoint(output)) {
        return Format(
            "Mismatching quantization zero point across the input (%d) and the output (%d) for "
            "RESHAPE operator #%d",
            LegacyZeroPoint(input), LegacyZeroPoint(output), v.node_index());
      }
      if (LegacyScale(input) != LegacyScale(output)) {
        return Format(
            "Mismatching quantization scale across the input (%f) and the output (%f) for RESHAPE "
            "operator #%d",
            static_cast<double>(LegacyScale(input)), static_cast<double>(LegacyScale(output)),
            v.node_index());
      }
    }
    if (v.num_inputs() == 2) {
      const int32_t shape = v.input_id(1);
      if (Reason r = v.CheckTensorType(shape, TensorType::kInt32)) return r;
      if (Reason r = v.CheckShapeTensorShape(shape, /*squeeze_dims=*/true, "RESHAPE")) return r;
      if (Reason r = v.CheckTensorStaticAllocation(shape, "RESHAPE")) return r;
    }
    return std::nullopt;
  });
}

CheckOutcome ResizeBilinearNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t shape = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 4)) return r;
    if (Reason r = v.CheckTensorType(shape, TensorType::kInt32)) return r;
    if (Reason r = v.CheckShapeTensorShape(shape, false, "RESIZE_BILINEAR")) return r;
    if (Reason r = v.CheckTensorStaticAllocation(shape, "RESIZE_BILINEAR")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
    if (Reason r = v.CheckTensorShape(out, 4)) return r;
    // Upstream loops over the size tensor's rank (1): only the output height is checked.
    if (const int64_t* size = v.known_values(shape, 1); size != nullptr && size[0] <= 0) {
      return Format("invalid output dimension #%d value %d in node %d", 0,
                    static_cast<int>(size[0]), v.node_index());
    }
    return std::nullopt;
  });
}

CheckOutcome SliceNode(const NodeContext& context) {
  return Run(context, 3, 1, [](const Visit& v) -> Reason {
    const int32_t begin = v.input_id(1);
    const int32_t size = v.input_id(2);
    if (Reason r = v.CheckSliceParamTensor(begin, "SLICE", /*allow_int64=*/true)) return r;
    if (Reason r = v.CheckSliceParamTensor(size, "SLICE", /*allow_int64=*/true)) return r;
    if (Reason r = v.CheckTensorsDimensionMatch(begin, size, 0, "SLICE")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    // A negative begin is only logged upstream; a size that is not positive refuses the node.
    const int num_dims = Dim(v.tensor(begin), 0);
    if (const int64_t* sizes = v.known_values(size, num_dims)) {
      for (int i = 0; i < num_dims; ++i) {
        if (sizes[i] <= 0) {
          return Format("size %" PRId64 " must be positive in SLICE node #%d", sizes[i],
                        v.node_index());
        }
      }
    }
    return std::nullopt;
  });
}

CheckOutcome SoftmaxNode(const NodeContext& context) {
  const Visit probe(context);
  if (probe.options().beta != 1.0f) {
    return Outcome(Format("unsupported beta value %.7f in SOFTMAX node #%d",
                          static_cast<double>(probe.options().beta), probe.node_index()));
  }
  if (Reason r = probe.CheckNumInputsAndOutputs(1, 1)) return Outcome(r);
  return Run(context, 1, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32Type(v.input_id(0))) return r;
    return v.CheckTensorFloat32Type(v.output_id(0));
  });
}

CheckOutcome SplitNode(const NodeContext& context) {
  const Visit probe(context);
  if (probe.options().num_splits != probe.num_outputs()) {
    return Outcome(Format("num_splits (%d) != number of outputs (%d) in SPLIT node #%d",
                          probe.options().num_splits, probe.num_outputs(), probe.node_index()));
  }
  if (Reason r = probe.CheckNumInputs(2)) return Outcome(r);
  if (Reason r = probe.CheckNumOutputs(2, 4)) return Outcome(r);
  return Run(context, 2, probe.num_outputs(), [](const Visit& v) -> Reason {
    const int32_t split_dim = v.input_id(0);
    if (Reason r = v.CheckTensorType(split_dim, TensorType::kInt32)) return r;
    if (Reason r = v.CheckTensorStaticAllocation(split_dim, "SPLIT")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(1))) return r;
    for (int i = 0; i < v.num_outputs(); ++i) {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(i))) return r;
    }
    return std::nullopt;
  });
}

// "Some models contain illegal crop info" (VisitStridedSliceNode): a crop past the input's
// extent refuses the node. Masked bits read 0 for begin and end.
Reason StridedSliceCrops(const Visit& v, int num_dims) {
  const int64_t* begin = v.known_values(v.input_id(1), num_dims);
  const int64_t* end = v.known_values(v.input_id(2), num_dims);
  if (begin == nullptr || end == nullptr) return std::nullopt;
  const OpOptions& o = v.options();
  for (int i = 0; i < num_dims; ++i) {
    const int64_t b = (o.begin_mask & (1 << i)) != 0 ? 0 : begin[i];
    const int64_t e = (o.end_mask & (1 << i)) != 0 ? 0 : o.offset ? end[i] + b : end[i];
    const int64_t extent = Dim(v.input(0), i);
    const int64_t offset = b < 0 ? b + extent : b;
    const int64_t size = e <= 0 ? e + extent - offset : e - offset;
    if (offset + size > extent) {
      return Format("offset %" PRId64 " + size %" PRId64 " exceeds extent %" PRId64
                    " in STRIDED_SLICE node #%d for dimension %d",
                    offset, size, extent, v.node_index(), i);
    }
  }
  return std::nullopt;
}

CheckOutcome StridedSliceNode(const NodeContext& context) {
  const Visit probe(context);
  const OpOptions& o = probe.options();
  if (o.ellipsis_mask != 0 || o.new_axis_mask != 0 || o.shrink_axis_mask != 0) {
    return Outcome(
        Format("STRIDED_SLICE node #%d: ellipsis, new axis and shrink axis masks are not supported",
               probe.node_index()));
  }
  return Run(context, 4, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t begin = v.input_id(1);
    const int32_t end = v.input_id(2);
    const int32_t stride = v.input_id(3);
    if (Reason r = v.CheckSliceParamTensor(stride, "STRIDED_SLICE", false)) return r;
    const int num_dims = Dim(v.tensor(stride), 0);
    if (const int64_t* strides = v.known_values(stride, num_dims)) {
      for (int i = 0; i < num_dims; ++i) {
        if (strides[i] != 1) {
          // Upstream's format string lacks the space before "in".
          return Format("stride at dimension %d, %d, must be 1in STRIDED_SLICE node #%d", i,
                        static_cast<int>(strides[i]), v.node_index());
        }
      }
    }
    if (Reason r = v.CheckSliceParamTensor(begin, "STRIDED_SLICE", false)) return r;
    if (Reason r = v.CheckSliceParamTensor(end, "STRIDED_SLICE", false)) return r;
    const int input_rank = Rank(v.tensor(in));
    for (const auto& [id, name] : {std::pair{begin, "begin_tensor"}, std::pair{end, "end_tensor"},
                                   std::pair{stride, "stride_tensor"}}) {
      const Tensor& param = v.tensor(id);
      if (Rank(param) != 1 || input_rank != Dim(param, 0)) {
        // Upstream prints the tensor's first value as its "shape"; its length stands in when the
        // values are unknown.
        const int64_t* first = v.known_values(id, 1);
        return Format("%s shape (%d) must be equal to input shape (%d) in STRIDED_SLICE node #%d",
                      name, first != nullptr ? static_cast<int>(first[0]) : Dim(param, 0),
                      input_rank, v.node_index());
      }
    }
    if (Reason r = v.CheckTensorsDimensionMatch(stride, begin, 0, "STRIDED_SLICE")) return r;
    if (Reason r = v.CheckTensorsDimensionMatch(begin, end, 0, "STRIDED_SLICE")) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    return StridedSliceCrops(v, num_dims);
  });
}

CheckOutcome TransposeNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    return v.CheckTensorStaticAllocation(v.input_id(1), "TRANSPOSE");
  });
}

// ----- Resource variables -----

// ResourceInfo as PrepareOpsToDelegate has built it for `resource` when the node at plan position
// `position` is visited: whether a VAR_HANDLE produced it, and the first proxy value (the value
// tensor of the first READ_VARIABLE / ASSIGN_VARIABLE of it that was taken), or -1.
struct ResourceState {
  bool has_var_handle = false;
  int32_t proxy = -1;
};

bool VariableValueTypeAccepted(const NodeContext& context, const Node& node, int32_t value) {
  const Tensor& t = context.subgraph.tensors[static_cast<size_t>(value)];
  if (node.op == "READ_VARIABLE" && t.shape.empty()) return false;
  const NodeContext probe{.subgraph = context.subgraph,
                          .node_index = 0,
                          .node = node,
                          .inputs = node.inputs,
                          .profile = context.profile};
  return !Visit(probe).CheckTensorFloat32OrQUInt8Type(value).has_value();
}

// The value tensor a READ_VARIABLE / ASSIGN_VARIABLE proxies for its resource, or -1.
int32_t VariableValue(const Node& node) {
  if (node.kind != NodeKind::kBuiltin) return -1;
  if (node.op == "READ_VARIABLE" && !node.outputs.empty()) return node.outputs[0];
  if (node.op == "ASSIGN_VARIABLE" && node.inputs.size() >= 2) return node.inputs[1];
  return -1;
}

bool SameTypeAndShape(const Subgraph& subgraph, int32_t a, int32_t b) {
  const Tensor& x = subgraph.tensors[static_cast<size_t>(a)];
  const Tensor& y = subgraph.tensors[static_cast<size_t>(b)];
  return x.type == y.type && x.shape == y.shape;
}

ResourceState ResourceBefore(const NodeContext& context, int32_t resource) {
  ResourceState state;
  const Subgraph& subgraph = context.subgraph;
  for (int32_t node_index : subgraph.execution_plan) {
    if (node_index == context.node_index) break;
    const Node& node = subgraph.nodes[static_cast<size_t>(node_index)];
    if (node.kind != NodeKind::kBuiltin) continue;
    if (node.op == "VAR_HANDLE" && !node.outputs.empty() && node.outputs[0] == resource) {
      state.has_var_handle = true;
      continue;
    }
    const int32_t value = VariableValue(node);
    if (value < 0 || node.inputs.empty() || node.inputs[0] != resource || !state.has_var_handle) {
      continue;
    }
    if (!VariableValueTypeAccepted(context, node, value)) continue;
    if (state.proxy < 0) state.proxy = value;
  }
  return state;
}

// ResourceInfo::AddProxyValue.
Reason AddProxyValue(const Visit& v, int32_t resource, int32_t value) {
  const ResourceState state = ResourceBefore(v.context(), resource);
  if (!state.has_var_handle) {
    return Format("%s node #%d: resource tensor #%d has no VAR_HANDLE before it",
                  v.node().op.c_str(), v.node_index(), resource);
  }
  if (state.proxy >= 0 && !SameTypeAndShape(v.context().subgraph, state.proxy, value)) {
    return Format(
        "%s node #%d: tensor #%d differs in type or shape from the variable's value tensor #%d",
        v.node().op.c_str(), v.node_index(), value, state.proxy);
  }
  return std::nullopt;
}

CheckOutcome VarHandleNode(const NodeContext& context) {
  // The variable's type is unknown until a READ_VARIABLE / ASSIGN_VARIABLE is met;
  // ApplyXnnpackPrepareOpsToDelegate takes the node then.
  return CheckOutcome::Reject(Format(
      "VAR_HANDLE node #%d: taken only with a READ_VARIABLE or ASSIGN_VARIABLE of its resource",
      context.node_index));
}

CheckOutcome ReadVariableNode(const NodeContext& context) {
  return Run(context, 1, 1, [](const Visit& v) -> Reason {
    if (v.output(0).shape.empty()) {
      return Format("READ_VARIABLE node #%d: scalar or unranked value", v.node_index());
    }
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.output_id(0))) return r;
    return AddProxyValue(v, v.input_id(0), v.output_id(0));
  });
}

CheckOutcome AssignVariableNode(const NodeContext& context) {
  return Run(context, 2, 0, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(1))) return r;
    return AddProxyValue(v, v.input_id(0), v.input_id(1));
  });
}

// ----- MediaPipe custom ops (their parameter bytes are not in the Graph IR) -----

CheckOutcome MediaPipeDeconvolutionNode(const NodeContext& context) {
  return RunCounted(context, 3, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t bias = v.input_id(2);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 4)) return r;
    if (Reason r = v.CheckTensorFloat32Type(filter)) return r;
    if (Reason r = v.CheckTensorShape(filter, 4)) return r;
    if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
    if (Reason r = v.CheckTensorFloat32Type(bias)) return r;
    if (Reason r = v.CheckTensorShape(bias, 1)) return r;
    if (Reason r = v.CheckStaticUnlessQuasiStatic(bias)) return r;
    if (Reason r = v.CheckTensorFloat32Type(out)) return r;
    return v.CheckTensorShape(out, 4);
  });
}

CheckOutcome MediaPipeMaxPoolingNode(const NodeContext& context) {
  return RunCounted(context, 1, 2, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorShape(v.input_id(0), 4)) return r;
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    if (Reason r = v.CheckTensorShape(v.output_id(0), 4)) return r;
    return v.CheckTensorShape(v.output_id(1), 4);
  });
}

CheckOutcome MediaPipeUnpoolingNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorShape(v.input_id(0), 4)) return r;
    if (Reason r = v.CheckTensorShape(v.input_id(1), 4)) return r;
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    return v.CheckTensorShape(v.output_id(0), 4);
  });
}

// VisitDotAttentionNode's checks, for the odml.scaled_dot_product_attention custom op and
// composite.
CheckOutcome ScaledDotAttentionNode(const NodeContext& context) {
  const Visit probe(context);
  const int inputs = std::min(probe.num_inputs(), 4);
  return Run(context, inputs < 3 ? 3 : inputs, 1, [](const Visit& v) -> Reason {
    const int count = std::min(v.num_inputs(), 4);
    for (int k = 0; k < count; ++k) {
      if (Reason r = v.CheckTensorFloat32Type(v.input_id(k))) return r;
    }
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    const Tensor& query = v.input(0);
    const Tensor& key = v.input(1);
    const Tensor& value = v.input(2);
    const auto last = [](const Tensor& t) { return Dim(t, Rank(t) - 1); };
    if (last(query) != last(key) || last(query) != last(value)) {
      return Format("odml.scaled_dot_product_attention node #%d: head dimensions differ",
                    v.node_index());
    }
    if (count > 3 && (Dim(key, 1) != last(v.input(3)) || Dim(value, 1) != last(v.input(3)))) {
      return Format("odml.scaled_dot_product_attention node #%d: mask and sequence lengths differ",
                    v.node_index());
    }
    return std::nullopt;
  });
}

// VisitNode's kTfLiteBuiltinStablehloComposite case (tflite/delegates/xnnpack/xnnpack_delegate.cc):
// a composite named odml.scaled_dot_product_attention gets the custom op's visit
// (VisitScaledDotAttentionCompositeNode: its "scale" and "logit_cap" attributes only shape the
// XNNPACK subgraph and refuse nothing); any other name is refused. The decomposition subgraph is
// not looked at. Query rank 4, key / value rank 4 and query heads divisible by key heads are
// checked only inside `subgraph != nullptr`, after the node was chosen, so not here.
CheckOutcome StablehloCompositeNode(const NodeContext& context) {
  const std::string& name = context.node.options->composite_name;
  if (name == "odml.scaled_dot_product_attention") return ScaledDotAttentionNode(context);
  return CheckOutcome::Reject(
      Format("unsupported stablehlo.composite operator type \"%s\" in node #%d", name.c_str(),
             context.node_index));
}

constexpr NamedRuleCheck kXnnpackChecks[] = {
    {"xnnpack_static_unpack", StaticUnpack},
    {"xnnpack_unary", UnaryNode},
    {"xnnpack_binary", BinaryNode},
    {"xnnpack_average_pool_2d", AveragePool2dNode},
    {"xnnpack_max_pool_2d", MaxPool2dNode},
    {"xnnpack_batch_matmul", BatchMatMulNode},
    {"xnnpack_concatenation", ConcatenationNode},
    {"xnnpack_conv_2d", Conv2dNode},
    {"xnnpack_depthwise_conv_2d", DepthwiseConv2dNode},
    {"xnnpack_depth_to_space", DepthToSpaceNode},
    {"xnnpack_expand_dims", ExpandDimsNode},
    {"xnnpack_fully_connected", FullyConnectedNode},
    {"xnnpack_reduce", ReduceNode},
    {"xnnpack_pad", PadNode},
    {"xnnpack_reshape", ReshapeNode},
    {"xnnpack_resize_bilinear", ResizeBilinearNode},
    {"xnnpack_slice", SliceNode},
    {"xnnpack_softmax", SoftmaxNode},
    {"xnnpack_space_to_depth", SpaceToDepthNode},
    {"xnnpack_split", SplitNode},
    {"xnnpack_strided_slice", StridedSliceNode},
    {"xnnpack_transpose", TransposeNode},
    {"xnnpack_transpose_conv", TransposeConvNode},
    {"xnnpack_var_handle", VarHandleNode},
    {"xnnpack_read_variable", ReadVariableNode},
    {"xnnpack_assign_variable", AssignVariableNode},
    {"xnnpack_mediapipe_deconvolution", MediaPipeDeconvolutionNode},
    {"xnnpack_mediapipe_max_pooling", MediaPipeMaxPoolingNode},
    {"xnnpack_mediapipe_unpooling", MediaPipeUnpoolingNode},
    {"xnnpack_scaled_dot_attention", ScaledDotAttentionNode},
    {"xnnpack_stablehlo_composite", StablehloCompositeNode},
};

}  // namespace

std::span<const NamedRuleCheck> XnnpackRuleChecks() { return kXnnpackChecks; }

bool IsXnnpackStaticUnpackNode(const Subgraph& subgraph, const Node& node) {
  if (node.kind != NodeKind::kBuiltin || node.inputs.size() != 1 || node.outputs.size() != 1) {
    return false;
  }
  if (node.inputs[0] < 0 || node.outputs[0] < 0) return false;
  const Tensor& input = subgraph.tensors[static_cast<size_t>(node.inputs[0])];
  const Tensor& output = subgraph.tensors[static_cast<size_t>(node.outputs[0])];
  if (node.op == "DEQUANTIZE") {
    const bool unpackable_type =
        input.type == TensorType::kFloat16 || (input.type == TensorType::kInt8 && IsAffine(input));
    return !input.is_sparse && unpackable_type && output.type == TensorType::kFloat32 &&
           (input.is_constant() || IsQuasiStatic(subgraph, node.inputs[0]));
  }
  if (node.op == "DENSIFY") {
    const bool unpackable_type = input.type == TensorType::kFloat16 ||
                                 input.type == TensorType::kInt8 ||
                                 input.type == TensorType::kFloat32;
    return input.is_constant() && input.is_sparse && unpackable_type && output.type == input.type;
  }
  return false;
}

void ApplyXnnpackPrepareOpsToDelegate(const Subgraph& subgraph, std::vector<NodeSupport>& verdicts,
                                      std::vector<bool>& supported) {
  std::unordered_map<int32_t, size_t> unpack_verdict_of;  // output tensor -> verdict position
  for (size_t i = 0; i < verdicts.size(); ++i) {
    const Node& node = subgraph.nodes[static_cast<size_t>(verdicts[i].node)];
    if (IsXnnpackStaticUnpackNode(subgraph, node)) unpack_verdict_of[node.outputs[0]] = i;
  }
  // Only nodes that failed their visit drop a producer; an unpack node dropped here did not.
  std::vector<int32_t> failed;
  for (const NodeSupport& verdict : verdicts) {
    if (!verdict.supported) failed.push_back(verdict.node);
  }
  for (int32_t node_index : failed) {
    for (int32_t input : subgraph.nodes[static_cast<size_t>(node_index)].inputs) {
      auto it = unpack_verdict_of.find(input);
      if (it == unpack_verdict_of.end()) continue;
      NodeSupport& producer = verdicts[it->second];
      if (!producer.supported) continue;
      producer.supported = false;
      producer.reason =
          "unpacks static data for node " + std::to_string(node_index) + ", which stays on the CPU";
      supported[static_cast<size_t>(producer.node)] = false;
    }
  }
  // Resource variables with a proxy value: their VAR_HANDLE joins the delegated nodes.
  for (NodeSupport& verdict : verdicts) {
    const Node& node = subgraph.nodes[static_cast<size_t>(verdict.node)];
    if (node.kind != NodeKind::kBuiltin || node.op != "VAR_HANDLE" || node.outputs.empty()) {
      continue;
    }
    for (const NodeSupport& other : verdicts) {
      const Node& user = subgraph.nodes[static_cast<size_t>(other.node)];
      if (!other.supported || VariableValue(user) < 0 || user.inputs.empty() ||
          user.inputs[0] != node.outputs[0]) {
        continue;
      }
      verdict.supported = true;
      verdict.reason.clear();
      supported[static_cast<size_t>(verdict.node)] = true;
      break;
    }
  }
}

}  // namespace tfa
