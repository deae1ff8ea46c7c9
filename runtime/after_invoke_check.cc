#include "runtime/after_invoke_check.h"

namespace tfa::runtime {

std::vector<SubgraphMemoryCheck> CheckAfterInvoke(const ModelPlan& plan, int32_t entry_subgraph,
                                                  const RunStats& stats) {
  std::vector<SubgraphMemoryCheck> checks;
  for (size_t i = 0; i < plan.subgraphs.size() && i < stats.subgraphs.size(); ++i) {
    const auto& after = plan.subgraphs[i].after_invoke;
    const SubgraphRunStats& ran = stats.subgraphs[i];
    if (static_cast<int32_t>(i) == entry_subgraph || !after || !ran.runnable) continue;
    SubgraphMemoryCheck c;
    c.subgraph = static_cast<int32_t>(i);
    c.predicted_invoked = after->invoked;
    c.measured_invoked = ran.runs > 0;
    c.predicted_arena = after->plan.arena_size;
    c.predicted_persistent = after->plan.persistent_arena_size;
    c.measured_arena = ran.arena_bytes_written;
    c.measured_persistent = ran.persistent_bytes_written;
    checks.push_back(c);
  }
  return checks;
}

}  // namespace tfa::runtime
