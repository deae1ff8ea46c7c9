#include "libanalysis/delegation/partition_reference.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "libanalysis/delegation/partition_validation.h"

namespace tfa {
namespace {

// Epoch markers of tensors and nodes, as upstream names them.
constexpr int kEpochNotReady = -1;
constexpr int kEpochAlwaysReady = -2;

void SortUnique(SubsetIds& items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
}

// One partitioning run over one execution plan. Positions (indices into the plan) identify
// planned nodes; node types are looked up by original node index, as upstream does.
class ReferencePartitioner {
 public:
  ReferencePartitioner(const Subgraph& subgraph, std::span<const int32_t> claimed_nodes,
                       const PartitionOptions& options)
      : subgraph_(subgraph),
        plan_(subgraph.execution_plan),
        options_(options),
        node_type_(subgraph.nodes.size(), SubsetType::kCpu) {
    for (int32_t node : claimed_nodes) node_type_[node] = SubsetType::kDelegate;
    if (options.greedy) ChainSideEffectingNodes();
  }

  Result<std::vector<NodeSubset>> Run() {
    tensor_epochs_.assign(subgraph_.tensors.size(), kEpochAlwaysReady);
    node_epochs_.assign(plan_.size(), kEpochNotReady);
    for (int32_t node : plan_) {
      for (int32_t tensor : subgraph_.nodes[node].outputs) {
        if (tensor != -1) tensor_epochs_[tensor] = kEpochNotReady;
      }
    }
    while (true) {
      BuildSubset();
      if (subsets_.back().nodes.empty()) {
        subsets_.pop_back();
        break;
      }
    }
    for (size_t position = 0; position < plan_.size(); ++position) {
      if (node_epochs_[position] != kEpochNotReady) continue;
      return NodeNeverRunsError(subgraph_, plan_[position]);
    }
    for (int32_t tensor : subgraph_.outputs) {
      const int epoch = tensor_epochs_[tensor];
      // A graph input that is also a graph output belongs to no subset.
      if (epoch == kEpochAlwaysReady) continue;
      if (epoch < 0 || static_cast<size_t>(epoch) >= subsets_.size()) {
        return GraphOutputWithoutSubsetError(subgraph_, tensor);
      }
      subsets_[epoch].outputs.push_back(tensor);
    }
    for (NodeSubset& subset : subsets_) {
      SortUnique(subset.inputs);
      SortUnique(subset.outputs);
    }
    return std::move(subsets_);
  }

 private:
  // Upstream adds a control edge from each side-effecting node to the next one in the plan
  // (tflite/graph_info.cc, PartitionGraphIntoIndependentNodeSubsets), greedy mode only.
  void ChainSideEffectingNodes() {
    incoming_control_edges_.assign(plan_.size(), 0);
    int previous = -1;
    for (size_t position = 0; position < plan_.size(); ++position) {
      if (!subgraph_.nodes[plan_[position]].side_effect) continue;
      if (previous != -1) {
        control_edges_.emplace_back(previous, static_cast<int>(position));
        ++incoming_control_edges_[position];
      }
      previous = static_cast<int>(position);
    }
  }

  // Builds the subset of one epoch by scanning the plan until no node can be added.
  void BuildSubset() {
    subsets_.emplace_back();
    current_type_.reset();
    while (true) {
      bool added_any = false;
      for (size_t position = 0; position < plan_.size(); ++position) {
        if (TryAddNode(position)) {
          added_any = true;
        } else if (added_any && !options_.greedy) {
          return;
        }
      }
      if (!added_any) return;
    }
  }

  // Adds the node at `position` to the current subset if it has not run yet, all its inputs
  // and control predecessors are done, and its type matches the subset's.
  bool TryAddNode(size_t position) {
    NodeSubset& subset = subsets_.back();
    if (options_.disable_node_fusion && !subset.nodes.empty()) return false;
    if (node_epochs_[position] != kEpochNotReady) return false;
    const int32_t node_index = plan_[position];
    const Node& node = subgraph_.nodes[node_index];
    for (int32_t tensor : node.inputs) {
      if (tensor != -1 && tensor_epochs_[tensor] == kEpochNotReady) return false;
    }
    if (!incoming_control_edges_.empty() && incoming_control_edges_[position] != 0) return false;

    if (!current_type_) {
      current_type_ = node_type_[node_index];
      subset.type = *current_type_;
    }
    if (*current_type_ != node_type_[node_index]) return false;

    const int epoch = static_cast<int>(subsets_.size()) - 1;
    node_epochs_[position] = epoch;
    subset.nodes.push_back(node_index);
    for (int32_t tensor : node.outputs) {
      if (tensor != -1) tensor_epochs_[tensor] = epoch;
    }
    for (int32_t tensor : node.inputs) {
      if (tensor == -1) continue;
      const int input_epoch = tensor_epochs_[tensor];
      if (input_epoch == epoch) continue;
      subset.inputs.push_back(tensor);
      if (input_epoch >= 0) subsets_[input_epoch].outputs.push_back(tensor);
    }
    // Control edges are sorted by source: release the nodes waiting for this one.
    auto edge = std::lower_bound(control_edges_.begin(), control_edges_.end(),
                                 std::make_pair(static_cast<int>(position), 0));
    for (; edge != control_edges_.end() && edge->first == static_cast<int>(position); ++edge) {
      --incoming_control_edges_[edge->second];
    }
    return true;
  }

  const Subgraph& subgraph_;
  const std::vector<int32_t>& plan_;
  const PartitionOptions options_;
  std::vector<SubsetType> node_type_;               // by original node index
  std::vector<std::pair<int, int>> control_edges_;  // plan positions, sorted by source
  std::vector<int> incoming_control_edges_;         // by plan position; empty when none
  std::vector<int> tensor_epochs_;                  // by tensor index
  std::vector<int> node_epochs_;                    // by plan position
  std::vector<NodeSubset> subsets_;
  std::optional<SubsetType> current_type_;  // unset until the epoch's first node
};

}  // namespace

Result<std::vector<NodeSubset>> PartitionExecutionPlanReference(
    const Subgraph& subgraph, std::span<const int32_t> claimed_nodes,
    const PartitionOptions& options) {
  TFA_RETURN_IF_ERROR(ValidatePartitionInputs(subgraph, claimed_nodes));
  return ReferencePartitioner(subgraph, claimed_nodes, options).Run();
}

}  // namespace tfa
