#include "libanalysis/delegation/partition_validation.h"

#include <span>
#include <vector>

namespace tfa {
namespace {

bool IsIndex(int32_t index, size_t size) { return index >= 0 && static_cast<size_t>(index) < size; }

Status CheckTensorList(const Subgraph& subgraph, int32_t node_index, const char* list_name,
                       std::span<const int32_t> tensors) {
  for (int32_t tensor : tensors) {
    if (tensor == -1 || IsIndex(tensor, subgraph.tensors.size())) continue;
    return Status::Error(SubgraphLabel(subgraph) + ": node " + std::to_string(node_index) + " (" +
                         subgraph.nodes[node_index].op + "): " + list_name + " tensor " +
                         std::to_string(tensor) + " is out of range (" +
                         std::to_string(subgraph.tensors.size()) + " tensors)");
  }
  return Status::Ok();
}

}  // namespace

std::string SubgraphLabel(const Subgraph& subgraph) {
  if (subgraph.name.empty()) return "subgraph";
  return "subgraph '" + subgraph.name + "'";
}

Status NodeNeverRunsError(const Subgraph& subgraph, int32_t node) {
  return Status::Error(SubgraphLabel(subgraph) + ": node " + std::to_string(node) + " (" +
                       subgraph.nodes[node].op +
                       ") can never run: one of its inputs depends on it");
}

Status GraphOutputWithoutSubsetError(const Subgraph& subgraph, int32_t tensor) {
  return Status::Error(SubgraphLabel(subgraph) + ": graph output tensor " + std::to_string(tensor) +
                       " is produced by no subset");
}

Status ValidateClaimedNodes(const Subgraph& subgraph, std::span<const int32_t> claimed_nodes) {
  const size_t node_count = subgraph.nodes.size();
  for (int32_t node : claimed_nodes) {
    if (!IsIndex(node, node_count)) {
      return Status::Error(SubgraphLabel(subgraph) + ": claimed node " + std::to_string(node) +
                           " is out of range (" + std::to_string(node_count) + " nodes)");
    }
  }
  return Status::Ok();
}

Result<ValidSubgraph> ValidSubgraph::Check(const Subgraph& subgraph) {
  const size_t node_count = subgraph.nodes.size();
  std::vector<bool> planned(node_count, false);
  for (int32_t node : subgraph.execution_plan) {
    if (!IsIndex(node, node_count)) {
      return Status::Error(SubgraphLabel(subgraph) + ": execution plan node " +
                           std::to_string(node) + " is out of range (" +
                           std::to_string(node_count) + " nodes)");
    }
    if (planned[node]) {
      return Status::Error(SubgraphLabel(subgraph) + ": execution plan lists node " +
                           std::to_string(node) + " twice");
    }
    planned[node] = true;
    TFA_RETURN_IF_ERROR(CheckTensorList(subgraph, node, "input", subgraph.nodes[node].inputs));
    TFA_RETURN_IF_ERROR(CheckTensorList(subgraph, node, "output", subgraph.nodes[node].outputs));
  }
  for (int32_t tensor : subgraph.outputs) {
    if (!IsIndex(tensor, subgraph.tensors.size())) {
      return Status::Error(SubgraphLabel(subgraph) + ": graph output tensor " +
                           std::to_string(tensor) + " is out of range (" +
                           std::to_string(subgraph.tensors.size()) + " tensors)");
    }
  }
  return ValidSubgraph(subgraph);
}

Status ValidatePartitionInputs(const Subgraph& subgraph, std::span<const int32_t> claimed_nodes) {
  TFA_RETURN_IF_ERROR(ValidateClaimedNodes(subgraph, claimed_nodes));
  auto valid = ValidSubgraph::Check(subgraph);
  return valid.ok() ? Status::Ok() : valid.status();
}

}  // namespace tfa
