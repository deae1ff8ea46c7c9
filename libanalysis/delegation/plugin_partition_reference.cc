#include "libanalysis/delegation/plugin_partition_reference.h"

#include <algorithm>
#include <map>
#include <set>

#include "libanalysis/delegation/partition_validation.h"

namespace tfa {
namespace {

std::vector<int32_t> NodeIndices(std::span<const PluginSelectedNode> selected) {
  std::vector<int32_t> nodes;
  nodes.reserve(selected.size());
  for (const PluginSelectedNode& s : selected) nodes.push_back(s.node);
  return nodes;
}

// GraphSlicer's view of one group of ops: the tensors it clones in (inputs) and those it reroutes
// through the dispatch op (outputs, RerouteTensorsThroughCustomOp).
void FindBoundaryTensors(const Subgraph& subgraph, NodeSubset& subset) {
  const std::set<int32_t> members(subset.nodes.begin(), subset.nodes.end());
  std::set<int32_t> produced, inputs, outputs;
  for (int32_t node : subset.nodes) {
    for (int32_t tensor : subgraph.nodes[node].outputs) {
      if (tensor != -1) produced.insert(tensor);
    }
  }
  for (int32_t node : subset.nodes) {
    for (int32_t tensor : subgraph.nodes[node].inputs) {
      if (tensor == -1 || produced.contains(tensor)) continue;
      if (!subgraph.tensors[tensor].is_constant()) inputs.insert(tensor);
    }
  }
  const std::set<int32_t> graph_outputs(subgraph.outputs.begin(), subgraph.outputs.end());
  for (int32_t tensor : produced) {
    if (subgraph.tensors[tensor].is_constant()) continue;
    bool used_outside = graph_outputs.contains(tensor);
    for (int32_t user : subgraph.execution_plan) {
      if (used_outside) break;
      if (members.contains(user)) continue;
      const auto& user_inputs = subgraph.nodes[user].inputs;
      used_outside = std::find(user_inputs.begin(), user_inputs.end(), tensor) != user_inputs.end();
    }
    if (used_outside) outputs.insert(tensor);
  }
  subset.inputs.assign(inputs.begin(), inputs.end());
  subset.outputs.assign(outputs.begin(), outputs.end());
}

}  // namespace

Result<std::vector<NodeSubset>> GroupCompilerPluginPartitionsReference(
    const Subgraph& subgraph, std::span<const PluginSelectedNode> selected) {
  TFA_RETURN_IF_ERROR(ValidatePartitionInputs(subgraph, NodeIndices(selected)));

  // GetPartitionsFromFlatListV2: op -> partition index, unselected ops one above the largest.
  std::map<int32_t, uint32_t> partition_of;
  uint32_t max_partition_index = 0;
  for (const PluginSelectedNode& s : selected) {
    partition_of[s.node] = s.partition_index;
    max_partition_index = std::max(max_partition_index, s.partition_index);
  }
  const uint64_t unselected = uint64_t{max_partition_index} + 1;

  // Walking the ops in order, a run closes whenever the index changes. Upstream keeps only the
  // selected runs; the unselected ones are kept here as the CPU subsets between them.
  std::vector<NodeSubset> subsets;
  uint64_t current = ~uint64_t{0};
  for (int32_t node : subgraph.execution_plan) {
    auto it = partition_of.find(node);
    const uint64_t index = it == partition_of.end() ? unselected : uint64_t{it->second};
    if (subsets.empty() || index != current) {
      subsets.emplace_back();
      subsets.back().type = index == unselected ? SubsetType::kCpu : SubsetType::kDelegate;
      current = index;
    }
    subsets.back().nodes.push_back(node);
  }
  for (NodeSubset& subset : subsets) FindBoundaryTensors(subgraph, subset);
  return subsets;
}

}  // namespace tfa
