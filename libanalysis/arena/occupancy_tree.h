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
// Here a segment tree over steps holds, per node, the union of the byte ranges placed there:
// `own` for allocations whose lifetime covers the node's whole range (a canonical node), `sub` for
// every allocation with a canonical node in the node's subtree. Ranges are kept rounded up to the
// alignment (offsets are aligned, and a gap that only exists before rounding can never fit), and
// each range remembers the highest unaligned end among its allocations that end at its rounded
// end, which is where upstream measures the recorded gap from. A query unions O(log S) such sets
// (own of the nodes partly inside the lifetime, sub of the canonical nodes) and walks only their
// gaps, so it gives exactly upstream's offset.
//
// Cost per insertion O(log S log N) (stops climbing once a union is unchanged); per query
// O((gaps + 1) * log S * log N). Memory: one entry per maximal occupied range per node.
#ifndef LIBANALYSIS_ARENA_OCCUPANCY_TREE_H_
#define LIBANALYSIS_ARENA_OCCUPANCY_TREE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tfa {

class OccupancyTree {
 public:
  // Steps 0..num_steps-1; `alignment` is a power of two.
  OccupancyTree(int32_t num_steps, uint64_t alignment);

  // The offset upstream chooses for `size` > 0 bytes alive at steps [first, last], or nullopt
  // when an offset would overflow.
  std::optional<uint64_t> BestFitOffset(int32_t first, int32_t last, uint64_t size) const;

  // Marks bytes [offset, offset + size) as used at steps [first, last]; offset is aligned and
  // offset + size rounded up to the alignment must not overflow (the caller checks).
  void Insert(int32_t first, int32_t last, uint64_t offset, uint64_t size);

 private:
  struct Range {
    uint64_t aligned_end;
    uint64_t end;  // highest unaligned end of the allocations ending at aligned_end
  };
  using RangeUnion = std::map<uint64_t, Range>;  // by aligned start; disjoint, never touching

  static bool AddRange(RangeUnion& ranges, uint64_t start, const Range& range);
  // The sets whose union is the occupancy over [first, last].
  void CollectSets(int32_t first, int32_t last, std::vector<const RangeUnion*>& sets) const;

  uint64_t alignment_;
  int32_t leaves_;  // a power of two >= num_steps
  std::vector<RangeUnion> own_;
  std::vector<RangeUnion> sub_;
};

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_OCCUPANCY_TREE_H_
