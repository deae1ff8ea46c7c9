// Occupied arena bytes as the fast planner's structures keep them: rounded up to the alignment
// (an aligned offset can never use the part of a gap that exists only before rounding), with the
// unaligned end upstream measures a recorded gap from (tflite/simple_memory_arena.cc).
#ifndef LIBANALYSIS_ARENA_OCCUPIED_RANGE_H_
#define LIBANALYSIS_ARENA_OCCUPIED_RANGE_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tfa {

struct OccupiedRange {
  uint64_t start;
  uint64_t aligned_end;
  uint64_t end;  // highest unaligned end of the allocations ending at aligned_end
};

// Extends `into`'s end to `range`'s when that is higher, keeping the highest unaligned end among
// ranges ending at the same aligned end.
inline void AbsorbEnd(OccupiedRange& into, const OccupiedRange& range) {
  if (range.aligned_end > into.aligned_end) {
    into.aligned_end = range.aligned_end;
    into.end = range.end;
  } else if (range.aligned_end == into.aligned_end) {
    into.end = std::max(into.end, range.end);
  }
}

// Turns any ranges into their union: sorted, disjoint, never touching.
inline void MergeIntoUnion(std::vector<OccupiedRange>& ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const OccupiedRange& a, const OccupiedRange& b) { return a.start < b.start; });
  size_t kept = 0;
  for (const OccupiedRange& range : ranges) {
    if (kept > 0 && range.start <= ranges[kept - 1].aligned_end) {
      AbsorbEnd(ranges[kept - 1], range);
      continue;
    }
    ranges[kept++] = range;
  }
  ranges.resize(kept);
}

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_OCCUPIED_RANGE_H_
