// What the interpreter's graph looks like after a delegate took some of its nodes: upstream's
// Subgraph::ReplaceNodeSubsetsWithDelegateKernels (tflite/core/subgraph.cc), replayed on a copy.
#ifndef LIBANALYSIS_DELEGATION_DELEGATED_PLAN_H_
#define LIBANALYSIS_DELEGATION_DELEGATED_PLAN_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// BuiltinOperator DELEGATE: upstream stamps it on every delegate kernel's registration.
inline constexpr int32_t kBuiltinDelegate = 51;

struct DelegatedSubgraph {
  // A copy of the input with one kDelegateKernel node per delegate subset appended after the
  // existing nodes (op = the delegate's name, `replaces` = the subset's nodes, inputs/outputs =
  // the subset's, no temporaries, not in place) and `execution_plan` = the cpu subsets' nodes
  // and the new kernels, in subset order.
  Subgraph subgraph;
  // The partitioning the plan was built from (empty when no node was claimed).
  std::vector<NodeSubset> subsets;
  // Index in `subgraph.nodes` of the kernel of each delegate subset, in subset order.
  std::vector<int32_t> kernel_nodes;
};

// Replaces the nodes `delegate_name` claims (`nodes_to_replace`, original node indices; order
// does not matter) with delegate kernels. The input may already carry other delegates' kernels:
// partitioning runs over its current execution plan, so delegates apply one after another.
// As upstream:
//   - an empty `nodes_to_replace` changes nothing (the plan is not even re-partitioned);
//   - a kernel whose inputs and outputs share a tensor is an error;
//   - a kernel output already produced by another delegate's kernel is an error (upstream
//     checks the tensor's owning delegate; delegates are told apart by name here);
//   - a kernel might have side effects iff one of its tensors is a resource tensor.
Result<DelegatedSubgraph> ReplaceNodeSubsetsWithDelegateKernels(
    const Subgraph& subgraph, std::span<const int32_t> nodes_to_replace,
    const std::string& delegate_name, const PartitionOptions& options);

// The same on a subgraph already checked. `partitioning`, when given, is what
// PartitionExecutionPlan returns for these nodes and options (NodeSelection::partitioning): the
// kernels are built from it instead, and it becomes the result's `subsets`.
Result<DelegatedSubgraph> ReplaceNodeSubsetsWithDelegateKernels(
    const ValidSubgraph& subgraph, std::span<const int32_t> nodes_to_replace,
    const std::string& delegate_name, const PartitionOptions& options,
    std::optional<std::vector<NodeSubset>> partitioning = std::nullopt);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_DELEGATED_PLAN_H_
