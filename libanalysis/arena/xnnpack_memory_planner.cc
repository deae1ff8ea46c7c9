#include "libanalysis/arena/xnnpack_memory_planner.h"

#include <algorithm>
#include <limits>

namespace tfa {
namespace {

struct Block {
  uint64_t start = 0;
  uint64_t end = 0;  // exclusive
};

bool Overlap(const XnnUsageRecord& a, const XnnUsageRecord& b) {
  return a.first_node <= b.last_node && b.first_node <= a.last_node;
}

// find_value_alloc_offset: one live block gives its end; more are sorted by start and
// coalesced where they touch or overlap, and the first smallest gap that holds `bytes` wins.
// With `leading_gap`, the space below the first block is the first candidate.
uint64_t FindOffset(std::vector<Block>& live, uint64_t bytes, bool leading_gap) {
  if (live.empty()) return 0;
  if (live.size() == 1 && !leading_gap) return live[0].end;
  std::sort(live.begin(), live.end(),
            [](const Block& a, const Block& b) { return a.start < b.start; });
  size_t coalesced = 1;
  for (size_t i = 1; i < live.size(); ++i) {
    if (live[i].start > live[coalesced - 1].end) {
      live[coalesced++] = live[i];
    } else {
      live[coalesced - 1].end = std::max(live[coalesced - 1].end, live[i].end);
    }
  }
  uint64_t smallest_gap = std::numeric_limits<uint64_t>::max();
  uint64_t offset = live[coalesced - 1].end;
  if (leading_gap && live[0].start >= bytes) {
    smallest_gap = live[0].start;
    offset = 0;
  }
  for (size_t i = 0; i + 1 < coalesced; ++i) {
    const uint64_t gap = live[i + 1].start - live[i].end;
    if (gap >= bytes && gap < smallest_gap) {
      smallest_gap = gap;
      offset = live[i].end;
    }
  }
  return offset;
}

// The records to place, largest first. XNNPACK sorts with qsort, which gives ties no order;
// record order is what a stable sort (glibc's merge sort) keeps.
std::vector<size_t> PlacingOrder(const std::vector<XnnUsageRecord>& records) {
  std::vector<size_t> order;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].bytes != 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].bytes > records[b].bytes; });
  return order;
}

}  // namespace

XnnMemoryPlan PlanXnnpackValues(const std::vector<XnnUsageRecord>& records, bool leading_gap) {
  XnnMemoryPlan plan;
  plan.offsets.assign(records.size(), 0);
  std::vector<size_t> by_offset;  // placed records, by offset
  for (size_t i : PlacingOrder(records)) {
    const XnnUsageRecord& current = records[i];
    bool any_live = false;
    uint64_t block_end = 0;  // end of the coalesced block being scanned
    uint64_t smallest_gap = std::numeric_limits<uint64_t>::max();
    bool gap_found = false;
    uint64_t offset = 0;
    for (size_t placed : by_offset) {
      if (!Overlap(current, records[placed])) continue;
      const uint64_t start = plan.offsets[placed];
      const uint64_t end = start + records[placed].bytes;
      if (leading_gap && !any_live && start >= current.bytes) {
        smallest_gap = start;
        offset = 0;
        gap_found = true;
      }
      if (any_live && start > block_end) {
        const uint64_t gap = start - block_end;
        if (gap >= current.bytes && gap < smallest_gap) {
          smallest_gap = gap;
          offset = block_end;
          gap_found = true;
        }
        block_end = end;
      } else {
        block_end = any_live ? std::max(block_end, end) : end;
      }
      any_live = true;
    }
    if (!gap_found) offset = block_end;
    by_offset.insert(std::upper_bound(by_offset.begin(), by_offset.end(), offset,
                                      [&](uint64_t value, size_t placed) {
                                        return value < plan.offsets[placed];
                                      }),
                     i);
    plan.offsets[i] = offset;
    plan.arena_bytes = std::max(plan.arena_bytes, offset + current.bytes);
  }
  return plan;
}

XnnMemoryPlan PlanXnnpackValuesReference(const std::vector<XnnUsageRecord>& records,
                                         bool leading_gap) {
  XnnMemoryPlan plan;
  plan.offsets.assign(records.size(), 0);
  const std::vector<size_t> order = PlacingOrder(records);
  std::vector<Block> live;
  for (size_t k = 0; k < order.size(); ++k) {
    const XnnUsageRecord& current = records[order[k]];
    live.clear();
    for (size_t j = 0; j < k; ++j) {
      const XnnUsageRecord& placed = records[order[j]];
      if (!Overlap(current, placed)) continue;
      const uint64_t start = plan.offsets[order[j]];
      live.push_back({start, start + placed.bytes});
    }
    const uint64_t offset = FindOffset(live, current.bytes, leading_gap);
    plan.offsets[order[k]] = offset;
    plan.arena_bytes = std::max(plan.arena_bytes, offset + current.bytes);
  }
  return plan;
}

}  // namespace tfa
