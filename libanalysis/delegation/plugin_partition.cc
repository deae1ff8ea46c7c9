#include "libanalysis/delegation/plugin_partition.h"

#include <algorithm>

#include "libanalysis/delegation/partition_validation.h"

namespace tfa {
namespace {

void SortUnique(SubsetIds& tensors) {
  std::sort(tensors.begin(), tensors.end());
  tensors.erase(std::unique(tensors.begin(), tensors.end()), tensors.end());
}

}  // namespace

Result<std::vector<NodeSubset>> GroupCompilerPluginPartitions(
    const Subgraph& subgraph, std::span<const PluginSelectedNode> selected) {
  std::vector<int32_t> selected_nodes;
  selected_nodes.reserve(selected.size());
  for (const PluginSelectedNode& s : selected) selected_nodes.push_back(s.node);
  TFA_RETURN_IF_ERROR(ValidatePartitionInputs(subgraph, selected_nodes));

  // Partition index per node, the last listing winning; -1: not selected.
  std::vector<int64_t> partition_of(subgraph.nodes.size(), -1);
  for (const PluginSelectedNode& s : selected) partition_of[s.node] = s.partition_index;

  // Runs of equal index along the plan; each tensor remembers the run that produces it.
  std::vector<NodeSubset> subsets;
  std::vector<int32_t> producer_run(subgraph.tensors.size(), -1);
  int64_t current = -2;
  for (int32_t node : subgraph.execution_plan) {
    const int64_t index = partition_of[node];
    if (subsets.empty() || index != current) {
      subsets.emplace_back();
      subsets.back().type = index < 0 ? SubsetType::kCpu : SubsetType::kDelegate;
      current = index;
    }
    const auto run = static_cast<int32_t>(subsets.size() - 1);
    subsets.back().nodes.push_back(node);
    for (int32_t tensor : subgraph.nodes[node].outputs) {
      if (tensor != -1) producer_run[tensor] = run;
    }
  }

  // One pass over the reads: a tensor read across runs is an input of the reader's run and an
  // output of the producer's run; constants cross no boundary.
  for (size_t run = 0; run < subsets.size(); ++run) {
    for (int32_t node : subsets[run].nodes) {
      for (int32_t tensor : subgraph.nodes[node].inputs) {
        if (tensor == -1 || subgraph.tensors[tensor].is_constant()) continue;
        const int32_t producer = producer_run[tensor];
        if (producer == static_cast<int32_t>(run)) continue;
        subsets[run].inputs.push_back(tensor);
        if (producer >= 0) subsets[producer].outputs.push_back(tensor);
      }
    }
  }
  for (int32_t tensor : subgraph.outputs) {
    if (tensor == -1 || subgraph.tensors[tensor].is_constant()) continue;
    const int32_t producer = producer_run[tensor];
    if (producer >= 0) subsets[producer].outputs.push_back(tensor);
  }
  for (NodeSubset& subset : subsets) {
    SortUnique(subset.inputs);
    SortUnique(subset.outputs);
  }
  return subsets;
}

}  // namespace tfa
