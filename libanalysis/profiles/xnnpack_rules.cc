#include "libanalysis/profiles/xnnpack_rules.h"

#include <string>
#include <unordered_map>

#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/xnnpack_visit.h"

namespace tfa {
namespace xnnpack_visit {
namespace {

// ----- PrepareOpsToDelegate -----

CheckOutcome StaticUnpack(const NodeContext& context) {
  if (IsXnnpackStaticUnpackNode(context.subgraph, context.node)) return CheckOutcome::Accept();
  // A DEQUANTIZE that unpacks nothing static is an ordinary unary node; a DENSIFY has no Visit.
  if (context.node.op == "DEQUANTIZE") return CheckOutcome::Pass();
  return CheckOutcome::Reject(Format("unsupported operator type %s in node #%d",
                                     context.node.op.c_str(), context.node_index));
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
}  // namespace xnnpack_visit

namespace {

using xnnpack_visit::IsAffine;
using xnnpack_visit::IsQuasiStatic;
using xnnpack_visit::kXnnpackChecks;
using xnnpack_visit::VariableValue;

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
      verdict.reason = SharedString();
      supported[static_cast<size_t>(verdict.node)] = true;
      break;
    }
  }
}

}  // namespace tfa
