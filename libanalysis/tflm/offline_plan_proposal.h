// An offline memory plan for TFLite Micro made by the `optimal` planner
// (libanalysis/arena/alternative_planners.h) from the head buffers the replay gives: what
// `convert --tflm-offline-plan` writes, and what it saves against TFLM's GreedyMemoryPlanner.
// Only tensors can carry an offline offset; the kernels' scratch buffers are still placed by
// TFLM's planner, around the fixed tensors, so the saving is the replay's head with the plan,
// never the optimal planner's own figure.
#ifndef LIBANALYSIS_TFLM_OFFLINE_PLAN_PROPOSAL_H_
#define LIBANALYSIS_TFLM_OFFLINE_PLAN_PROPOSAL_H_

#include <cstdint>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/tflm/offline_memory_plan.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

struct OfflinePlanProposal {
  OfflinePlan plan;
  uint64_t greedy_head = 0;     // TFLM's head planned online (the file's own plan ignored)
  uint64_t optimal_size = 0;    // the optimal planner's size for every head buffer
  bool optimal_proven = false;  // the search finished or reached the lower bound
  uint64_t planned_head = 0;    // TFLM's head with `plan`
  uint64_t fixed_tensors = 0;   // tensors the plan gives an offset
};

// Refuses a model with more than one subgraph: TFLM reads every subgraph's offsets from the
// start of the plan (micro_allocation_info.cc), so one plan cannot place two subgraphs.
[[nodiscard]] Result<OfflinePlanProposal> ProposeOfflinePlan(const Model& model,
                                                             const Build& build);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_OFFLINE_PLAN_PROPOSAL_H_
