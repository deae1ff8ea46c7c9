#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa {
namespace {

// The node producing `tensor` among the planned nodes, or nullptr.
const Node* Producer(const Subgraph& subgraph, int32_t tensor) {
  for (int32_t node_index : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[node_index];
    for (int32_t output : node.outputs) {
      if (output == tensor) return &node;
    }
  }
  return nullptr;
}

CheckOutcome StaticUnpack(const NodeContext& context) {
  if (!IsXnnpackStaticUnpackNode(context.subgraph, context.node)) return CheckOutcome::Pass();
  const Tensor* input = context.Input(0);
  if (!input) return CheckOutcome::Reject("no input to unpack");
  if (input->is_constant()) return CheckOutcome::Pass();
  const Node* producer = Producer(context.subgraph, context.inputs[0]);
  const bool quasi_static = producer && producer->kind == NodeKind::kBuiltin &&
                            producer->op == "DENSIFY" && !producer->inputs.empty() &&
                            producer->inputs[0] >= 0 &&
                            context.subgraph.tensors[producer->inputs[0]].is_constant();
  if (quasi_static) return CheckOutcome::Pass();
  return CheckOutcome::Reject(context.node.op + " of non-static data");
}

constexpr NamedRuleCheck kXnnpackChecks[] = {
    {"xnnpack_static_unpack", StaticUnpack},
};

}  // namespace

std::span<const NamedRuleCheck> XnnpackRuleChecks() { return kXnnpackChecks; }

bool IsXnnpackStaticUnpackNode(const Subgraph& subgraph, const Node& node) {
  if (node.kind != NodeKind::kBuiltin || node.inputs.empty() || node.inputs[0] < 0) return false;
  if (node.op == "DENSIFY") return true;
  return node.op == "DEQUANTIZE" && subgraph.tensors[node.inputs[0]].type == TensorType::kFloat16;
}

}  // namespace tfa
