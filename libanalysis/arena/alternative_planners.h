// Alternative planners: what another allocator would make of the same arena blocks (the
// lifetimes and sizes TFLite's plan gives its non-persistent arena), so a report can show what
// TFLite's best fit leaves on the table.
//
// - kTflite: the blocks as TFLite placed them (their own offsets).
// - kTflmGreedy: TFLite Micro's GreedyMemoryPlanner (memory_planner/greedy_memory_planner.cc):
//   blocks by size descending (equal sizes: the later-added block first, since Micro queues
//   buffers from the tail and its bubble sort is stable), each at the lowest offset where it
//   fits among the blocks placed so far that are live at the same time (first fit).
// - kGreedyBySize: the GPU delegate's GreedyBySizeAssignment
//   (delegates/gpu/common/memory_management/greedy_by_size_assignment.cc): blocks by size
//   descending (stable), each in the smallest gap between time-overlapping placed blocks that
//   holds it, gaps measured from the aligned end of the block below; otherwise on top.
// - kGreedyByBreadth: the GPU delegate's GreedyByBreadthAssignment: steps by the total size of
//   the blocks live there (descending), and at each step its blocks by size descending, each
//   assigned to a shared object free over its lifetime (the smallest that already holds it,
//   else the largest, else a new object). Objects are laid out one after another; the size is
//   the sum of object sizes.
// - kOptimal: the smallest arena by branch and bound (see PlanWith).
//
// Every planner keeps offsets aligned and separates blocks by their size rounded up to the
// alignment, as TFLite does; the arena size is the high-water mark max(offset + size), not
// rounded, so all sizes compare with TFLite's arena size and with LowerBound.
// None of these is a byte-exact replay of its upstream (Micro aligns to 16 and the GPU delegate
// plans GPU buffers, not these blocks); they are the same algorithms on TFLite's blocks.
#ifndef LIBANALYSIS_ARENA_ALTERNATIVE_PLANNERS_H_
#define LIBANALYSIS_ARENA_ALTERNATIVE_PLANNERS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/status.h"

namespace tfa {

enum class PlannerKind : uint8_t {
  kTflite,
  kTflmGreedy,
  kGreedyBySize,
  kGreedyByBreadth,
  kOptimal,
};

// "tflite", "tflm-greedy", "greedy-size", "greedy-breadth", "optimal".
const char* PlannerKindName(PlannerKind kind);
[[nodiscard]] Result<PlannerKind> PlannerKindFromName(std::string_view name);

struct AlternativePlannerOptions {
  uint64_t alignment = kDefaultTensorAlignment;  // a power of two
  // kOptimal searches exhaustively only up to this many blocks with bytes...
  size_t optimal_max_blocks = 14;
  // ...and gives up after this many search nodes.
  uint64_t optimal_node_budget = 2'000'000;
};

struct AlternativePlan {
  PlannerKind kind = PlannerKind::kTflite;
  // The input blocks, in input order, with this planner's offsets (zero-byte blocks: 0).
  std::vector<ArenaBlock> blocks;
  uint64_t arena_size = 0;  // max(offset + size)
  // The size is proven minimal: the search finished, or the plan reaches the lower bound.
  bool optimal = false;
  // kOptimal only: the planner whose plan is returned when the search was not run or did not
  // finish (the best heuristic); kOptimal when the search found it.
  PlannerKind found_by = PlannerKind::kTflite;
};

// Plans `blocks` (steps in [0, num_steps), first_step <= last_step) with `kind`.
//
// kOptimal: every heuristic above is run first; when the best of them reaches the lower bound it
// is returned as optimal. Otherwise, with at most `optimal_max_blocks` non-empty blocks, a
// branch and bound over placements in offset order (each block at 0 or on top of a placed
// time-overlapping block, which loses no optimum) proves the minimum within
// `optimal_node_budget` nodes. Beyond either limit it returns the best plan found with
// `optimal` false ("optimal: not proven"), never worse than the best heuristic.
//
// Cost: the greedy planners are O(n^2) in the number of blocks; kOptimal is exponential up to its
// limits.
[[nodiscard]] Result<AlternativePlan> PlanWith(PlannerKind kind,
                                               const std::vector<ArenaBlock>& blocks,
                                               int32_t num_steps,
                                               const AlternativePlannerOptions& options = {});

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_ALTERNATIVE_PLANNERS_H_
