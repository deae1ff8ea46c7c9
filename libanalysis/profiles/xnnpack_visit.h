// The building blocks of the XNNPACK rules (xnnpack_rules.h): upstream's Subgraph::Visit*Node
// functions check a node through the Check* helpers of one visit (Visit, below); each family of
// visits lives in xnnpack_rules_*.cc, as upstream's delegate keeps one Visit*Node per op.
// Internal to libanalysis/profiles.
#ifndef LIBANALYSIS_PROFILES_XNNPACK_VISIT_H_
#define LIBANALYSIS_PROFILES_XNNPACK_VISIT_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/rule_checks.h"
#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa::xnnpack_visit {

// XNN_MAX_TENSOR_DIMS.
constexpr int kMaxTensorDims = 6;

// A reason when the node is refused, nothing when this part of the visit passes.
using Reason = std::optional<std::string>;

// The TFLITE_XNNPACK_DELEGATE_FLAG_* flags the visits read.
struct Flags {
  bool qs8 = false;
  bool qu8 = false;
  bool dynamic_fully_connected = false;
  bool enable_latest_operators = false;
};

// The XNNPACK datatypes whose quantization xnn_validate_*quantized_tensor checks
// (XNNPACK src/tensor.c).
enum class QuantizedType { kQint8, kQuint8, kQint32, kQcint8, kQcint32 };

// printf-style formatting, so the reasons keep upstream's format strings.
[[gnu::format(printf, 1, 2)]] std::string Format(const char* format, ...);

// TfLiteTypeGetName: upper-case names ("FLOAT32").
std::string TypeName(TensorType type);

Flags FlagsOf(const DelegateProfile& profile);

// TfLite's quantization as the interpreter builds it (xnnpack_visit.cc).
bool IsAffine(const Tensor& t);
int QuantizationTypeCode(const Tensor& t);
float LegacyScale(const Tensor& t);
int LegacyZeroPoint(const Tensor& t);
int FirstZeroPoint(const Tensor& t);
bool PerTensorAffine(const Tensor& t, bool need_one_zero_point);

int Rank(const Tensor& t);
int Dim(const Tensor& t, int i);
int64_t NumElements(const Tensor& t);

// XNNPACK's xnn_validate_*quantized_tensor (xnnpack_visit.cc).
bool ZeroPointInRange(QuantizedType type, int zero_point);
bool ValidScale(float scale);
bool ValidQuantized(QuantizedType type, int zero_point, float scale, const Tensor& t);
bool ValidChannelwise(QuantizedType type, int zero_point, const Tensor& t, int channel_dim);

// The planned node producing `tensor`, or nullptr.
const Node* PlannedProducer(const Subgraph& subgraph, int32_t tensor);
// A tensor unpacked from static data by a node XNNPACK takes without visiting it.
bool IsQuasiStatic(const Subgraph& subgraph, int32_t tensor);

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

CheckOutcome Outcome(const Reason& reason);

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

// One function per upstream Visit*Node, each a NamedRuleCheck (kXnnpackChecks in
// xnnpack_rules.cc lists them by name).

// xnnpack_rules_elementwise.cc
CheckOutcome UnaryNode(const NodeContext& context);
CheckOutcome BinaryNode(const NodeContext& context);
CheckOutcome SoftmaxNode(const NodeContext& context);
CheckOutcome ReduceNode(const NodeContext& context);

// xnnpack_rules_conv_pool.cc
CheckOutcome AveragePool2dNode(const NodeContext& context);
CheckOutcome MaxPool2dNode(const NodeContext& context);
CheckOutcome BatchMatMulNode(const NodeContext& context);
CheckOutcome Conv2dNode(const NodeContext& context);
CheckOutcome DepthwiseConv2dNode(const NodeContext& context);
CheckOutcome TransposeConvNode(const NodeContext& context);
CheckOutcome FullyConnectedNode(const NodeContext& context);

// xnnpack_rules_reshape.cc
CheckOutcome ConcatenationNode(const NodeContext& context);
CheckOutcome DepthToSpaceNode(const NodeContext& context);
CheckOutcome SpaceToDepthNode(const NodeContext& context);
CheckOutcome ExpandDimsNode(const NodeContext& context);
CheckOutcome PadNode(const NodeContext& context);
CheckOutcome ReshapeNode(const NodeContext& context);
CheckOutcome ResizeBilinearNode(const NodeContext& context);
CheckOutcome SliceNode(const NodeContext& context);
CheckOutcome SplitNode(const NodeContext& context);
CheckOutcome StridedSliceNode(const NodeContext& context);
CheckOutcome TransposeNode(const NodeContext& context);

// xnnpack_rules_variables.cc
CheckOutcome VarHandleNode(const NodeContext& context);
CheckOutcome ReadVariableNode(const NodeContext& context);
CheckOutcome AssignVariableNode(const NodeContext& context);
// The value tensor a READ_VARIABLE / ASSIGN_VARIABLE proxies for its resource, or -1.
int32_t VariableValue(const Node& node);

// xnnpack_rules_composites.cc
CheckOutcome MediaPipeDeconvolutionNode(const NodeContext& context);
CheckOutcome MediaPipeMaxPoolingNode(const NodeContext& context);
CheckOutcome MediaPipeUnpoolingNode(const NodeContext& context);
CheckOutcome ScaledDotAttentionNode(const NodeContext& context);
CheckOutcome StablehloCompositeNode(const NodeContext& context);

}  // namespace tfa::xnnpack_visit

#endif  // LIBANALYSIS_PROFILES_XNNPACK_VISIT_H_
