// How XNNPACK lays out the values internal to one runtime in its workspace (XNNPACK
// src/memory-planner.c, xnn_plan_value_allocation_tracker): records are placed largest first
// (ties in record order), each in the smallest gap between the coalesced blocks of the records
// already placed whose node ranges overlap its own, or after the last of them.
//
// Until XNNPACK's "Reuse leading gaps in memory planner" (google/XNNPACK#10801), the space below
// the lowest live block was never a candidate: with one live block the value went after it even
// when it would fit below, so a chain of values the size of their neighbours climbed one value per
// node. With `leading_gap` that space is the first candidate, replaced only by a strictly smaller
// gap between blocks, as the fixed planner does.
//
// Two implementations: the reference transcribes XNNPACK (collect, sort and coalesce the live
// blocks for every record); the fast one keeps the placed records in offset order and coalesces
// while it scans. The property test holds them equal.
#ifndef LIBANALYSIS_ARENA_XNNPACK_MEMORY_PLANNER_H_
#define LIBANALYSIS_ARENA_XNNPACK_MEMORY_PLANNER_H_

#include <cstdint>
#include <vector>

namespace tfa {

struct XnnUsageRecord {
  uint64_t bytes = 0;  // 0: not allocated (external, static, or reusing another value's memory)
  uint32_t first_node = 0;
  uint32_t last_node = 0;  // inclusive, >= first_node
};

struct XnnMemoryPlan {
  std::vector<uint64_t> offsets;  // per record; 0 for records of 0 bytes
  uint64_t arena_bytes = 0;       // max(offset + bytes)
};

XnnMemoryPlan PlanXnnpackValues(const std::vector<XnnUsageRecord>& records,
                                bool leading_gap = false);
XnnMemoryPlan PlanXnnpackValuesReference(const std::vector<XnnUsageRecord>& records,
                                         bool leading_gap = false);

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_XNNPACK_MEMORY_PLANNER_H_
