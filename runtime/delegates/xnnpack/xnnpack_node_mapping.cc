#include "runtime/delegates/xnnpack/xnnpack_node_mapping.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

namespace tfa::runtime {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr const char* kNotInLibrary = "not in libXNNPACK 2022-02-16";

// Ops the library has a node for that this mapping leaves to the CPU kernels.
const std::set<std::string>& InLibraryNotMapped() {
  static const std::set<std::string> kOps = {"TRANSPOSE_CONV",
                                             "Convolution2DTransposeBias",
                                             "MaxPoolingWithArgmax2D",
                                             "MaxUnpooling2D",
                                             "QUANTIZE",
                                             "DEQUANTIZE"};
  return kOps;
}

const std::set<std::string>& SimpleUnary() {
  static const std::set<std::string> kOps = {"HARD_SWISH", "LOGISTIC", "ABS",    "CEIL", "FLOOR",
                                             "NEG",        "ROUND",    "SQUARE", "SQRT"};
  return kOps;
}

// RELU and its bounded forms are clamps (upstream: VisitReluNode).
std::optional<std::pair<float, float>> ClampRange(const std::string& op) {
  if (op == "RELU") return std::pair{0.0f, kInfinity};
  if (op == "RELU6") return std::pair{0.0f, 6.0f};
  if (op == "RELU_N1_TO_1") return std::pair{-1.0f, 1.0f};
  if (op == "RELU_0_TO_1") return std::pair{0.0f, 1.0f};
  return std::nullopt;
}

bool IsArithmetic(const std::string& op) {
  return op == "ADD" || op == "SUB" || op == "MUL" || op == "DIV";
}
bool IsMinMax(const std::string& op) {
  return op == "MAXIMUM" || op == "MINIMUM" || op == "SQUARED_DIFFERENCE";
}
bool IsReshape(const std::string& op) {
  return op == "RESHAPE" || op == "EXPAND_DIMS" || op == "SQUEEZE";
}

bool IsMapped(const std::string& op) {
  static const std::set<std::string> kOthers = {"CONV_2D",
                                                "DEPTHWISE_CONV_2D",
                                                "FULLY_CONNECTED",
                                                "AVERAGE_POOL_2D",
                                                "MAX_POOL_2D",
                                                "MEAN",
                                                "PAD",
                                                "RESIZE_BILINEAR",
                                                "SOFTMAX",
                                                "PRELU",
                                                "LEAKY_RELU",
                                                "ELU",
                                                "DEPTH_TO_SPACE"};
  return SimpleUnary().count(op) || ClampRange(op) || IsArithmetic(op) || IsMinMax(op) ||
         IsReshape(op) || kOthers.count(op);
}

// The fused activation as an output range (upstream: ConvertActivationToOutputRange).
std::optional<std::pair<float, float>> OutputRange(Activation activation) {
  switch (activation) {
    case Activation::kNone:
      return std::pair{-kInfinity, kInfinity};
    case Activation::kRelu:
      return std::pair{0.0f, kInfinity};
    case Activation::kReluN1To1:
      return std::pair{-1.0f, 1.0f};
    case Activation::kRelu6:
      return std::pair{0.0f, 6.0f};
    default:
      return std::nullopt;
  }
}

// The inputs XNNPACK reads as data; the others (shapes, paddings, axes) only shape the node.
size_t DataInputCount(const Node& node) {
  if (IsReshape(node.op) || node.op == "PAD" || node.op == "MEAN" || node.op == "RESIZE_BILINEAR") {
    return 1;
  }
  return node.inputs.size();
}

int32_t InputOrAbsent(const Node& node, size_t i) {
  return i < node.inputs.size() ? node.inputs[i] : -1;
}

// A static int32 / int64 tensor's values.
std::optional<std::vector<int64_t>> StaticInts(const XnnpackTensorView& tensors, int32_t t) {
  if (t < 0 || !tensors.IsStatic(t)) return std::nullopt;
  const RuntimeTensor& tensor = tensors.Tensor(t);
  if (!tensor.data) return std::nullopt;
  std::vector<int64_t> values(static_cast<size_t>(tensor.NumElements()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (tensor.type == TensorType::kInt32) {
      values[i] = tensor.Data<const int32_t>()[i];
    } else if (tensor.type == TensorType::kInt64) {
      values[i] = tensor.Data<const int64_t>()[i];
    } else {
      return std::nullopt;
    }
  }
  return values;
}

std::optional<std::string> CheckWeights(const XnnpackTensorView& tensors, const Node& node,
                                        size_t filter_rank) {
  const int32_t filter = InputOrAbsent(node, 1);
  if (filter < 0 || !tensors.IsStatic(filter)) return "the filter is not static";
  if (tensors.Tensor(filter).Rank() != static_cast<int>(filter_rank))
    return "unexpected filter rank";
  const int32_t bias = InputOrAbsent(node, 2);
  // The 2022 library's convolutions need a bias (upstream's delegate refuses them without).
  if (bias < 0 && node.op != "FULLY_CONNECTED") return "no bias";
  if (bias >= 0 && !tensors.IsStatic(bias)) return "the bias is not static";
  return std::nullopt;
}

std::optional<std::string> CheckActivation(const Node& node) {
  if (!OutputRange(node.options->fused_activation)) {
    return std::string("fused activation ") + ActivationName(node.options->fused_activation) +
           " has no output range in libXNNPACK 2022-02-16";
  }
  return std::nullopt;
}

std::optional<std::string> CheckPadding(const Node& node) {
  if (node.options->padding != Padding::kSame && node.options->padding != Padding::kValid)
    return "unknown padding";
  return std::nullopt;
}

std::optional<std::string> CheckOp(const Node& node, const XnnpackTensorView& tensors) {
  const std::string& op = node.op;
  const OpOptions& options = *node.options;
  const RuntimeTensor& input = tensors.Tensor(node.inputs[0]);
  const RuntimeTensor& output = tensors.Tensor(node.outputs[0]);
  if (op == "CONV_2D" || op == "DEPTHWISE_CONV_2D") {
    if (input.Rank() != 4) return "the input is not 4-D";
    if (auto reason = CheckWeights(tensors, node, 4)) return reason;
    const RuntimeTensor& filter = tensors.Tensor(node.inputs[1]);
    if (op == "CONV_2D" && (filter.Dim(3) <= 0 || input.Dim(3) % filter.Dim(3) != 0))
      return "input channels are not a multiple of the filter's";
    if (op == "DEPTHWISE_CONV_2D" &&
        (filter.Dim(0) != 1 || input.Dim(3) <= 0 || filter.Dim(3) % input.Dim(3) != 0))
      return "output channels are not a multiple of input channels";
    if (auto reason = CheckPadding(node)) return reason;
    return CheckActivation(node);
  }
  if (op == "FULLY_CONNECTED") {
    if (auto reason = CheckWeights(tensors, node, 2)) return reason;
    if (options.weights_format != 0) return "shuffled weights";
    const int32_t input_channels = tensors.Tensor(node.inputs[1]).Dim(1);
    if (input_channels <= 0 || input.NumElements() % input_channels != 0)
      return "input size is not a multiple of the filter's input channels";
    return CheckActivation(node);
  }
  if ((IsArithmetic(op) || IsMinMax(op) || op == "PRELU") &&
      (node.inputs.size() < 2 || node.inputs[1] < 0))
    return "unexpected arity";
  if (IsArithmetic(op) || IsMinMax(op)) {
    if (tensors.IsStatic(node.inputs[0]) && tensors.IsStatic(node.inputs[1]))
      return "both inputs are constant";
    return IsArithmetic(op) ? CheckActivation(node) : std::nullopt;
  }
  if (op == "AVERAGE_POOL_2D" || op == "MAX_POOL_2D") {
    if (input.Rank() != 4) return "the input is not 4-D";
    // A 1x1 window is a copy XNNPACK's pooling refuses; upstream makes it a clamp when the
    // stride is 1 and refuses it otherwise (VisitAveragePool2DNode, VisitMaxPool2DNode).
    if (options.filter_h == 1 && options.filter_w == 1 &&
        (options.stride_h != 1 || options.stride_w != 1))
      return "1x1 pooling with a stride above 1";
    if (auto reason = CheckPadding(node)) return reason;
    return CheckActivation(node);
  }
  if (op == "MEAN") {
    auto axes = StaticInts(tensors, InputOrAbsent(node, 1));
    if (!axes) return "the axes are not static";
    std::set<int64_t> axis_set;
    for (int64_t a : *axes) axis_set.insert(a < 0 ? a + input.Rank() : a);
    if (input.Rank() != 4 || axis_set != std::set<int64_t>{1, 2})
      return "MEAN other than over height and width of a 4-D tensor is not in libXNNPACK "
             "2022-02-16";
    return std::nullopt;
  }
  if (op == "PAD") {
    auto paddings = StaticInts(tensors, InputOrAbsent(node, 1));
    if (!paddings) return "the paddings are not static";
    if (paddings->size() != 2 * static_cast<size_t>(input.Rank())) return "malformed paddings";
    if (std::any_of(paddings->begin(), paddings->end(), [](int64_t p) { return p < 0; }))
      return "negative paddings";
    return std::nullopt;
  }
  if (op == "RESIZE_BILINEAR" || op == "DEPTH_TO_SPACE" || op == "PRELU") {
    if (input.Rank() != 4 || output.Rank() != 4) return "the input is not 4-D";
    if (op == "DEPTH_TO_SPACE" && (input.Dim(1) <= 0 || output.Dim(1) % input.Dim(1) != 0))
      return "malformed block size";
    if (op == "PRELU") {
      const int32_t slope = InputOrAbsent(node, 1);
      if (slope < 0 || !tensors.IsStatic(slope)) return "the slope is not static";
      if (tensors.Tensor(slope).NumElements() != input.Dim(3))
        return "a slope that is not one per channel is not in libXNNPACK 2022-02-16";
    }
    return std::nullopt;
  }
  if (op == "SOFTMAX" && options.beta != 1.0f)
    return "SOFTMAX with beta other than 1 is not in libXNNPACK 2022-02-16";
  return std::nullopt;
}

// Ops whose 8-bit quantized form this mapping offers libXNNPACK (QS8 and QU8; the library
// refuses the combinations its 2022 version lacks when the node is defined).
bool IsQuantizedCandidate(const std::string& op) {
  static const std::set<std::string> kOps = {"CONV_2D",
                                             "DEPTHWISE_CONV_2D",
                                             "FULLY_CONNECTED",
                                             "ADD",
                                             "SUB",
                                             "MUL",
                                             "MAX_POOL_2D",
                                             "PAD",
                                             "RESHAPE",
                                             "MEAN",
                                             "LOGISTIC"};
  return kOps.count(op) > 0;
}

bool Is8Bit(TensorType type) { return type == TensorType::kInt8 || type == TensorType::kUInt8; }

// Float32 throughout, or 8-bit quantized throughout: per-tensor activations, static filters
// per-tensor or per-channel, static int32 biases.
std::optional<std::string> CheckTypes(const Node& node, const std::vector<int32_t>& data,
                                      const XnnpackTensorView& tensors) {
  const TensorType kind = tensors.Tensor(node.inputs[0]).type;
  if (kind == TensorType::kFloat32) {
    for (int32_t t : data) {
      if (t >= 0 && tensors.Tensor(t).type != TensorType::kFloat32)
        return std::string(TensorTypeName(tensors.Tensor(t).type)) + " tensors among float32 ones";
    }
    return std::nullopt;
  }
  if (!Is8Bit(kind))
    return std::string(TensorTypeName(kind)) + " tensors: this delegate maps float32 and 8-bit";
  if (!IsQuantizedCandidate(node.op)) return "quantized " + node.op + " is not mapped";
  for (int32_t t : data) {
    if (t < 0) continue;
    const RuntimeTensor& tensor = tensors.Tensor(t);
    const Quantization* q = tensor.quantization;
    const bool is_static = tensors.IsStatic(t);
    if (tensor.type != kind && !(tensor.type == TensorType::kInt32 && is_static))
      return "mixed tensor types";
    if (!q || q->scale.empty() || q->blockwise) return "a tensor without quantization";
    if (q->per_channel() && !is_static) return "per-channel quantized activations";
    if (q->per_channel() &&
        (q->quantized_dimension < 0 || q->quantized_dimension >= tensor.Rank() ||
         q->scale.size() != static_cast<size_t>(tensor.Dim(q->quantized_dimension))))
      return "malformed per-channel quantization";
  }
  return std::nullopt;
}

std::vector<size_t> Dims(const RuntimeTensor& tensor) {
  return std::vector<size_t>(tensor.shape.begin(), tensor.shape.end());
}

Status Checked(xnn_status status, const Node& node) {
  if (status == xnn_status_success) return Status::Ok();
  return Status::Error("libXNNPACK refused the " + node.op + " node: " + XnnpackStatusName(status));
}

// The TensorFlow SAME padding flag for convolutions and pooling (upstream passes it rather than
// explicit padding, so XNNPACK computes the padding itself as TensorFlow does).
uint32_t PaddingFlags(const Node& node) {
  return node.options->padding == Padding::kSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
}

}  // namespace

std::optional<std::string> XnnpackCannotRun(const Node& node, const XnnpackTensorView& tensors) {
  if (InLibraryNotMapped().count(node.op)) {
    return "libXNNPACK 2022-02-16 has a node for it, not mapped by this delegate";
  }
  if (!IsMapped(node.op) || node.kind != NodeKind::kBuiltin) return std::string(kNotInLibrary);
  if (node.inputs.empty() || node.inputs[0] < 0 || node.outputs.size() != 1)
    return "unexpected arity";
  const size_t data_inputs = std::min(DataInputCount(node), node.inputs.size());
  std::vector<int32_t> data(node.inputs.begin(),
                            node.inputs.begin() + static_cast<long>(data_inputs));
  data.push_back(node.outputs[0]);
  for (int32_t t : data) {
    if (t >= 0 && tensors.Tensor(t).Rank() > XNN_MAX_TENSOR_DIMS) return "more than 6 dimensions";
  }
  if (auto reason = CheckTypes(node, data, tensors)) return reason;
  return CheckOp(node, tensors);
}

Status DefineXnnpackNode(xnn_subgraph_t subgraph, const Node& node, XnnpackTensors& tensors) {
  const std::string& op = node.op;
  const OpOptions& options = *node.options;
  auto input = tensors.Value(node.inputs[0]);
  if (!input.ok()) return input.status();
  const RuntimeTensor& in = tensors.Tensor(node.inputs[0]);
  const RuntimeTensor& out = tensors.Tensor(node.outputs[0]);
  // MEAN's output may be [N, C]; global average pooling names it [N, 1, 1, C] (same bytes).
  auto output = op == "MEAN"
                    ? tensors.ValueWithDims(node.outputs[0], {static_cast<size_t>(in.Dim(0)), 1, 1,
                                                              static_cast<size_t>(in.Dim(3))})
                    : tensors.Value(node.outputs[0]);
  if (!output.ok()) return output.status();
  const auto range =
      OutputRange(options.fused_activation).value_or(std::pair{-kInfinity, kInfinity});
  const auto [min, max] = range;

  if (op == "CONV_2D" || op == "DEPTHWISE_CONV_2D" || op == "FULLY_CONNECTED") {
    const RuntimeTensor& filter = tensors.Tensor(node.inputs[1]);
    auto filter_value = tensors.Value(node.inputs[1]);
    if (!filter_value.ok()) return filter_value.status();
    const int32_t bias = InputOrAbsent(node, 2);
    const size_t output_channels =
        static_cast<size_t>(op == "DEPTHWISE_CONV_2D" ? filter.Dim(3) : filter.Dim(0));
    auto bias_value = bias >= 0 ? tensors.Value(bias) : Result<uint32_t>(XNN_INVALID_VALUE_ID);
    if (!bias_value.ok()) return bias_value.status();
    if (op == "FULLY_CONNECTED") {
      const uint32_t flags = options.keep_num_dims ? 0 : XNN_FLAG_TENSORFLOW_RESHAPE_2D;
      return Checked(xnn_define_fully_connected(subgraph, min, max, *input, *filter_value,
                                                *bias_value, *output, flags),
                     node);
    }
    const auto kernel_h = static_cast<uint32_t>(filter.Dim(1));
    const auto kernel_w = static_cast<uint32_t>(filter.Dim(2));
    const auto stride_h = static_cast<uint32_t>(options.stride_h);
    const auto stride_w = static_cast<uint32_t>(options.stride_w);
    const auto dilation_h = static_cast<uint32_t>(options.dilation_h);
    const auto dilation_w = static_cast<uint32_t>(options.dilation_w);
    const auto input_channels = static_cast<size_t>(in.Dim(3));
    if (op == "DEPTHWISE_CONV_2D") {
      return Checked(
          xnn_define_depthwise_convolution_2d(
              subgraph, 0, 0, 0, 0, kernel_h, kernel_w, stride_h, stride_w, dilation_h, dilation_w,
              static_cast<uint32_t>(output_channels / input_channels), input_channels, min, max,
              *input, *filter_value, *bias_value, *output, PaddingFlags(node)),
          node);
    }
    const auto group_input_channels = static_cast<size_t>(filter.Dim(3));
    const auto groups = static_cast<uint32_t>(input_channels / group_input_channels);
    return Checked(xnn_define_convolution_2d(
                       subgraph, 0, 0, 0, 0, kernel_h, kernel_w, stride_h, stride_w, dilation_h,
                       dilation_w, groups, group_input_channels, output_channels / groups, min, max,
                       *input, *filter_value, *bias_value, *output, PaddingFlags(node)),
                   node);
  }
  if (IsArithmetic(op) || IsMinMax(op) || op == "PRELU") {
    const int32_t second = node.inputs[1];
    // PRELU's slope may be [1, 1, C]; XNNPACK names it [C].
    auto other = op == "PRELU" ? tensors.ValueWithDims(second, {static_cast<size_t>(in.Dim(3))})
                               : tensors.Value(second);
    if (!other.ok()) return other.status();
    xnn_status status = xnn_status_success;
    if (op == "ADD") status = xnn_define_add2(subgraph, min, max, *input, *other, *output, 0);
    if (op == "SUB") status = xnn_define_subtract(subgraph, min, max, *input, *other, *output, 0);
    if (op == "MUL") status = xnn_define_multiply2(subgraph, min, max, *input, *other, *output, 0);
    if (op == "DIV") status = xnn_define_divide(subgraph, min, max, *input, *other, *output, 0);
    if (op == "MAXIMUM") status = xnn_define_maximum2(subgraph, *input, *other, *output, 0);
    if (op == "MINIMUM") status = xnn_define_minimum2(subgraph, *input, *other, *output, 0);
    if (op == "SQUARED_DIFFERENCE")
      status = xnn_define_squared_difference(subgraph, *input, *other, *output, 0);
    if (op == "PRELU") status = xnn_define_prelu(subgraph, *input, *other, *output, 0);
    return Checked(status, node);
  }
  if (op == "AVERAGE_POOL_2D" || op == "MAX_POOL_2D") {
    if (options.filter_h == 1 && options.filter_w == 1)
      return Checked(xnn_define_clamp(subgraph, min, max, *input, *output, 0), node);
    const auto pool_h = static_cast<uint32_t>(options.filter_h);
    const auto pool_w = static_cast<uint32_t>(options.filter_w);
    const auto stride_h = static_cast<uint32_t>(options.stride_h);
    const auto stride_w = static_cast<uint32_t>(options.stride_w);
    if (op == "AVERAGE_POOL_2D") {
      return Checked(
          xnn_define_average_pooling_2d(subgraph, 0, 0, 0, 0, pool_h, pool_w, stride_h, stride_w,
                                        min, max, *input, *output, PaddingFlags(node)),
          node);
    }
    return Checked(
        xnn_define_max_pooling_2d(subgraph, 0, 0, 0, 0, pool_h, pool_w, stride_h, stride_w, 1, 1,
                                  min, max, *input, *output, PaddingFlags(node)),
        node);
  }
  if (op == "MEAN") {
    return Checked(
        xnn_define_global_average_pooling_2d(subgraph, -kInfinity, kInfinity, *input, *output, 0),
        node);
  }
  if (op == "PAD") {
    const auto paddings = StaticInts(tensors, node.inputs[1]).value_or(std::vector<int64_t>{});
    std::vector<size_t> pre, post;
    for (size_t d = 0; d < static_cast<size_t>(in.Rank()); ++d) {
      pre.push_back(static_cast<size_t>(paddings[2 * d]));
      post.push_back(static_cast<size_t>(paddings[2 * d + 1]));
    }
    return Checked(
        xnn_define_static_constant_pad(subgraph, pre.data(), post.data(), 0.0f, *input, *output, 0),
        node);
  }
  if (IsReshape(op)) {
    const std::vector<size_t> shape = Dims(out);
    return Checked(
        xnn_define_static_reshape(subgraph, shape.size(), shape.data(), *input, *output, 0), node);
  }
  if (op == "RESIZE_BILINEAR") {
    // Neither align_corners nor half_pixel_centers is TensorFlow's legacy sampling
    // (upstream: VisitResizeBilinearNode).
    const uint32_t flags = options.align_corners         ? XNN_FLAG_ALIGN_CORNERS
                           : !options.half_pixel_centers ? XNN_FLAG_TENSORFLOW_LEGACY_MODE
                                                         : 0;
    return Checked(xnn_define_static_resize_bilinear_2d(subgraph, static_cast<size_t>(out.Dim(1)),
                                                        static_cast<size_t>(out.Dim(2)), *input,
                                                        *output, flags),
                   node);
  }
  if (op == "DEPTH_TO_SPACE") {
    const auto block = static_cast<uint32_t>(out.Dim(1) / in.Dim(1));
    return Checked(xnn_define_depth_to_space(subgraph, *input, *output, block, 0), node);
  }
  if (auto clamp = ClampRange(op))
    return Checked(xnn_define_clamp(subgraph, clamp->first, clamp->second, *input, *output, 0),
                   node);
  xnn_status status = xnn_status_invalid_parameter;
  if (op == "LEAKY_RELU")
    status = xnn_define_leaky_relu(subgraph, options.alpha, *input, *output, 0);
  if (op == "ELU") status = xnn_define_elu(subgraph, 1.0f, *input, *output, 0);
  if (op == "SOFTMAX") status = xnn_define_softmax(subgraph, *input, *output, 0);
  if (op == "HARD_SWISH") status = xnn_define_hardswish(subgraph, *input, *output, 0);
  if (op == "LOGISTIC") status = xnn_define_sigmoid(subgraph, *input, *output, 0);
  if (op == "ABS") status = xnn_define_abs(subgraph, *input, *output, 0);
  if (op == "CEIL") status = xnn_define_ceiling(subgraph, *input, *output, 0);
  if (op == "FLOOR") status = xnn_define_floor(subgraph, *input, *output, 0);
  if (op == "NEG") status = xnn_define_negate(subgraph, *input, *output, 0);
  if (op == "ROUND") status = xnn_define_bankers_rounding(subgraph, *input, *output, 0);
  if (op == "SQUARE") status = xnn_define_square(subgraph, *input, *output, 0);
  if (op == "SQRT") status = xnn_define_square_root(subgraph, *input, *output, 0);
  return Checked(status, node);
}

xnn_status DefineXnnpackValue(xnn_subgraph_t subgraph, const RuntimeTensor& tensor,
                              const std::vector<size_t>& dims, const void* data,
                              uint32_t external_id, uint32_t flags, uint32_t* id) {
  const Quantization* q = tensor.quantization;
  if (tensor.type == TensorType::kFloat32 || !q || q->scale.empty()) {
    return xnn_define_tensor_value(subgraph, xnn_datatype_fp32, dims.size(), dims.data(), data,
                                   external_id, flags, id);
  }
  if (q->per_channel()) {
    const xnn_datatype type =
        tensor.type == TensorType::kInt32 ? xnn_datatype_qcint32 : xnn_datatype_qcint8;
    return xnn_define_channelwise_quantized_tensor_value(
        subgraph, type, q->scale.data(), dims.size(), static_cast<size_t>(q->quantized_dimension),
        dims.data(), data, external_id, flags, id);
  }
  const xnn_datatype type = tensor.type == TensorType::kInt32   ? xnn_datatype_qint32
                            : tensor.type == TensorType::kUInt8 ? xnn_datatype_quint8
                                                                : xnn_datatype_qint8;
  const auto zero_point = static_cast<int32_t>(q->zero_point.empty() ? 0 : q->zero_point[0]);
  return xnn_define_quantized_tensor_value(subgraph, type, zero_point, q->scale[0], dims.size(),
                                           dims.data(), data, external_id, flags, id);
}

std::string XnnpackStatusName(xnn_status status) {
  switch (status) {
    case xnn_status_success:
      return "xnn_status_success";
    case xnn_status_uninitialized:
      return "xnn_status_uninitialized";
    case xnn_status_invalid_parameter:
      return "xnn_status_invalid_parameter";
    case xnn_status_invalid_state:
      return "xnn_status_invalid_state";
    case xnn_status_unsupported_parameter:
      return "xnn_status_unsupported_parameter";
    case xnn_status_unsupported_hardware:
      return "xnn_status_unsupported_hardware";
    case xnn_status_out_of_memory:
      return "xnn_status_out_of_memory";
  }
  return "xnn_status " + std::to_string(static_cast<int>(status));
}

}  // namespace tfa::runtime
