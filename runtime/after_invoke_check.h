// The after-Invoke memory the analyser replays (SubgraphPlan::after_invoke: which subgraphs the
// first Invoke ran, the arena each ran on) against what a run of the same plan did.
#ifndef RUNTIME_AFTER_INVOKE_CHECK_H_
#define RUNTIME_AFTER_INVOKE_CHECK_H_

#include <cstdint>
#include <vector>

#include "libanalysis/plan/model_plan.h"
#include "runtime/interpreter.h"

namespace tfa::runtime {

struct SubgraphMemoryCheck {
  int32_t subgraph = 0;
  bool predicted_invoked = false;
  bool measured_invoked = false;
  // The high-water marks of the plans the subgraph ran on against the highest bytes the run
  // really wrote in its arenas (compared only when both say it ran).
  uint64_t predicted_arena = 0;
  uint64_t measured_arena = 0;
  uint64_t predicted_persistent = 0;
  uint64_t measured_persistent = 0;

  bool ok() const {
    return predicted_invoked == measured_invoked &&
           (!measured_invoked ||
            (predicted_arena == measured_arena && predicted_persistent == measured_persistent));
  }
};

// One entry per subgraph other than the entry that the run set up and the plan replayed after
// the first Invoke (none for a model without control flow, or when the replay lacked a fact).
// `stats` must be of the first Invoke on `plan`.
std::vector<SubgraphMemoryCheck> CheckAfterInvoke(const ModelPlan& plan, int32_t entry_subgraph,
                                                  const RunStats& stats);

}  // namespace tfa::runtime

#endif  // RUNTIME_AFTER_INVOKE_CHECK_H_
