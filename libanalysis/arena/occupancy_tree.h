// OccupancyTree answers upstream's best-fit question (SimpleMemoryArena::Allocate in
// tflite/simple_memory_arena.cc) without scanning every placed allocation.
//
// Upstream walks all placed allocations in offset order, skips those whose [first, last] steps
// do not overlap the new tensor's, and looks at the gaps between the rest: the gap before an
// allocation starts at the highest end seen so far (`current`), the tensor fits when
// AlignUp(current) + size <= next offset, and it replaces the best gap so far when its aligned
// gap is smaller than the best gap recorded *unaligned* (end measured from `current`). With no
// fitting gap the tensor goes to AlignUp(highest end).
//
// Two sources hold the placed allocations; a query walks the gaps of their union in offset order.
// - A segment tree over blocks of 16 steps holds, per node, the union of the byte ranges placed
//   there: `own` for allocations whose lifetime covers the node's whole range (a canonical node),
//   `sub` for every allocation meeting the node's range. A lifetime that starts or ends inside a
//   block is also kept in that block's list as it came. A query unions O(log S) sets (`sub` of the
//   blocks and nodes it covers whole, `own` of the nodes it covers in part) and the entries of its
//   partial end blocks that meet it. Sets are sorted vectors: they stay small, since a node over a
//   long range sees its ranges merge. Blocks rather than single steps as leaves keep the tree
//   small and the typical short lifetime (a few steps) inside one block: its query reads one short
//   list instead of climbing the tree (a plain chain of 1M tensors: 3.2 s with step leaves, 0.9 s
//   with blocks; bench/arena_bench.cc).
// - Allocations alive at the last step (graph outputs, whole-run tensors) skip the tree: in it
//   they would sit in the own sets of many nodes, their stacked buffers split between sets, and
//   every query would re-merge them piece by piece. They are byte-disjoint (all alive at one
//   step) and one meets a lifetime [first, last] iff it starts at or before `last`, so they are
//   kept once (the "skyline"): a query reaching the last step takes all of them as one merged
//   set. Others meet only some, with a hole where each later-placed one sits; a small skyline
//   is scanned in offset order, a large one (more than kScannedSkyline) goes to SkylineHoles,
//   which indexes those holes by step and best-fit order and takes the tree's ranges over the
//   lifetime as obstacles.
// Only the `sub` unions some query reads are kept when the planner announces its lifetimes
// (KeepOnlyUnionsReadBy): with short lifetimes, few queries cover a block whole. Queries reaching
// the last step (a skyline allocation's own placement) read unions of their own that leave out
// ranges the skyline's union already held when they were inserted, since those queries meet the
// whole skyline and it only grows. With many outputs live, most short-lived allocations sit in
// the skyline's holes, so climbing the tree for them stops at once (issue 46: with a partition
// per node, the climb through unions of every short-lived range was a quarter of planning).
// Ranges are kept rounded up to the alignment (offsets are aligned, and a gap that only exists
// before rounding can never fit), and each range remembers the highest unaligned end among its
// allocations that end at its rounded end, which is where upstream measures the recorded gap from.
//
// Cost per insertion: O(log S) set updates (stops climbing once a union is unchanged), each
// O(log R + R) for a set of R ranges, plus SkylineHoles' for a skyline allocation. Per query:
// O((gaps + 1) * log S * log R) for the tree and the partial blocks' lists, plus the skyline's
// share: at most kScannedSkyline entries scanned, or SkylineHoles' indexed search. The gaps
// walked are those of the tree's union over the lifetime; the skyline's holes, Theta(K) with
// many outputs kept live, are not walked. Memory: one entry per maximal occupied range per
// node, at most two block-list entries per allocation, SkylineHoles' per skyline allocation.
#ifndef LIBANALYSIS_ARENA_OCCUPANCY_TREE_H_
#define LIBANALYSIS_ARENA_OCCUPANCY_TREE_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "libanalysis/arena/occupied_range.h"
#include "libanalysis/arena/skyline_holes.h"

namespace tfa {

class OccupancyTree {
 public:
  // Skylines up to this many allocations are scanned; larger ones use SkylineHoles' index.
  static constexpr size_t kScannedSkyline = 64;

  // Steps 0..num_steps-1; `alignment` is a power of two. `scanned_skyline` lets tests put every
  // skyline through either path.
  OccupancyTree(int32_t num_steps, uint64_t alignment, size_t scanned_skyline = kScannedSkyline);

  // The offset upstream chooses for `size` > 0 bytes alive at steps [first, last], or nullopt
  // when an offset would overflow. Not safe to call from two threads at once.
  std::optional<uint64_t> BestFitOffset(int32_t first, int32_t last, uint64_t size) const;

  // Marks bytes [offset, offset + size) as used at steps [first, last]; offset is aligned and
  // offset + size rounded up to the alignment must not overflow (the caller checks).
  void Insert(int32_t first, int32_t last, uint64_t offset, uint64_t size);

  // Keeps only the `sub` unions a query over one of `lifetimes` ([first, last] pairs) reads;
  // without it every union is kept. Call before the first Insert; BestFitOffset then answers
  // only those lifetimes.
  void KeepOnlyUnionsReadBy(const std::vector<std::pair<int32_t, int32_t>>& lifetimes);

 private:
  using Range = OccupiedRange;
  using RangeUnion = std::vector<Range>;  // by start; disjoint, never touching

  // An allocation that starts or ends inside a block, kept in that block as it came.
  struct PartialEntry {
    Range range;
    int32_t first;
    int32_t last;
  };
  // Which blocks a lifetime meets: whole ones [covered_first, covered_last] (may be empty),
  // and the blocks at either end when it only partly covers them.
  struct BlockSpan {
    int32_t first_block;
    int32_t last_block;
    int32_t covered_first;
    int32_t covered_last;
    bool first_partial;
    bool last_partial;
  };

  struct SkylineEntry {
    Range range;
    int32_t first;  // the step it is placed at; it lives to the last step
  };

  static constexpr int32_t kBlockSteps = 16;

  // Which queries read a node's `sub` union: those ending before the last step (`sub_`), and
  // those reaching it (`suffix_sub_`).
  enum Readers : uint8_t { kWindowQueries = 1, kSuffixQueries = 2 };

  static bool AddRange(RangeUnion& ranges, const Range& range);
  // Whether adding `range` to `ranges` would change neither the union nor a remembered end.
  static bool Holds(const RangeUnion& ranges, const Range& range);
  BlockSpan SpanOf(int32_t first, int32_t last) const;
  // The sets whose union is the tree's occupancy over [first, last], less the skyline.
  void CollectSets(int32_t first, int32_t last, std::vector<const RangeUnion*>& sets) const;

  uint64_t alignment_;
  int32_t last_step_;
  int32_t leaves_;  // a power of two >= the number of blocks
  std::vector<RangeUnion> own_;
  std::vector<RangeUnion> sub_;
  // `sub` for queries reaching the last step, which meet the whole skyline too: it leaves out
  // what the skyline's union already holds when inserted (the skyline only grows).
  std::vector<RangeUnion> suffix_sub_;
  std::vector<uint8_t> readers_;                    // per node, the Readers of its `sub` unions
  std::vector<std::vector<PartialEntry>> partial_;  // per block
  // Own sets may be non-empty at levels below this one only: queries skip the levels above
  // (short lifetimes fill only the lowest few).
  int own_levels_ = 0;
  size_t scanned_skyline_;
  std::vector<SkylineEntry> skyline_;  // by offset, while it has at most scanned_skyline_ entries
  RangeUnion skyline_union_;           // the union of the whole skyline
  SkylineHoles skyline_holes_;
  // Scratch space reused across calls (so one tree answers one query at a time).
  mutable std::vector<const RangeUnion*> query_sets_;
  mutable std::vector<size_t> query_cursors_;
  mutable RangeUnion query_partial_;
  mutable RangeUnion query_obstacles_;
  // Nodes whose unions may have changed in an Insert, with the Readers kinds that may have.
  std::vector<std::pair<int64_t, uint8_t>> changed_nodes_;
};

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_OCCUPANCY_TREE_H_
