// The production partitioner: the same subsets, in the same order, with the same input and
// output lists as PartitionExecutionPlanReference (upstream's algorithm), in
// O((nodes + edges) log nodes) instead of upstream's repeated plan scans.
#ifndef LIBANALYSIS_DELEGATION_PARTITION_H_
#define LIBANALYSIS_DELEGATION_PARTITION_H_

#include <cstdint>
#include <span>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// Splits `subgraph.execution_plan` into cpu and delegate subsets for a delegate claiming
// `claimed_nodes` (original node indices). Same contract, result and errors as
// PartitionExecutionPlanReference (partition_reference.h), which documents the rules.
Result<std::vector<NodeSubset>> PartitionExecutionPlan(const Subgraph& subgraph,
                                                       std::span<const int32_t> claimed_nodes,
                                                       const PartitionOptions& options);

// The same, on a subgraph already checked: only the claimed nodes are.
Result<std::vector<NodeSubset>> PartitionExecutionPlan(const ValidSubgraph& subgraph,
                                                       std::span<const int32_t> claimed_nodes,
                                                       const PartitionOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_PARTITION_H_
