// When each non-persistent tensor and scratch buffer is first created and last used, as TFLite
// Micro's AllocationInfoBuilder::MarkAllocationLifetimes counts it (micro_allocation_info.cc):
// one allocation scope per node, subgraph 0 first; an IF, WHILE or CALL_ONCE node opens a scope
// for each subgraph it calls and marks that subgraph's nodes inside it, so a called subgraph's
// tensors live inside the calling node's lifetime. Subgraph inputs are created when their
// subgraph starts, outputs live to its end; a scratch buffer lives from its node's first scope
// to its last (all the scopes of the subgraphs the node calls).
#ifndef LIBANALYSIS_TFLM_ALLOCATION_LIFETIMES_H_
#define LIBANALYSIS_TFLM_ALLOCATION_LIFETIMES_H_

#include <cstdint>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa::tflm {

// A RequestScratchBufferInArena call, attributed to its node.
struct ScratchRequest {
  int32_t subgraph = 0;
  int32_t node = 0;
  uint64_t bytes = 0;
};

// Allocation scopes, inclusive; -1 where never marked (kUninitializedLifetime), as for the
// tensors of a subgraph nothing calls.
struct Lifetime {
  int32_t first = -1;
  int32_t last = -1;
};

struct AllocationLifetimes {
  std::vector<std::vector<Lifetime>> tensors;  // [subgraph][tensor]
  std::vector<Lifetime> scratch;               // one per request, in request order
};

// Refuses a subgraph that calls itself, directly or not (upstream would recurse without end),
// and call trees too large to walk.
[[nodiscard]] Result<AllocationLifetimes> MarkAllocationLifetimes(
    const Model& model, const std::vector<ScratchRequest>& scratch);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_ALLOCATION_LIFETIMES_H_
