#include "libanalysis/profiles/flex_ops.h"

namespace tfa {

bool IsFlexOp(const Node& node) {
  return node.kind == NodeKind::kCustom && node.op.starts_with(kFlexCustomCodePrefix);
}

std::vector<ModelNodeRef> FlexNodesOf(const Model& model) {
  std::vector<ModelNodeRef> nodes;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& subgraph = model.subgraphs[s];
    for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
      if (IsFlexOp(subgraph.nodes[n])) {
        nodes.push_back(ModelNodeRef{static_cast<int32_t>(s), static_cast<int32_t>(n)});
      }
    }
  }
  return nodes;
}

std::vector<int32_t> UnresolvedFlexNodes(const Subgraph& graph) {
  std::vector<int32_t> nodes;
  for (int32_t n : graph.execution_plan) {
    if (n >= 0 && static_cast<size_t>(n) < graph.nodes.size() &&
        IsFlexOp(graph.nodes[static_cast<size_t>(n)])) {
      nodes.push_back(n);
    }
  }
  return nodes;
}

}  // namespace tfa
