#include "libanalysis/delegation/delegated_plan.h"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <utility>

#include "libanalysis/delegation/partition.h"
#include "libanalysis/delegation/partition_validation.h"

namespace tfa {
namespace {

// Upstream's OpMightHaveSideEffect for a delegate kernel: its registration is DELEGATE (never
// control flow), so only resource tensors count (tflite/core/subgraph.cc).
bool TouchesResourceTensor(const Subgraph& subgraph, const NodeSubset& subset) {
  for (const auto* tensors : {&subset.inputs, &subset.outputs}) {
    for (int32_t tensor : *tensors) {
      if (subgraph.tensors[tensor].type == TensorType::kResource) return true;
    }
  }
  return false;
}

// Upstream adds the kernel with non-null builtin data, so AddNodeWithParameters rejects a
// tensor that is both an input and an output (tflite/core/subgraph.cc).
Status CheckNoOverlap(const Subgraph& subgraph, const NodeSubset& subset) {
  for (int32_t tensor : subset.inputs) {
    if (std::binary_search(subset.outputs.begin(), subset.outputs.end(), tensor)) {
      return Status::Error(SubgraphLabel(subgraph) + ": delegate kernel for nodes starting at " +
                           std::to_string(subset.nodes.front()) + ": tensor " +
                           std::to_string(tensor) + " is both an input and an output");
    }
  }
  return Status::Ok();
}

// Tensors that kernels of delegates other than `delegate_name` produce: upstream refuses to
// hand them to a second delegate's kernel as outputs.
std::unordered_set<int32_t> OtherDelegatesOutputs(const Subgraph& subgraph,
                                                  const std::string& delegate_name) {
  std::unordered_set<int32_t> owned;
  for (const Node& node : subgraph.nodes) {
    if (node.kind != NodeKind::kDelegateKernel || node.op == delegate_name) continue;
    owned.insert(node.outputs.begin(), node.outputs.end());
  }
  return owned;
}

// A copy of `subgraph` (its lists shared with it) with room for `extra_nodes` appended kernels.
Subgraph CopyWithRoomForNodes(const Subgraph& subgraph, size_t extra_nodes) {
  Subgraph copy = subgraph;
  copy.nodes.reserve(subgraph.nodes.size() + extra_nodes);
  return copy;
}

// The delegated copy of `subgraph` for the partitioning `subsets` of the nodes a delegate claims.
Result<DelegatedSubgraph> ReplaceWithKernels(const Subgraph& subgraph,
                                             std::vector<NodeSubset> subsets,
                                             const std::string& delegate_name) {
  const auto kernel_count =
      static_cast<size_t>(std::count_if(subsets.begin(), subsets.end(), [](const NodeSubset& s) {
        return s.type != SubsetType::kCpu;
      }));
  DelegatedSubgraph result{CopyWithRoomForNodes(subgraph, kernel_count), std::move(subsets), {}};

  const std::unordered_set<int32_t> other_delegates_outputs =
      OtherDelegatesOutputs(subgraph, delegate_name);
  Subgraph& delegated = result.subgraph;
  delegated.execution_plan.clear();
  for (const NodeSubset& subset : result.subsets) {
    if (subset.type == SubsetType::kCpu) {
      delegated.execution_plan.insert(delegated.execution_plan.end(), subset.nodes.begin(),
                                      subset.nodes.end());
      continue;
    }
    TFA_RETURN_IF_ERROR(CheckNoOverlap(subgraph, subset));
    for (int32_t tensor : subset.outputs) {
      if (!other_delegates_outputs.contains(tensor)) continue;
      return Status::Error(SubgraphLabel(subgraph) + ": delegate '" + delegate_name +
                           "' would produce tensor " + std::to_string(tensor) +
                           ", which another delegate's kernel already produces");
    }
    Node kernel;
    kernel.kind = NodeKind::kDelegateKernel;
    kernel.op = delegate_name;
    kernel.builtin_code = kBuiltinDelegate;
    kernel.inputs = subset.inputs;
    kernel.outputs = subset.outputs;
    kernel.inplace = kInplaceNone;
    kernel.side_effect = TouchesResourceTensor(subgraph, subset);
    kernel.replaces = subset.nodes;
    const auto kernel_index = static_cast<int32_t>(delegated.nodes.size());
    delegated.nodes.push_back(std::move(kernel));
    delegated.execution_plan.push_back(kernel_index);
    result.kernel_nodes.push_back(kernel_index);
  }
  return result;
}

}  // namespace

Result<DelegatedSubgraph> ReplaceNodeSubsetsWithDelegateKernels(
    const Subgraph& subgraph, std::span<const int32_t> nodes_to_replace,
    const std::string& delegate_name, const PartitionOptions& options) {
  if (nodes_to_replace.empty()) return DelegatedSubgraph{subgraph, {}, {}};
  auto subsets = PartitionExecutionPlan(subgraph, nodes_to_replace, options);
  if (!subsets.ok()) return subsets.status();
  return ReplaceWithKernels(subgraph, std::move(subsets).value(), delegate_name);
}

Result<DelegatedSubgraph> ReplaceNodeSubsetsWithDelegateKernels(
    const ValidSubgraph& subgraph, std::span<const int32_t> nodes_to_replace,
    const std::string& delegate_name, const PartitionOptions& options,
    std::optional<std::vector<NodeSubset>> partitioning) {
  if (nodes_to_replace.empty()) return DelegatedSubgraph{subgraph.graph(), {}, {}};
  if (partitioning)
    return ReplaceWithKernels(subgraph.graph(), std::move(*partitioning), delegate_name);
  auto subsets = PartitionExecutionPlan(subgraph, nodes_to_replace, options);
  if (!subsets.ok()) return subsets.status();
  return ReplaceWithKernels(subgraph.graph(), std::move(subsets).value(), delegate_name);
}

}  // namespace tfa
