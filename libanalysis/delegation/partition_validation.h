// Checks shared by both partitioners before they index anything, so that a malformed request
// is an error value naming the subgraph, node or tensor, never an out-of-range access.
#ifndef LIBANALYSIS_DELEGATION_PARTITION_VALIDATION_H_
#define LIBANALYSIS_DELEGATION_PARTITION_VALIDATION_H_

#include <cstdint>
#include <span>
#include <string>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// "subgraph 'name'" (or "subgraph" when it has no name), the prefix of every delegation error.
std::string SubgraphLabel(const Subgraph& subgraph);

// Claimed nodes must be node indices of the subgraph, as upstream's ValidateNodesToPartition
// requires (they need not be in the execution plan: those are simply never visited). The
// execution plan must list valid nodes at most once; node inputs and outputs must be tensor
// indices or -1; graph outputs must be tensor indices.
Status ValidatePartitionInputs(const Subgraph& subgraph, std::span<const int32_t> claimed_nodes);

// The first half of ValidatePartitionInputs: the claimed nodes are node indices.
Status ValidateClaimedNodes(const Subgraph& subgraph, std::span<const int32_t> claimed_nodes);

// A subgraph whose execution plan, planned nodes' tensor lists and outputs ValidatePartitionInputs
// accepts. The steps of one delegation (node choice, preview partitioning, delegate kernels) take
// it, so that the graph is walked for that check once per delegate instead of once per step: on a
// million-node graph a walk costs about 70 ms (issue 18). It refers to the subgraph, which must
// outlive it unchanged.
class ValidSubgraph {
 public:
  static Result<ValidSubgraph> Check(const Subgraph& subgraph);

  const Subgraph& graph() const { return *graph_; }

 private:
  explicit ValidSubgraph(const Subgraph& graph) : graph_(&graph) {}

  const Subgraph* graph_;
};

// The error both partitioners return when `node` never becomes ready (its inputs depend on it).
Status NodeNeverRunsError(const Subgraph& subgraph, int32_t node);

// The error both partitioners return when a graph output's producer is in no subset.
Status GraphOutputWithoutSubsetError(const Subgraph& subgraph, int32_t tensor);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_PARTITION_VALIDATION_H_
