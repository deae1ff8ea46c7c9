// The specification partitioner: a plain transcription of upstream's
// PartitionGraphIntoIndependentNodeSubsets (tflite/graph_info.cc) that tests pin the fast
// partitioner (partition.h) to. Quadratic in the worst case; use PartitionExecutionPlan.
#ifndef LIBANALYSIS_DELEGATION_PARTITION_REFERENCE_H_
#define LIBANALYSIS_DELEGATION_PARTITION_REFERENCE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// Splits `subgraph.execution_plan` into subsets of nodes claimed (`claimed_nodes`, original node
// indices) or not claimed by a delegate, exactly as upstream does:
//   - work proceeds in epochs; each epoch builds one subset by scanning the plan in order; the
//     first ready node of an epoch fixes its type, later nodes join only if of that type;
//   - a node is ready once every non-optional input is ready; graph inputs, constants,
//     variables and any tensor no planned node produces are always ready;
//   - greedy: an epoch rescans until a whole pass adds nothing; non-greedy: the epoch ends at
//     the first node it cannot add after having added one;
//   - greedy only: each side-effecting node waits for the previous one in the plan;
//   - subset inputs/outputs are the tensors crossing subset boundaries (constants and graph
//     inputs included), plus graph outputs in the subset producing them; sorted and unique.
// Errors: a claimed node out of range, a malformed plan, or nodes that can never run.
Result<std::vector<NodeSubset>> PartitionExecutionPlanReference(
    const Subgraph& subgraph, std::span<const int32_t> claimed_nodes,
    const PartitionOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_PARTITION_REFERENCE_H_
