// The reference arena planner: upstream's ArenaPlanner + SimpleMemoryArena replayed loop for
// loop (tflite/arena_planner.cc, tflite/simple_memory_arena.cc of google-ai-edge/LiteRT), for one
// planning pass over the whole execution plan as AllocateTensors does on a static graph.
//
// It is the specification the fast planner (arena_planner.h) is tested against, and it is as slow
// as upstream: every placement scans every allocation placed so far (quadratic).
//
// Guarantees: the same offsets, lifetimes, in-place aliases and high-water marks upstream
// computes when built with libstdc++ (the allocation order on ties follows libstdc++'s
// std::unordered_set iteration and std::sort; an upstream built with libc++ may break ties
// differently).
#ifndef LIBANALYSIS_ARENA_ARENA_PLANNER_REFERENCE_H_
#define LIBANALYSIS_ARENA_ARENA_PLANNER_REFERENCE_H_

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

[[nodiscard]] Result<ArenaPlan> PlanArenaReference(const Subgraph& subgraph,
                                                   const ArenaPlannerOptions& options = {});

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_ARENA_PLANNER_REFERENCE_H_
