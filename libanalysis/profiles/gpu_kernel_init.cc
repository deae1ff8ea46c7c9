#include "libanalysis/profiles/gpu_kernel_init.h"

#include <cstdint>
#include <span>
#include <unordered_set>

namespace tfa {
namespace {

// A reason when the build fails, nothing when this step passes.
using Failure = std::optional<std::string>;

std::string DimensionString(std::span<const int32_t> dims) {
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += "x";
    text += std::to_string(dims[i]);
  }
  return text;
}

// The GPU graph under construction: which tensors already have a value (upstream's
// tensor_to_value map, so a tensor is checked once), over the graph the kernel replaces nodes of.
class GpuGraphBuild {
 public:
  GpuGraphBuild(const Subgraph& graph, bool allow_quant_ops)
      : graph_(graph), allow_quant_ops_(allow_quant_ops) {}

  const Tensor& tensor(int32_t id) const { return graph_.tensors[static_cast<size_t>(id)]; }

  // ObjectReader::ReadNonConstantTensor.
  Failure ReadValue(int32_t id) {
    if (id < 0 || static_cast<size_t>(id) >= graph_.tensors.size()) {
      return "ReadNonConstTensor: input tensor index: " + std::to_string(id);
    }
    if (values_.contains(id)) return std::nullopt;
    const Tensor& t = tensor(id);
    if (t.is_constant()) {
      return "ReadNonConstantTensor: value is a constant tensor: " + std::to_string(id);
    }
    // ConvertTfLiteTensorToTensorRef -> ExtractTensorShape (the float twin of a quantized tensor
    // has the same dimensions).
    if (t.shape.size() < 1 || t.shape.size() > 4) {
      return "Tensor \"" + (t.name.empty() ? std::string("nullptr") : t.name) +
             "\" has bad input dims size: " + std::to_string(t.shape.size()) + ".";
    }
    if ((t.type == TensorType::kInt8 || t.type == TensorType::kUInt8) && allow_quant_ops_) {
      // PopulateQuantParams: affine parameters, one scale.
      const Quantization& q = t.quantization;
      if (q.blockwise || q.scale.empty()) return "Tensor not quantized: " + t.name;
      if (q.scale.size() > 1) return "Non-constant per-channel quantized tensor: " + t.name;
    }
    values_.insert(id);
    return std::nullopt;
  }

  // ObjectReader::ReadTensor of a node input as float data (CreateVectorCopyData, or the sparse
  // format converter), without the shape conversion that follows it.
  Failure ReadFloatData(const Node& node, size_t position) const {
    if (position >= node.inputs.size()) return "Invalid data index found.";
    const int32_t id = node.inputs[position];
    if (id < 0) {
      return "Invalid data index found. Possibly an unset optional tensor is being read.";
    }
    const TensorType type = tensor(id).type;
    if (tensor(id).is_sparse) {
      if (type == TensorType::kFloat32 || type == TensorType::kFloat16) return std::nullopt;
      return "Unexpected data type in sparse tensor";
    }
    switch (type) {
      case TensorType::kFloat32:
      case TensorType::kFloat16:
      case TensorType::kInt8:
      case TensorType::kInt16:
      case TensorType::kUInt8:
      case TensorType::kInt32:
        return std::nullopt;
      default:
        return "Unsupported data type for float32 tensor";
    }
  }

  // Every present non-constant input as a value, in input order.
  Failure ReadRuntimeInputs(const Node& node) {
    for (int32_t id : node.inputs) {
      if (id < 0 || tensor(id).is_constant()) continue;
      if (Failure f = ReadValue(id)) return f;
    }
    return std::nullopt;
  }
  // ObjectReader::AddOutputs.
  Failure ReadOutputs(const Node& node) {
    for (int32_t id : node.outputs) {
      if (Failure f = ReadValue(id)) return f;
    }
    return std::nullopt;
  }

  int RuntimeInputs(const Node& node) const {
    int count = 0;
    for (int32_t id : node.inputs) count += id >= 0 && !tensor(id).is_constant() ? 1 : 0;
    return count;
  }

 private:
  const Subgraph& graph_;
  const bool allow_quant_ops_;
  std::unordered_set<int32_t> values_;
};

// The BHWC channels upstream gives a tensor (ExtractTensorShape): its last dimension,
// 1 for a 1-D tensor (batch only).
int32_t Channels(const Tensor& t) { return t.shape.size() < 2 ? 1 : t.shape.back(); }

// FullyConnectedOperationParser::Parse.
Failure ParseFullyConnected(GpuGraphBuild& build, const Node& node) {
  if (build.RuntimeInputs(node) == 2) {
    // Runtime weights become a CONVOLUTION_2D reading both inputs (ExtractTensorShape of each).
    if (Failure f = build.ReadRuntimeInputs(node)) return f;
    return build.ReadOutputs(node);
  }
  if (node.inputs.empty()) return "Invalid data index found.";
  if (Failure f = build.ReadValue(node.inputs[0])) return f;
  if (node.options->weights_format != 0) return "Unsupported FullyConnected weights format.";
  if (Failure f = build.ReadFloatData(node, 1)) return f;
  const Tensor& weights = build.tensor(node.inputs[1]);
  if (weights.shape.size() != 2) {
    return "Expected a 2D tensor of shape HxW but got " + DimensionString(weights.shape);
  }
  const Tensor& input = build.tensor(node.inputs[0]);
  if (Channels(input) != weights.shape[1])
    return "Amount of input channels should match weights width";
  return build.ReadOutputs(node);
}

// LSTMOperationParser::Parse (model_builder.cc ParseBasic; lstm_parser.cc ParseLSTMAttributes for
// the full kernel), as far as its checks go: the values it reads, in its order, and the shapes it
// refuses. The full kernel's weight reads are not reproduced (IsSupported's type checks cover
// them on real models).
Failure ParseLstm(GpuGraphBuild& build, const Node& node) {
  if (!node.options->lstm_basic_kernel) {
    // The full kernel's cell state (input 19), then output state (input 18).
    constexpr size_t kOutputState = 18, kCellState = 19;
    if (node.inputs.size() <= kCellState) return "Invalid data index found.";
    if (Failure f = build.ReadValue(node.inputs[kCellState])) return f;
    const Tensor& cell_state = build.tensor(node.inputs[kCellState]);
    if (cell_state.shape[0] != 1) return "Batched execution is not supported for LSTM";
    if (Failure f = build.ReadValue(node.inputs[kOutputState])) return f;
    if (Failure f = build.ReadValue(node.inputs[0])) return f;
    return build.ReadOutputs(node);
  }
  if (node.inputs.size() != 5) return "LSTM should have 5 input tensors";
  if (node.outputs.size() != 4) return "LSTM should have 4 output tensors";
  if (Failure f = build.ReadFloatData(node, 2)) return f;
  const Tensor& weights = build.tensor(node.inputs[2]);
  if (weights.shape.size() != 2) {
    return "Expected a 2D tensor of shape HxW but got " + DimensionString(weights.shape);
  }
  if (Failure f = build.ReadValue(node.outputs[2])) return f;  // the concatenation
  if (Failure f = build.ReadValue(node.outputs[3])) return f;  // the gates' activations
  if (Channels(build.tensor(node.outputs[3])) % 4 != 0) {
    return "BasicLSTM activation depth must be a multiple of 4.";
  }
  for (size_t input : {0, 1, 4}) {
    if (Failure f = build.ReadValue(node.inputs[input])) return f;
  }
  if (Failure f = build.ReadValue(node.outputs[1])) return f;
  return build.ReadValue(node.outputs[0]);
}

// The constant input each convolution parser copies as float weights (biases are read with
// their errors ignored).
std::optional<size_t> ConstantWeightsInput(const Node& node) {
  if (node.op == "CONV_2D" || node.op == "DEPTHWISE_CONV_2D" || node.op == "TRANSPOSE_CONV") {
    return 1;
  }
  return std::nullopt;
}

// One parser's Parse, as far as it is reproduced.
Failure ParseNode(GpuGraphBuild& build, const Node& node) {
  if (node.kind == NodeKind::kBuiltin && node.op == "FULLY_CONNECTED") {
    return ParseFullyConnected(build, node);
  }
  if (node.kind == NodeKind::kBuiltin && node.op == "LSTM") return ParseLstm(build, node);
  if (Failure f = build.ReadRuntimeInputs(node)) return f;
  if (Failure f = build.ReadOutputs(node)) return f;
  if (const std::optional<size_t> weights = ConstantWeightsInput(node)) {
    const bool constant = *weights < node.inputs.size() && node.inputs[*weights] >= 0 &&
                          build.tensor(node.inputs[*weights]).is_constant();
    if (constant) return build.ReadFloatData(node, *weights);
  }
  return std::nullopt;
}

// BuildModelEnforceIO skips the fp16 DEQUANTIZE nodes that read a constant.
bool IsConstantFp16Dequantize(const GpuGraphBuild& build, const Node& node) {
  if (node.op != "DEQUANTIZE" || node.inputs.empty() || node.inputs[0] < 0) return false;
  const Tensor& input = build.tensor(node.inputs[0]);
  return input.type == TensorType::kFloat16 && input.is_constant();
}

// GetOpNameByRegistration: the builtin's name; custom ops add their code after "CUSTOM".
std::string OpName(const Node& node) {
  return node.kind == NodeKind::kCustom ? "CUSTOM " + node.op : node.op;
}

}  // namespace

std::optional<std::string> GpuKernelInitError(const Subgraph& graph, const Node& kernel,
                                              bool allow_quant_ops) {
  GpuGraphBuild build(graph, allow_quant_ops);
  for (int32_t id : kernel.inputs) {
    if (id < 0 || build.tensor(id).is_constant()) continue;
    if (Failure f = build.ReadValue(id)) return f;
  }
  for (int32_t id : kernel.outputs) {
    if (id < 0 || build.tensor(id).is_constant()) continue;
    if (Failure f = build.ReadValue(id)) return f;
  }
  for (int32_t index : kernel.replaces) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    if (IsConstantFp16Dequantize(build, node)) continue;
    if (Failure f = ParseNode(build, node)) return OpName(node) + ": " + *f;
  }
  return std::nullopt;
}

}  // namespace tfa
