// SkylineHoles answers upstream's best-fit question (see occupancy_tree.h) for a lifetime
// ending before the last step, over the allocations that live to the last step (the "skyline":
// graph outputs, whole-run tensors) plus a few other occupied ranges, without walking every gap.
//
// Skyline allocations are byte-disjoint (all are alive at the last step), and one placed at
// step s meets a lifetime ending at b iff s <= b. So the gaps between the skyline allocations a
// lifetime ending at b meets, its "holes", depend on b alone: a hole lies between two
// allocations L and R, adjacent in offset order among those placed at or before b, and exists
// for every b from max(s_L, s_R) until the first allocation placed between them appears. With
// many outputs live, a lifetime sees Theta(K) holes (later outputs leave one each), and best fit
// wants the smallest that holds the tensor; walking them all made planning quadratic.
//
// So holes are indexed: a segment tree over blocks of b whose nodes keep, in best-fit order, the
// holes whose b-range covers the node's blocks whole (a hole sits in O(log S) nodes), a list per
// block of the holes whose b-range starts or ends inside it, and a B-tree over offsets
// whose nodes keep the earliest step placed below each child (EarliestStepBTree: to find the
// nearest allocation a lifetime meets on either side of an offset, and the first step at which a
// hole closes). Placing an allocation closes the holes it falls in and opens the two on its sides.
// Blocks rather than single steps as leaves (issue 46): most holes live for thousands of steps,
// so the lowest levels of a tree over steps held a hole or two per node, each a set of its own
// that every query climbed through (a third of the index's memory, a cache miss a level). A
// block's list is short: a hole starts where one of its sides is placed, or ends where an
// allocation between them is, so a block lists at most three holes per skyline allocation placed
// at its steps, and a query scans its block's list whole.
//
// A query gets the other occupied ranges it meets ("obstacles": the short-lived allocations,
// merged). A hole no obstacle reaches is a gap as it is; the index gives the best of those, in
// best-fit order, skipping the reached ones. Holes an obstacle reaches are split by walking the
// obstacles inside them. Best-fit order is upstream's tie rule (occupancy_tree_test.cc pins it):
// smallest aligned size; among equal ones the first with an aligned start, else the last.
//
// Cost, with D the B-tree's cost per search (its fanout times log K) and P the longest block
// list: a placement O(c * (D + log S * log H + P)) for the c holes it falls in over the steps it
// is alive; a query O(log S * (log H + skipped holes) + P + obstacles * D + reached holes *
// log obstacles): only the holes at an obstacle's two ends are split, since those it covers whole
// keep no gap.
#ifndef LIBANALYSIS_ARENA_SKYLINE_HOLES_H_
#define LIBANALYSIS_ARENA_SKYLINE_HOLES_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "libanalysis/arena/earliest_step_btree.h"
#include "libanalysis/arena/occupied_range.h"
#include "libanalysis/arena/sorted_chunks.h"

namespace tfa {

class SkylineHoles {
 public:
  // The steps of a leaf of the hole index.
  static constexpr int32_t kBlockSteps = 32;

  // Lifetimes end at steps 0..last_step; `alignment` is a power of two. `block_steps` (> 0) lets
  // tests put holes through both the tree and the block lists.
  SkylineHoles(int32_t last_step, uint64_t alignment, int32_t block_steps = kBlockSteps);

  // An allocation placed at step `first` that lives to the last step; byte-disjoint from those
  // inserted before, size > 0, aligned start.
  void Insert(int32_t first, const OccupiedRange& range);
  size_t size() const { return entries_.size(); }

  // The offset upstream's best fit gives `size` > 0 bytes alive until step `last` (< last step)
  // among the skyline allocations placed at or before `last` and `obstacles` (disjoint, sorted,
  // never touching), or nullopt when an offset would overflow.
  std::optional<uint64_t> BestFitOffset(int32_t last, uint64_t size,
                                        const std::vector<OccupiedRange>& obstacles) const;

 private:
  static constexpr int32_t kNone = -1;

  struct Entry {
    OccupiedRange range;
    int32_t first;
  };
  // A hole as the index orders it: aligned size, then an aligned start before an unaligned one,
  // then aligned starts in offset order and unaligned ones in reverse (upstream keeps the first
  // smallest aligned gap, unless its start was unaligned; then the next equal one replaces it).
  // 16 bytes, made and read by MakeKey and StartOf: `order` is the start in alignment units,
  // with the top bit set and the rest reversed for an unaligned start (only possible when the
  // alignment is 2 or more, so the units fit in 63 bits).
  struct HoleKey {
    uint64_t aligned_size;
    uint64_t order;
    bool operator<(const HoleKey& other) const {
      return aligned_size != other.aligned_size ? aligned_size < other.aligned_size
                                                : order < other.order;
    }
  };
  struct Hole {
    int32_t left;   // entry or kNone (the arena's start)
    int32_t right;  // entry or kNone (open above)
  };
  struct StepRange {
    int32_t first;
    int32_t last;
  };
  // A hole whose steps start or end inside a block, in that block's list.
  struct BlockHole {
    HoleKey key;
    StepRange steps;
  };

  static constexpr uint64_t kUnalignedStart = uint64_t{1} << 63;
  HoleKey MakeKey(uint64_t aligned_size, uint64_t aligned_start, bool unaligned) const {
    const uint64_t units = aligned_start >> alignment_shift_;
    return {aligned_size, unaligned ? kUnalignedStart | (kUnalignedStart - 1 - units) : units};
  }
  uint64_t StartOf(const HoleKey& key) const {
    const bool unaligned = alignment_ > 1 && (key.order & kUnalignedStart);
    return (unaligned ? kUnalignedStart - 1 - (key.order & ~kUnalignedStart) : key.order)
           << alignment_shift_;
  }

  uint64_t Key(int32_t entry) const { return entries_[entry].range.start / alignment_; }
  int32_t EarliestOf(int32_t entry) const { return entry == kNone ? 0 : entries_[entry].first; }
  // The entries placed at or before `step` with the largest offset < `key` and the smallest
  // offset >= `key`, each kNone when there is none.
  std::pair<int32_t, int32_t> MetAround(uint64_t key, int32_t step) const;
  // The entry with the largest offset < `key` placed at or before `step`, or kNone.
  int32_t PreviousMet(uint64_t key, int32_t step) const;
  // The earliest step among entries with keys in [from, to].
  int32_t EarliestIn(uint64_t from, uint64_t to) const;

  // The steps at which `hole`'s two sides are adjacent among the entries met (may be empty),
  // limited to the steps a query can have (before the last step).
  StepRange StepsOf(const Hole& hole) const;
  // Whether `hole` can hold anything (has a right side and a positive aligned size).
  std::optional<HoleKey> KeyOf(const Hole& hole) const;
  void IndexHole(const Hole& hole, bool add);

  uint64_t alignment_;
  int alignment_shift_;  // log2 of alignment_
  int32_t last_step_;
  int32_t block_steps_;
  std::vector<Entry> entries_;
  uint64_t highest_end_ = 0;         // the highest aligned end among entries_
  EarliestStepBTree<> met_;          // the entries by key, with the step each is placed at
  int32_t index_leaves_ = 1;         // a power of two >= the number of blocks
  std::vector<int32_t> index_slot_;  // per segment-tree node: its set in index_sets_, or kNone
  std::vector<SortedChunks<HoleKey>> index_sets_;
  std::vector<std::vector<BlockHole>> block_holes_;  // per block
  // Scratch space reused across Insert calls.
  std::vector<Hole> split_holes_;
  std::vector<Hole> opened_holes_;
  // Scratch space for BestFitOffset (so one SkylineHoles answers one query at a time).
  mutable std::vector<std::pair<int32_t, int32_t>> obstacle_neighbours_;
};

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_SKYLINE_HOLES_H_
