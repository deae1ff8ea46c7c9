#include "libanalysis/delegation/partition.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "libanalysis/delegation/partition_validation.h"

namespace tfa {
namespace {

constexpr int kEpochNotReady = -1;
constexpr int kEpochAlwaysReady = -2;

void SortUnique(SubsetIds& items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
}

using PositionHeap = std::priority_queue<int, std::vector<int>, std::greater<int>>;

// Event-driven replay of upstream's epoch loop. Upstream rescans the whole plan for every pass
// of every epoch; this replay instead keeps the ready nodes in min-heaps keyed by plan position
// and is told when a node becomes ready (its last missing input or control predecessor is
// scheduled), so every node and edge is handled a constant number of times.
//
// It schedules nodes in exactly upstream's order, which is what makes the subsets, their node
// order and their input/output lists identical:
//   - an epoch's type is that of the ready node with the smallest plan position;
//   - greedy: a pass of upstream visits positions in increasing order, so within a pass the
//     nodes run in position order, including nodes made ready during the pass at a later
//     position; a node made ready by a node at a later position waits for the next pass. Two
//     heaps (this pass, next pass) reproduce that. The epoch ends when a pass adds nothing, so
//     every ready node of the epoch's type is taken and the other type waits in its own heap;
//   - non-greedy: upstream's epoch is a run of consecutive plan positions that ends at the
//     first node it cannot add; a run that reaches the end of the plan goes on with the
//     smallest ready node of the epoch's type (upstream's next pass);
//   - disabled node fusion: each epoch is the smallest ready node alone.
class EventDrivenPartitioner {
 public:
  EventDrivenPartitioner(const Subgraph& subgraph, std::span<const int32_t> claimed_nodes,
                         const PartitionOptions& options)
      : subgraph_(subgraph), plan_(subgraph.execution_plan), options_(options) {
    std::vector<bool> claimed(subgraph.nodes.size(), false);
    for (int32_t node : claimed_nodes) claimed[node] = true;
    position_type_.reserve(plan_.size());
    for (int32_t node : plan_) {
      position_type_.push_back(claimed[node] ? SubsetType::kDelegate : SubsetType::kCpu);
    }
  }

  Result<std::vector<NodeSubset>> Run() {
    BuildDependencies();
    scheduled_.assign(plan_.size(), false);
    // Every subset holds a node or more: room for the most there can be, so that a plan of a
    // million one-node subsets is written once instead of copied at each doubling (issue 46).
    // Room never used is never touched.
    subsets_.reserve(plan_.size());
    for (size_t position = 0; position < plan_.size(); ++position) {
      if (missing_dependencies_[position] == 0) WaitingHeap(position).push(position);
    }
    if (options_.disable_node_fusion) {
      RunSingleNodeEpochs();
    } else if (options_.greedy) {
      RunGreedyEpochs();
    } else {
      RunNonGreedyEpochs();
    }
    for (size_t position = 0; position < plan_.size(); ++position) {
      if (!scheduled_[position]) return NodeNeverRunsError(subgraph_, plan_[position]);
    }
    for (int32_t tensor : subgraph_.outputs) {
      const int epoch = tensor_epochs_[tensor];
      if (epoch == kEpochAlwaysReady) continue;
      if (epoch < 0) return GraphOutputWithoutSubsetError(subgraph_, tensor);
      subsets_[epoch].outputs.push_back(tensor);
    }
    for (NodeSubset& subset : subsets_) {
      SortUnique(subset.inputs);
      SortUnique(subset.outputs);
    }
    return std::move(subsets_);
  }

 private:
  // Consumers of each tensor a planned node produces (plan positions, once per input slot),
  // the number of such input slots still unready per node, and the greedy control chain.
  void BuildDependencies() {
    const size_t tensor_count = subgraph_.tensors.size();
    tensor_epochs_.assign(tensor_count, kEpochAlwaysReady);
    for (int32_t node : plan_) {
      for (int32_t tensor : subgraph_.nodes[node].outputs) {
        if (tensor != -1) tensor_epochs_[tensor] = kEpochNotReady;
      }
    }
    consumer_begin_.assign(tensor_count + 1, 0);
    missing_dependencies_.assign(plan_.size(), 0);
    for (size_t position = 0; position < plan_.size(); ++position) {
      for (int32_t tensor : subgraph_.nodes[plan_[position]].inputs) {
        if (tensor == -1 || tensor_epochs_[tensor] != kEpochNotReady) continue;
        ++consumer_begin_[tensor + 1];
        ++missing_dependencies_[position];
      }
    }
    for (size_t tensor = 0; tensor < tensor_count; ++tensor) {
      consumer_begin_[tensor + 1] += consumer_begin_[tensor];
    }
    consumers_.resize(consumer_begin_[tensor_count]);
    std::vector<int> fill(consumer_begin_.begin(), consumer_begin_.end() - 1);
    for (size_t position = 0; position < plan_.size(); ++position) {
      for (int32_t tensor : subgraph_.nodes[plan_[position]].inputs) {
        if (tensor == -1 || tensor_epochs_[tensor] != kEpochNotReady) continue;
        consumers_[fill[tensor]++] = static_cast<int>(position);
      }
    }
    // Upstream chains side-effecting nodes in plan order, greedy mode only
    // (tflite/graph_info.cc, PartitionGraphIntoIndependentNodeSubsets).
    next_side_effecting_.assign(plan_.size(), -1);
    if (!options_.greedy) return;
    int previous = -1;
    for (size_t position = 0; position < plan_.size(); ++position) {
      if (!subgraph_.nodes[plan_[position]].side_effect) continue;
      if (previous != -1) {
        next_side_effecting_[previous] = static_cast<int>(position);
        ++missing_dependencies_[position];
      }
      previous = static_cast<int>(position);
    }
  }

  PositionHeap& WaitingHeap(int position) {
    return waiting_[static_cast<int>(position_type_[position])];
  }

  // The ready, unscheduled node with the smallest position (stale heap entries of nodes that
  // were scheduled meanwhile are dropped), or -1.
  int SmallestWaiting(SubsetType type) {
    PositionHeap& heap = waiting_[static_cast<int>(type)];
    while (!heap.empty() && scheduled_[heap.top()]) heap.pop();
    return heap.empty() ? -1 : heap.top();
  }

  int SmallestWaitingOfAnyType() {
    const int cpu = SmallestWaiting(SubsetType::kCpu);
    const int delegate = SmallestWaiting(SubsetType::kDelegate);
    if (cpu == -1) return delegate;
    if (delegate == -1) return cpu;
    return std::min(cpu, delegate);
  }

  void StartSubset(SubsetType type) {
    subsets_.emplace_back();
    subsets_.back().type = type;
  }

  void RunSingleNodeEpochs() {
    for (int position = SmallestWaitingOfAnyType(); position != -1;
         position = SmallestWaitingOfAnyType()) {
      StartSubset(position_type_[position]);
      Schedule(position);
    }
  }

  void RunGreedyEpochs() {
    for (int first = SmallestWaitingOfAnyType(); first != -1; first = SmallestWaitingOfAnyType()) {
      epoch_type_ = position_type_[first];
      StartSubset(epoch_type_);
      // this_pass_ is empty: the swap hands its storage to the waiting heap, so that a plan of
      // a million epochs allocates no heap per epoch.
      this_pass_.swap(waiting_[static_cast<int>(epoch_type_)]);
      while (!this_pass_.empty()) {
        while (!this_pass_.empty()) {
          pass_cursor_ = this_pass_.top();
          this_pass_.pop();
          Schedule(pass_cursor_);
        }
        std::swap(this_pass_, next_pass_);
        pass_cursor_ = -1;
      }
    }
  }

  bool CanJoinRun(int position) const {
    return !scheduled_[position] && missing_dependencies_[position] == 0 &&
           position_type_[position] == epoch_type_;
  }

  void RunNonGreedyEpochs() {
    const int plan_size = static_cast<int>(plan_.size());
    for (int first = SmallestWaitingOfAnyType(); first != -1; first = SmallestWaitingOfAnyType()) {
      epoch_type_ = position_type_[first];
      StartSubset(epoch_type_);
      int position = first;
      while (true) {
        while (position < plan_size && CanJoinRun(position)) Schedule(position++);
        if (position < plan_size) break;  // upstream stops at the first node it cannot add
        // The run reached the end of the plan: upstream's next pass starts at the smallest
        // ready node of the epoch's type.
        position = SmallestWaiting(epoch_type_);
        if (position == -1) break;
      }
    }
  }

  // Called when the node at `position` has its last input (or control predecessor) done.
  void OnReady(int position) {
    const bool joins_this_epoch =
        options_.greedy && !options_.disable_node_fusion && position_type_[position] == epoch_type_;
    if (!joins_this_epoch) {
      WaitingHeap(position).push(position);
    } else if (position > pass_cursor_) {
      this_pass_.push(position);
    } else {
      next_pass_.push(position);
    }
  }

  // Adds the node at `position` to the current subset, exactly as upstream's UpdateNode does
  // once it has decided the node joins.
  void Schedule(int position) {
    const int epoch = static_cast<int>(subsets_.size()) - 1;
    NodeSubset& subset = subsets_.back();
    const int32_t node_index = plan_[position];
    const Node& node = subgraph_.nodes[node_index];
    scheduled_[position] = true;
    subset.nodes.push_back(node_index);
    for (int32_t tensor : node.outputs) {
      if (tensor == -1) continue;
      const bool first_production = tensor_epochs_[tensor] == kEpochNotReady;
      tensor_epochs_[tensor] = epoch;
      if (!first_production) continue;
      for (int i = consumer_begin_[tensor]; i < consumer_begin_[tensor + 1]; ++i) {
        if (--missing_dependencies_[consumers_[i]] == 0) OnReady(consumers_[i]);
      }
    }
    for (int32_t tensor : node.inputs) {
      if (tensor == -1) continue;
      const int input_epoch = tensor_epochs_[tensor];
      if (input_epoch == epoch) continue;
      subset.inputs.push_back(tensor);
      if (input_epoch >= 0) subsets_[input_epoch].outputs.push_back(tensor);
    }
    const int successor = next_side_effecting_[position];
    if (successor != -1 && --missing_dependencies_[successor] == 0) OnReady(successor);
  }

  const Subgraph& subgraph_;
  const std::vector<int32_t>& plan_;
  const PartitionOptions options_;
  std::vector<SubsetType> position_type_;  // by plan position
  std::vector<int> tensor_epochs_;         // by tensor: subset index or kEpoch*
  std::vector<int> consumer_begin_;        // CSR offsets into consumers_, by tensor
  std::vector<int> consumers_;             // plan positions reading each produced tensor
  std::vector<int> missing_dependencies_;  // by plan position
  std::vector<int> next_side_effecting_;   // by plan position; -1 = none
  std::vector<bool> scheduled_;            // by plan position
  PositionHeap waiting_[2];                // ready nodes not in the current epoch, by type
  PositionHeap this_pass_, next_pass_;     // greedy: ready nodes of the epoch's type
  int pass_cursor_ = -1;                   // greedy: position the current pass is at
  SubsetType epoch_type_ = SubsetType::kCpu;
  std::vector<NodeSubset> subsets_;
};

}  // namespace

Result<std::vector<NodeSubset>> PartitionExecutionPlan(const Subgraph& subgraph,
                                                       std::span<const int32_t> claimed_nodes,
                                                       const PartitionOptions& options) {
  TFA_RETURN_IF_ERROR(ValidatePartitionInputs(subgraph, claimed_nodes));
  return EventDrivenPartitioner(subgraph, claimed_nodes, options).Run();
}

Result<std::vector<NodeSubset>> PartitionExecutionPlan(const ValidSubgraph& subgraph,
                                                       std::span<const int32_t> claimed_nodes,
                                                       const PartitionOptions& options) {
  TFA_RETURN_IF_ERROR(ValidateClaimedNodes(subgraph.graph(), claimed_nodes));
  return EventDrivenPartitioner(subgraph.graph(), claimed_nodes, options).Run();
}

}  // namespace tfa
