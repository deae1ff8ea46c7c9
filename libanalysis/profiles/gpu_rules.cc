#include "libanalysis/profiles/gpu_rules.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {
namespace {

// What upstream's OpSignature records of one input or output: absent optional inputs keep
// kTfLiteNoType, are neither constant nor runtime inputs and have no dims.
struct TensorSpec {
  int32_t index = -1;  // the tensor, for the reason's detail
  bool present = false;
  TensorType type = TensorType::kFloat32;
  bool is_const = false;
  std::vector<int32_t> dims;
};

// Why a node is unsupported: upstream's words, and ours where those do not name the tensor or
// value objected to (CheckOutcome::detail).
struct Rejection {
  // Implicit: most checks reject in upstream's words alone (`return std::string("...")`).
  Rejection(std::string text) : reason(std::move(text)) {}  // NOLINT(google-explicit-constructor)
  Rejection(const char* text) : reason(text) {}             // NOLINT(google-explicit-constructor)
  Rejection(std::string text, std::string what)
      : reason(std::move(text)), detail(std::move(what)) {}
  std::string reason;
  std::string detail;
};

// A reason when the node is unsupported, nothing when this part of the check passes.
using Reason = std::optional<Rejection>;

struct Signature {
  const NodeContext& context;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;

  const Node& node() const { return context.node; }
  const OpOptions& options() const { return context.node.options; }
  // Upstream's GetOpName: the custom code for custom ops, else the builtin name.
  const std::string& op_name() const { return context.node.op; }
};

std::vector<TensorSpec> Specs(const Subgraph& subgraph, std::span<const int32_t> indices) {
  std::vector<TensorSpec> specs;
  specs.reserve(indices.size());
  for (int32_t index : indices) {
    TensorSpec spec;
    if (index >= 0 && static_cast<size_t>(index) < subgraph.tensors.size()) {
      const Tensor& tensor = subgraph.tensors[index];
      spec.index = index;
      spec.present = true;
      spec.type = tensor.type;
      spec.is_const = tensor.is_constant();
      spec.dims.assign(tensor.shape.begin(), tensor.shape.end());
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

// TfLiteTypeGetName: upper-case type names ("FLOAT32").
std::string UpstreamTypeName(TensorType type) {
  std::string name = TensorTypeName(type);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string JoinDims(std::span<const int32_t> dims) {
  std::string out;
  // Appended piece by piece: GCC 12's -Wrestrict misfires on a literal + std::string temporary
  // at -O3 (GCC bug 105329), which Release builds make an error.
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(dims[i]);
  }
  return out;
}

// "input 1 (tensor 57, int32)", or with `with_shape` "input 1 (tensor 57, int32 [2,3])".
std::string TensorLabel(const char* side, size_t position, const TensorSpec& spec,
                        bool with_shape = false) {
  std::string label = side;
  label.append(" ").append(std::to_string(position));
  if (!spec.present) return label.append(" (absent)");
  label.append(" (tensor ").append(std::to_string(spec.index)).append(", ");
  label.append(TensorTypeName(spec.type));
  if (with_shape) label.append(" [").append(JoinDims(spec.dims)).append("]");
  return label.append(")");
}

std::string InputLabel(const std::vector<TensorSpec>& inputs, size_t position,
                       bool with_shape = false) {
  if (position >= inputs.size()) {
    return std::string("input ").append(std::to_string(position)).append(" (absent)");
  }
  return TensorLabel("input", position, inputs[position], with_shape);
}

// "runtime inputs: 0 (tensor 3), 2 (tensor 9)": which inputs upstream counted as runtime (non-
// constant) ones, when their number is what it objects to.
std::string RuntimeInputsDetail(const std::vector<TensorSpec>& inputs) {
  std::string detail = "runtime inputs:";
  bool any = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].present || inputs[i].is_const) continue;
    detail.append(any ? ", " : " ").append(std::to_string(i)).append(" (tensor ");
    detail.append(std::to_string(inputs[i].index)).append(")");
    any = true;
  }
  return any ? detail : detail.append(" none");
}

// The product of `dims` through the checked math; none for a negative (unknown) dimension or a
// product past int64, which no real tensor has and which then matches no expected count.
std::optional<int64_t> NumElements(std::span<const int32_t> dims) {
  uint64_t count = 1;
  for (int32_t d : dims) {
    if (d < 0) return std::nullopt;
    const std::optional<uint64_t> product = CheckedMul(count, static_cast<uint64_t>(d));
    if (!product || *product > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return std::nullopt;
    }
    count = *product;
  }
  return static_cast<int64_t>(count);
}

int RuntimeInputs(const Signature& sig) {
  return static_cast<int>(
      std::count_if(sig.inputs.begin(), sig.inputs.end(),
                    [](const TensorSpec& s) { return s.present && !s.is_const; }));
}

Reason CheckInputsOutputs(const Signature& sig, int runtime_inputs, int outputs) {
  const int have_runtime = RuntimeInputs(sig);
  if (have_runtime != runtime_inputs) {
    return Rejection("Expected " + std::to_string(runtime_inputs) +
                         " runtime input tensor(s), but node has " + std::to_string(have_runtime) +
                         " runtime input(s).",
                     RuntimeInputsDetail(sig.inputs));
  }
  const int have_outputs = static_cast<int>(sig.outputs.size());
  if (have_outputs != outputs) {
    return "Expected " + std::to_string(outputs) + " output tensor(s), but node has " +
           std::to_string(have_outputs) + " output(s).";
  }
  return std::nullopt;
}

Reason CheckInputsConstsOutputs(const Signature& sig, int runtime_inputs, int const_inputs,
                                int outputs) {
  const int have_const = static_cast<int>(std::count_if(
      sig.inputs.begin(), sig.inputs.end(), [](const TensorSpec& s) { return s.is_const; }));
  if (have_const != const_inputs) {
    return "Expected " + std::to_string(const_inputs) + " const input tensor(s), but node has " +
           std::to_string(have_const) + " const input(s).";
  }
  return CheckInputsOutputs(sig, runtime_inputs, outputs);
}

Reason CheckTensorIsAvailable(const Signature& sig, size_t position) {
  if (position >= sig.inputs.size()) {
    return "Requested index goes beyond array size: " + std::to_string(position) + " vs " +
           std::to_string(sig.inputs.size());
  }
  return std::nullopt;
}

Reason CheckConvolutionInputOutput(const Signature& sig) {
  const int runtime_inputs = RuntimeInputs(sig);
  if (runtime_inputs > 2) {
    return "Expected 1 or 2 input tensor(s), but node has " + std::to_string(runtime_inputs) +
           " runtime inputs.";
  }
  if (sig.outputs.size() != 1) {
    return "Expected 1 output tensor(s), but node has " + std::to_string(sig.outputs.size()) +
           " runtime outputs.";
  }
  if (runtime_inputs == 1) return CheckTensorIsAvailable(sig, 1);
  return std::nullopt;
}

Reason CheckStrides(int32_t h, int32_t w) {
  if (h <= 0 || w <= 0) {
    return "Incorrect stride values: stride_height = " + std::to_string(h) +
           ", stride_width = " + std::to_string(w);
  }
  return std::nullopt;
}

Reason CheckDilation(int32_t h, int32_t w) {
  if (h <= 0 || w <= 0) {
    return "Incorrect dilation values: dilation_height = " + std::to_string(h) +
           ", dilation_width = " + std::to_string(w);
  }
  return std::nullopt;
}

Reason CheckKernels(int32_t h, int32_t w) {
  if (h <= 0 || w <= 0) {
    return "Incorrect kernel values: kernel_height = " + std::to_string(h) +
           ", kernel_width = " + std::to_string(w);
  }
  return std::nullopt;
}

Reason CheckActivation(Activation activation) {
  // Upstream accepts every fused activation but SIGN_BIT; values the schema does not know
  // were read as NONE.
  if (activation == Activation::kSignBit) return "TfLiteFusedActivation.kTfLiteActSignBit";
  return std::nullopt;
}

Reason CheckAxesAreInt32Const(const Signature& sig, size_t position) {
  const bool present = position < sig.inputs.size();
  if (!present || !sig.inputs[position].is_const) {
    return sig.op_name() + " is only supported with constant axes.";
  }
  if (sig.inputs[position].type != TensorType::kInt32) {
    return sig.op_name() + " supports int32 tensor for axes. But node has " +
           UpstreamTypeName(sig.inputs[position].type);
  }
  return std::nullopt;
}

// TfLiteFusedActivation's number, as upstream prints it (the schema's values that kUnknown stands
// for were read as NONE).
int ActivationNumber(Activation activation) {
  return activation == Activation::kUnknown ? 0 : static_cast<int>(activation);
}

// The full kernel (the 20- or 24-input cell with optional CIFG, peephole, projection and layer
// normalisation) and the basic kernel (a fused concat + FC + cell of 5 inputs and 4 outputs).
// The schema cannot express a sigmoid activation, so the full kernel takes TANH only here.
Reason CheckLstm(const Signature& sig) {
  const OpOptions& o = sig.options();
  const int activation = ActivationNumber(o.fused_activation);
  if (!o.lstm_basic_kernel) {
    const size_t inputs = sig.inputs.size();
    if (inputs != 20 && inputs != 24) {
      return "Expected 20 or 24 input tensors, but node has " + std::to_string(inputs) +
             " input(s).";
    }
    if (sig.outputs.size() != 1) {
      return "Expected 1 output tensor, but node has " + std::to_string(sig.outputs.size()) +
             " output(s).";
    }
    if (o.fused_activation != Activation::kTanh) {
      return "Only sigmoid or tanh activation is supported, but node has " +
             std::to_string(activation);
    }
    return std::nullopt;
  }
  if (Reason r = CheckInputsConstsOutputs(sig, 3, 2, 4)) return r;
  if (o.fused_activation != Activation::kTanh) {
    return "Only TANH activation is supported. but node has " + std::to_string(activation);
  }
  // CheckBasicParameters: the GPU's cell clips nothing.
  if (o.cell_clip != 0.0f) return "cell_clip is not supported.";
  if (o.proj_clip != 0.0f) return "proj_clip is not supported.";
  return std::nullopt;
}

// The first failing check of a sequence.
template <typename... Checks>
Reason FirstFailure(Checks&&... checks) {
  Reason reason;
  ((reason = reason ? reason : checks()), ...);
  return reason;
}

Reason CheckPooling(const Signature& sig) {
  if (Reason r = CheckInputsOutputs(sig, 1, 1)) return r;
  const OpOptions& o = sig.options();
  if (Reason r = CheckKernels(o.filter_h, o.filter_w)) return r;
  if (Reason r = CheckStrides(o.stride_h, o.stride_w)) return r;
  return CheckActivation(o.fused_activation);
}

Reason CheckDepthwiseConv(const Signature& sig) {
  const OpOptions& o = sig.options();
  if (Reason r = CheckConvolutionInputOutput(sig)) return r;
  if (Reason r = CheckStrides(o.stride_h, o.stride_w)) return r;
  if (Reason r = CheckDilation(o.dilation_h, o.dilation_w)) return r;
  if (Reason r = CheckActivation(o.fused_activation)) return r;
  if (sig.inputs.size() < 2) return Rejection("filter.dims.size != 4", "no input 1 (filter)");
  const TensorSpec& input = sig.inputs[0];
  const TensorSpec& filter = sig.inputs[1];
  const TensorSpec& output = sig.outputs[0];
  // Upstream names the shapes it compares by role; the detail gives them.
  std::string shapes = TensorLabel("input", 0, input, true);
  shapes.append(", filter ").append(TensorLabel("input", 1, filter, true));
  shapes.append(", ").append(TensorLabel("output", 0, output, true));
  if (o.depth_multiplier != 1) {
    shapes.append(", depth_multiplier ").append(std::to_string(o.depth_multiplier));
  }
  if (input.dims.size() != 4) return Rejection("input.dims.size != 4", shapes);
  if (filter.dims.size() != 4) return Rejection("filter.dims.size != 4", shapes);
  if (output.dims.size() != 4) return Rejection("output.dims.size != 4", shapes);
  if (input.dims[0] != output.dims[0]) return Rejection("input.b != output.b", shapes);
  const int64_t output_depth = output.dims[3];
  if (filter.dims[3] != output_depth) return Rejection("filter.i != output.c", shapes);
  if (output_depth != int64_t{input.dims[3]} * o.depth_multiplier) {
    return Rejection("output.c != input.c * depth_multiplier", shapes);
  }
  // An absent optional bias has no dims: one element, as upstream counts it.
  if (sig.inputs.size() > 2 && NumElements(sig.inputs[2].dims) != output_depth) {
    shapes.append(", bias ").append(InputLabel(sig.inputs, 2, true));
    return Rejection("bias.size != output.c", shapes);
  }
  return std::nullopt;
}

// CheckAddMulBroadcastCompatibility with the standard (not enhanced) broadcast flags.
Reason CheckBroadcast(const TensorSpec& input0, const TensorSpec& input1) {
  const std::vector<int32_t>& a = input0.dims;
  const std::vector<int32_t>& b = input1.dims;
  if (a.size() <= 1 || b.size() <= 1 || a.size() == b.size()) return std::nullopt;
  const std::vector<int32_t>& longer = a.size() >= b.size() ? a : b;
  const std::vector<int32_t>& shorter = a.size() >= b.size() ? b : a;
  const bool broadcastable = (longer.size() == 4 && shorter.size() == 3 && longer[0] == 1) ||
                             (longer.size() == 4 && shorter.size() == 2 && longer[0] == 1 &&
                              shorter[0] == 1 && shorter[1] == 1) ||
                             (longer.size() == 4 && shorter.size() == 2 &&
                              longer[0] == shorter[0] && longer[3] == shorter[1]);
  if (broadcastable) return std::nullopt;
  std::string reason = "Doesn't support broadcasting - input0: [";
  reason.append(JoinDims(a)).append("], input1: [").append(JoinDims(b)).append("]");
  std::string detail = TensorLabel("input", 0, input0);
  detail.append(", ").append(TensorLabel("input", 1, input1));
  return Rejection(std::move(reason), std::move(detail));
}

Reason CheckPad(const Signature& sig) {
  if (sig.node().op == "MIRROR_PAD" && sig.options().mirror_pad_mode != 0) {
    // TfLiteMirrorPaddingMode counts from 1 (REFLECT), the schema from 0.
    return "Only Reflective padding is supported for Mirror Pad operation. But node has " +
           std::to_string(sig.options().mirror_pad_mode + 1);
  }
  if (Reason r = CheckInputsOutputs(sig, 1, 1)) return r;
  if (Reason r = CheckTensorIsAvailable(sig, 1)) return r;
  const std::vector<int32_t>& pad = sig.inputs[1].dims;
  if (pad.size() != 2) {
    return Rejection("Invalid paddings tensor dimension: expected 2 dim, got " +
                         std::to_string(pad.size()) + " dim",
                     InputLabel(sig.inputs, 1, true));
  }
  if ((pad[0] != 3 && pad[0] != 4) || pad[1] != 2) {
    return Rejection("Invalid paddings tensor shape: expected 4x2 or 3x2, got " +
                         std::to_string(pad[0]) + "x" + std::to_string(pad[1]),
                     InputLabel(sig.inputs, 1, true));
  }
  return std::nullopt;
}

Reason CheckCast(const Signature& sig) {
  if (Reason r = CheckInputsOutputs(sig, 1, 1)) return r;
  const TensorType in = sig.inputs[0].type;
  const TensorType out = sig.outputs[0].type;
  const auto is_float = [](TensorType t) {
    return t == TensorType::kFloat16 || t == TensorType::kFloat32;
  };
  const auto is_f32_or_i32 = [](TensorType t) {
    return t == TensorType::kFloat32 || t == TensorType::kInt32;
  };
  if ((in == TensorType::kBool && is_float(out)) || (is_float(in) && out == TensorType::kBool) ||
      (is_f32_or_i32(in) && is_f32_or_i32(out))) {
    return std::nullopt;
  }
  std::string detail = InputLabel(sig.inputs, 0);
  detail.append(", ").append(TensorLabel("output", 0, sig.outputs[0]));
  return Rejection("Not supported Cast case. Input type: " + UpstreamTypeName(in) +
                       " and output type: " + UpstreamTypeName(out),
                   std::move(detail));
}

Reason CheckSelectV2(const Signature& sig) {
  if (sig.inputs.size() != 3 || sig.outputs.size() != 1) {
    return std::string("Expected 3 inputs and 1 output");
  }
  const std::string error =
      "Cond must be float or bool type, if, else tensors must be either be same the shape as "
      "output or constant, scalar.";
  const TensorType cond = sig.inputs[0].type;
  if (cond != TensorType::kBool && cond != TensorType::kFloat16 && cond != TensorType::kFloat32) {
    return Rejection(error, InputLabel(sig.inputs, 0).append(" is the condition"));
  }
  const std::vector<int32_t>& out = sig.outputs[0].dims;
  for (size_t i = 1; i <= 2; ++i) {
    const TensorSpec& t = sig.inputs[i];
    if (!t.dims.empty() && t.dims != out && (t.dims.size() > 1 || t.dims[0] > 1)) {
      std::string detail = InputLabel(sig.inputs, i, true);
      detail.append(", ").append(TensorLabel("output", 0, sig.outputs[0], true));
      return Rejection(error, std::move(detail));
    }
    // Upstream's words say the opposite of its test, which refuses a constant 2-D tensor.
    if (t.is_const && t.dims.size() == 2) {
      return Rejection(i == 1 ? "2-D if tensor only supported if constant."
                              : "2-D else tensor only supported if constant.",
                       InputLabel(sig.inputs, i, true).append(" is constant"));
    }
  }
  return std::nullopt;
}

Reason CheckCumsum(const Signature& sig) {
  if (sig.inputs.size() != 2) return std::string("Expects 2 inputs and 1 output");
  const TensorType in = sig.inputs[0].type;
  if ((in != TensorType::kFloat16 && in != TensorType::kFloat32) || sig.outputs.empty() ||
      sig.outputs[0].type != in || sig.inputs[1].type != TensorType::kInt32 ||
      !sig.inputs[1].is_const) {
    std::string detail = InputLabel(sig.inputs, 0);
    detail.append(", ").append(InputLabel(sig.inputs, 1));
    if (!sig.inputs[1].is_const) detail.append(" not constant");
    if (!sig.outputs.empty()) detail.append(", ").append(TensorLabel("output", 0, sig.outputs[0]));
    return Rejection("Input/output must be float type and indices must be constant int32 type",
                     std::move(detail));
  }
  return std::nullopt;
}

Reason CheckOneHot(const Signature& sig) {
  if (sig.inputs.size() != 4 && sig.outputs.size() != 1) {
    return std::string("Expects 4 inputs and 1 output");
  }
  const std::string error =
      "Indices must be int32 type, on/off tensors must be constant, scalar, float type, axis must "
      "be -1 or last dim";
  if (sig.inputs.size() < 4 || sig.inputs[0].type != TensorType::kInt32) {
    return Rejection(error, InputLabel(sig.inputs, 0).append(" holds the indices"));
  }
  const std::vector<int32_t>& dims = sig.inputs[0].dims;
  const int num_dims = static_cast<int>(dims.size());
  if (sig.options().axis != -1 && (num_dims == 0 || sig.options().axis != dims[num_dims - 1])) {
    return Rejection(error, "axis " + std::to_string(sig.options().axis));
  }
  for (int i = 0; i < num_dims - 1; ++i) {
    if (num_dims > 3 && i == 0) continue;
    if (dims[i] != 1) return "Unspported non-singleton dim at " + std::to_string(i);
  }
  for (size_t i = 2; i <= 3; ++i) {
    const TensorSpec& t = sig.inputs[i];
    if (t.type != TensorType::kFloat32 || !t.is_const || t.dims.size() > 1 ||
        (!t.dims.empty() && t.dims[0] > 1)) {
      return Rejection(error, InputLabel(sig.inputs, i, true)
                                  .append(t.is_const ? " is an on/off value" : " is not constant"));
    }
  }
  return std::nullopt;
}

Reason CheckCustom(const Signature& sig) {
  const std::string& name = sig.node().op;
  const bool has_options = sig.options().custom_options_size > 0;
  if (name == "Convolution2DTransposeBias") {
    if (Reason r = CheckTensorIsAvailable(sig, 1)) return r;
    if (!has_options) return std::string("Unable to retrieve custom_initial_data.");
    return std::nullopt;  // strides live in the option bytes
  }
  if (name == "MaxPoolingWithArgmax2D") {
    // Without option bytes upstream looks for builtin options, which custom ops never have.
    if (!has_options) return std::string("Unable to retrieve builtin_data.");
    return CheckInputsOutputs(sig, 1, 2);  // window, strides, activation: in the option bytes
  }
  if (name == "MaxUnpooling2D") {
    if (Reason r = CheckInputsOutputs(sig, 2, 1)) return r;
    if (!has_options) return std::string("Unable to retrieve custom_initial_data.");
    return std::nullopt;
  }
  if (name == "Resampler") return CheckInputsOutputs(sig, 2, 1);
  return "Not supported custom op " + name;
}

bool IsOneOf(const std::string& op, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&op](const char* n) { return op == n; });
}

// CheckGpuDelegateCompatibility of tflite/tools/versioning/gpu_compatibility.cc.
Reason CheckCompatibility(const Signature& sig) {
  if (sig.node().kind == NodeKind::kCustom) return CheckCustom(sig);
  const std::string& op = sig.node().op;
  const OpOptions& o = sig.options();
  const size_t n_in = sig.inputs.size();
  const size_t n_out = sig.outputs.size();

  if (op == "ADD") {
    if (n_in != 2) return std::string("ADD requires two input tensors.");
    return CheckBroadcast(sig.inputs[0], sig.inputs[1]);
  }
  if (op == "ADD_N") {
    if (n_in != 2) return std::string("ADD_N only supports 2 inputs.");
    return std::nullopt;
  }
  if (op == "AVERAGE_POOL_2D" || op == "MAX_POOL_2D") return CheckPooling(sig);
  if (op == "BATCH_MATMUL") {
    if (n_in != 2 || n_out != 1) {
      return "Expected 2 inputs and 1 output, got: " + std::to_string(n_in) + " inputs and " +
             std::to_string(n_out) + " outputs";
    }
    return std::nullopt;
  }
  if (op == "CAST") return CheckCast(sig);
  if (op == "CONCATENATION" || op == "PACK" || op == "RELU_N1_TO_1" || op == "PRELU" ||
      op == "SPLIT" || op == "SPLIT_V" || op == "RELU" || op == "RELU6" || op == "LEAKY_RELU") {
    return std::nullopt;
  }
  if (op == "LSTM") return CheckLstm(sig);
  if (op == "CONV_2D") {
    return FirstFailure([&] { return CheckConvolutionInputOutput(sig); },
                        [&] { return CheckStrides(o.stride_h, o.stride_w); },
                        [&] { return CheckDilation(o.dilation_h, o.dilation_w); },
                        [&] { return CheckActivation(o.fused_activation); });
  }
  if (op == "CUMSUM") return CheckCumsum(sig);
  if (op == "DENSIFY") return CheckInputsOutputs(sig, 0, 1);
  if (op == "DEPTHWISE_CONV_2D") return CheckDepthwiseConv(sig);
  if (op == "DEPTH_TO_SPACE" || op == "SPACE_TO_DEPTH" || op == "HARD_SWISH" || op == "QUANTIZE" ||
      op == "RESHAPE" || op == "TILE" || op == "TRANSPOSE" || op == "RESIZE_NEAREST_NEIGHBOR") {
    return CheckInputsOutputs(sig, 1, 1);
  }
  if (op == "DEQUANTIZE") {
    if (n_in != 1 || n_out != 1) {
      // Upstream passes printf placeholders to absl::StrCat: they appear verbatim.
      return "Expected 1 input & output each from Dequantize, got: %d, %d" + std::to_string(n_in) +
             std::to_string(n_out);
    }
    if (sig.inputs[0].type == TensorType::kInt16) {
      return Rejection("Unsupported dequantization type.", InputLabel(sig.inputs, 0));
    }
    return std::nullopt;
  }
  if (op == "FULLY_CONNECTED") {
    if (o.weights_format != 0) {
      return "Unsupported FullyConnected weights format: " + std::to_string(o.weights_format);
    }
    if (RuntimeInputs(sig) > 2) {
      return std::string("FullyConnected doesn't support more than 2 runtime inputs.");
    }
    if (o.keep_num_dims && n_in > 0 && n_out > 0 &&
        sig.inputs[0].dims.size() != sig.outputs[0].dims.size()) {
      return std::string(
          "Input and output dimensions different and FullyConnected doesn't support "
          "keep_num_dims.");
    }
    return std::nullopt;
  }
  if (op == "GATHER") {
    if (CheckInputsConstsOutputs(sig, 2, 0, 1) && CheckInputsConstsOutputs(sig, 1, 1, 1)) {
      return std::string("Op can only handle 1 or 2 operand(s).");
    }
    // Upstream ends both reasons with a newline (its log lines carry it); reports drop it.
    if (sig.inputs[1].dims.size() != 1) {
      return Rejection("Only support 1D indices\n", InputLabel(sig.inputs, 1, true));
    }
    if (sig.inputs[1].type != TensorType::kInt32) {
      return Rejection("Only accept INT32 indices\n", InputLabel(sig.inputs, 1));
    }
    return std::nullopt;
  }
  if (op == "MEAN") {
    if (Reason r = CheckInputsConstsOutputs(sig, 1, 1, 1)) return r;
    return CheckAxesAreInt32Const(sig, 1);
  }
  if (op == "MUL") {
    if (n_in != 2) return std::string("MUL requires two input tensors.");
    if (sig.inputs[0].dims.size() != sig.inputs[1].dims.size()) {
      if (Reason r = CheckBroadcast(sig.inputs[0], sig.inputs[1])) return r;
    }
    return CheckActivation(o.fused_activation);
  }
  if (op == "ONE_HOT") return CheckOneHot(sig);
  if (op == "SELECT" || op == "SELECT_V2") return CheckSelectV2(sig);
  if (op == "SLICE") {
    if (n_in < 3) {
      return "SLICE requires 3 inputs, but node has " + std::to_string(n_in) + " inputs.";
    }
    const size_t rank = sig.inputs[0].dims.size();
    if (rank != 3 && rank != 4) {
      return Rejection("SLICE supports for 3 or 4 dimensional tensors only, but node has " +
                           std::to_string(rank) + " dimensional tensors.",
                       InputLabel(sig.inputs, 0, true));
    }
    return std::nullopt;
  }
  if (op == "SOFTMAX") {
    if (o.beta != 1.0f) return std::string("Softmax.beta != 1 is not supported.");
    return std::nullopt;
  }
  if (op == "STRIDED_SLICE") {
    if (o.ellipsis_mask) return std::string("Slice does not support ellipsis_mask.");
    if (o.new_axis_mask) return std::string("Slice does not support new_axis_mask.");
    if (o.shrink_axis_mask) {
      return std::string("Slice does not support shrink_axis_mask parameter. ");
    }
    if (n_in < 4) return std::string("STRIDED_SLICE requires 4 inputs.");
    const size_t rank = sig.inputs[0].dims.size();
    if (rank != 3 && rank != 4) {
      return Rejection("STRIDED_SLICE supports for 3 or 4 dimensional tensors only.",
                       InputLabel(sig.inputs, 0, true));
    }
    return std::nullopt;
  }
  if (op == "TOPK_V2") return CheckInputsOutputs(sig, 1, 2);
  if (op == "TRANSPOSE_CONV") {
    if (Reason r = CheckConvolutionInputOutput(sig)) return r;
    return CheckStrides(o.stride_h, o.stride_w);
  }
  if (op == "RESIZE_BILINEAR") {
    if (Reason r = CheckInputsOutputs(sig, 1, 1)) return r;
    if (o.align_corners && o.half_pixel_centers) {
      return std::string("If half_pixel_centers is True, align_corners must be False.");
    }
    return std::nullopt;
  }
  if (IsOneOf(op, {"REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "SUM"})) {
    if (Reason r = CheckInputsOutputs(sig, 1, 1)) return r;
    return CheckAxesAreInt32Const(sig, 1);
  }
  if (op == "PAD" || op == "PADV2" || op == "MIRROR_PAD") return CheckPad(sig);
  if (op == "REVERSE_V2") {
    if (Reason r = CheckInputsConstsOutputs(sig, 1, 1, 1)) return r;
    return CheckAxesAreInt32Const(sig, 1);
  }
  if (IsOneOf(op, {"ABS", "CEIL", "COS", "ELU", "EXP", "FLOOR", "GELU", "LOG", "LOGICAL_NOT",
                   "LOGISTIC", "NEG", "ROUND", "RSQRT", "SIGN", "SIN", "SQRT", "SQUARE", "TANH"})) {
    return CheckInputsConstsOutputs(sig, 1, 0, 1);
  }
  if (IsOneOf(op, {"ATAN2",
                   "DIV",
                   "EQUAL",
                   "FLOOR_DIV",
                   "FLOOR_MOD",
                   "GREATER",
                   "GREATER_EQUAL",
                   "LOGICAL_AND",
                   "LOGICAL_OR",
                   "LESS",
                   "LESS_EQUAL",
                   "MAXIMUM",
                   "MINIMUM",
                   "NOT_EQUAL",
                   "POW",
                   "RIGHT_SHIFT",
                   "STABLEHLO_REMAINDER",
                   "STABLEHLO_SHIFT_LEFT",
                   "SQUARED_DIFFERENCE",
                   "SUB"})) {
    if (CheckInputsConstsOutputs(sig, 2, 0, 1) && CheckInputsConstsOutputs(sig, 1, 1, 1)) {
      return std::string("Op can only handle 1 or 2 operand(s).");
    }
    if (op == "DIV" || op == "SUB") return CheckActivation(o.fused_activation);
    return std::nullopt;
  }
  return "Not supported op " + op;
}

Signature MakeSignature(const NodeContext& context) {
  return Signature{context, Specs(context.subgraph, context.inputs),
                   Specs(context.subgraph, context.node.outputs)};
}

CheckOutcome FromReason(Reason reason) {
  if (!reason) return CheckOutcome::Pass();
  return CheckOutcome::Reject(std::move(reason->reason), std::move(reason->detail));
}

CheckOutcome GpuCompatibility(const NodeContext& context) {
  return FromReason(CheckCompatibility(MakeSignature(context)));
}

// Producers and consumers of `tensor` among the planned nodes, as upstream's GetTensorInfo
// counts them (a node reading the tensor twice counts twice).
struct TensorUse {
  std::vector<int32_t> producers;
  std::vector<int32_t> consumers;
};

TensorUse FindTensorUse(const Subgraph& subgraph, int32_t tensor) {
  TensorUse use;
  for (int32_t node_index : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[node_index];
    for (int32_t input : node.inputs) {
      if (input == tensor) use.consumers.push_back(node_index);
    }
    for (int32_t output : node.outputs) {
      if (output == tensor) use.producers.push_back(node_index);
    }
  }
  return use;
}

bool IsComparison(const Node& node) {
  return node.kind == NodeKind::kBuiltin &&
         IsOneOf(node.op, {"GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL", "EQUAL", "NOT_EQUAL"});
}

bool IsFloatTensor(const Subgraph& subgraph, int32_t tensor) {
  if (tensor < 0 || static_cast<size_t>(tensor) >= subgraph.tensors.size()) return false;
  const TensorType type = subgraph.tensors[tensor].type;
  return type == TensorType::kFloat16 || type == TensorType::kFloat32;
}

// ElementwiseOperationParser::IsSupported for comparisons: the bool result must go to exactly
// one CAST / SELECT / SELECT_V2 whose output is float.
CheckOutcome GpuLogicalOp(const NodeContext& context) {
  if (context.node.outputs.empty()) return CheckOutcome::Reject("Not supported logical op case");
  const TensorUse use = FindTensorUse(context.subgraph, context.node.outputs[0]);
  if (use.producers.size() != 1 || use.consumers.size() != 1) {
    return CheckOutcome::Reject("Not supported logical op case");
  }
  const Node& next = context.subgraph.nodes[use.consumers[0]];
  const bool float_out = !next.outputs.empty() && IsFloatTensor(context.subgraph, next.outputs[0]);
  if (next.kind == NodeKind::kBuiltin && IsOneOf(next.op, {"CAST", "SELECT", "SELECT_V2"}) &&
      float_out) {
    return CheckOutcome::Accept();
  }
  return CheckOutcome::Reject("Not supported logical op case.");
}

// CastOperationParser::IsSupported: bool -> float only right after a comparison; other casts
// fall through to the compatibility check.
CheckOutcome GpuCast(const NodeContext& context) {
  const Tensor* input = context.Input(0);
  if (!input || context.node.outputs.empty() || input->type != TensorType::kBool ||
      !IsFloatTensor(context.subgraph, context.node.outputs[0])) {
    return CheckOutcome::Pass();
  }
  const TensorUse in_use = FindTensorUse(context.subgraph, context.inputs[0]);
  if (in_use.producers.size() != 1 || in_use.consumers.size() != 1) {
    return CheckOutcome::Reject("Not supported cast case");
  }
  const TensorUse out_use = FindTensorUse(context.subgraph, context.node.outputs[0]);
  if (out_use.consumers.size() != 1) {
    return CheckOutcome::Reject("Cast from bool not supported for outputs");
  }
  if (IsComparison(context.subgraph.nodes[in_use.producers[0]])) return CheckOutcome::Accept();
  return CheckOutcome::Pass();
}

// The first of `tensors` the delegate refuses, in words ("input 1 (tensor 57, int32) is not
// float32 or float16"), or nothing when it takes them all.
std::optional<std::string> FirstRefusedTensor(const Subgraph& subgraph,
                                              std::span<const int32_t> tensors,
                                              const std::vector<TensorType>& allowed,
                                              const char* side) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    const int32_t index = tensors[i];
    if (index < 0 || static_cast<size_t>(index) >= subgraph.tensors.size()) continue;
    const Tensor& t = subgraph.tensors[index];
    const TensorSpec spec = Specs(subgraph, tensors.subspan(i, 1))[0];
    if (t.shape.size() >= 5) {
      return TensorLabel(side, i, spec, true)
          .append(" has rank ")
          .append(std::to_string(t.shape.size()))
          .append(", more than 4");
    }
    const bool type_ok = std::find(allowed.begin(), allowed.end(), t.type) != allowed.end();
    if (t.allocation == AllocationType::kArenaRw && !type_ok) {
      std::vector<TensorType> types;
      for (TensorType a : allowed) {
        if (std::find(types.begin(), types.end(), a) == types.end()) types.push_back(a);
      }
      std::string words = TensorLabel(side, i, spec).append(" is not ");
      for (size_t k = 0; k < types.size(); ++k) {
        if (k > 0) words.append(k + 1 == types.size() ? " or " : ", ");
        words.append(TensorTypeName(types[k]));
      }
      return words;
    }
  }
  return std::nullopt;
}

// GetOpsToReplace's node_supported_fn after IsSupported: non-constant tensors of allowed types
// (quantized 8-bit ones only with allow_quant_ops), no tensor of rank 5 or more.
CheckOutcome GpuAllowedTensors(const NodeContext& context) {
  using T = TensorType;
  std::vector<T> in = {T::kFloat32, T::kFloat16};
  std::vector<T> out = {T::kFloat32, T::kFloat16};
  if (context.profile.OptionEnabled("allow_quant_ops")) {
    in.insert(in.end(), {T::kInt8, T::kUInt8});
    out.insert(out.end(), {T::kInt8, T::kUInt8});
  }
  const Node& node = context.node;
  const bool builtin = node.kind == NodeKind::kBuiltin;
  if (builtin && IsComparison(node)) out.push_back(T::kBool);
  if (builtin && node.op == "CAST") {
    in.insert(in.end(), {T::kBool, T::kFloat32, T::kInt32});
    out.insert(out.end(), {T::kFloat32, T::kInt32, T::kBool});
  }
  if (builtin && (node.op == "ONE_HOT" || node.op == "GATHER")) in.push_back(T::kInt32);
  if (builtin && (node.op == "SELECT" || node.op == "SELECT_V2")) in.push_back(T::kBool);
  if (builtin && node.op == "LOGICAL_AND") {
    in.push_back(T::kBool);
    out.push_back(T::kBool);
  }
  std::optional<std::string> refused =
      FirstRefusedTensor(context.subgraph, context.inputs, in, "input");
  if (!refused) refused = FirstRefusedTensor(context.subgraph, node.outputs, out, "output");
  if (!refused) return CheckOutcome::Pass();
  return CheckOutcome::Reject("OP is supported, but tensor type/shape isn't compatible.",
                              std::move(*refused));
}

constexpr NamedRuleCheck kGpuChecks[] = {
    {"gpu_compatibility", GpuCompatibility},
    {"gpu_logical_op", GpuLogicalOp},
    {"gpu_cast", GpuCast},
    {"gpu_allowed_tensors", GpuAllowedTensors},
};

}  // namespace

std::span<const NamedRuleCheck> GpuRuleChecks() { return kGpuChecks; }

}  // namespace tfa
