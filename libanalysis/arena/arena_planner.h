// The production arena planner: the same plan as PlanArenaReference (every offset, alias,
// lifetime and high-water mark; property tests pin them together) in O(N log N) for typical
// graphs with few gaps instead of upstream's quadratic scan.
//
// How: lifetimes and the allocation order are computed as upstream does (the order on ties
// still goes through libstdc++'s std::unordered_set and std::sort, since that is what decides
// it). The best-fit search, which upstream runs over every allocation placed so far, works here
// on a segment tree over blocks of execution steps whose nodes hold unions of occupied byte
// ranges (rounded to the alignment, which cannot change which gaps fit): a placement visits
// O(log S) nodes and only the gaps of the union over its lifetime, not every allocation.
//
// Cost: O(N log S log N + gaps examined), see occupancy_tree.h and skyline_holes.h. The gaps
// examined are those of the short-lived allocations' union over each tensor's lifetime; the
// holes that outputs kept live leave for earlier lifetimes (Theta(N) of them when many are) are
// indexed by step and size rather than walked. bench/arena_bench.cc, CPU time: a chain of 100k
// tensors ~150x the reference, 1M in ~1.0 s; the same with every 10th output live (the
// adversarial shape for best fit) ~40x at 100k and 1M in ~1.7 s, and with sizes of 1 kB to
// 100 kB (issue 46's graphs) ~50x and 1M in ~3.5 s, where the reference is quadratic.
#ifndef LIBANALYSIS_ARENA_ARENA_PLANNER_H_
#define LIBANALYSIS_ARENA_ARENA_PLANNER_H_

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

[[nodiscard]] Result<ArenaPlan> PlanArena(const Subgraph& subgraph,
                                          const ArenaPlannerOptions& options = {});

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_ARENA_PLANNER_H_
