// XNNPACK visits of the resource-variable ops, with PrepareOpsToDelegate's resource bookkeeping.

#include "libanalysis/profiles/xnnpack_visit.h"

namespace tfa::xnnpack_visit {

namespace {

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

}  // namespace

// The value tensor a READ_VARIABLE / ASSIGN_VARIABLE proxies for its resource, or -1.
int32_t VariableValue(const Node& node) {
  if (node.kind != NodeKind::kBuiltin) return -1;
  if (node.op == "READ_VARIABLE" && !node.outputs.empty()) return node.outputs[0];
  if (node.op == "ASSIGN_VARIABLE" && node.inputs.size() >= 2) return node.inputs[1];
  return -1;
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

}  // namespace tfa::xnnpack_visit
