#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/arena/arena_planner_reference.h"
namespace tfa {
Result<ArenaPlan> PlanArena(const Subgraph& subgraph, const ArenaPlannerOptions& options) {
  return PlanArenaReference(subgraph, options);
}
}  // namespace tfa
