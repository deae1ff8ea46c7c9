// How XNNPACK lays out the values internal to one runtime in its workspace (XNNPACK
// src/memory-planner.c, xnn_plan_value_allocation_tracker): records are placed largest first
// (ties in record order), each in the smallest gap between the coalesced blocks of the records
// already placed whose node ranges overlap its own, or after the last of them.
//
// Unlike TFLite's arena and the GPU delegate's GreedyBySize, the space below the lowest live
// block is never a candidate: with one live block the value goes after it even when it would fit
// below.
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

XnnMemoryPlan PlanXnnpackValues(const std::vector<XnnUsageRecord>& records);
XnnMemoryPlan PlanXnnpackValuesReference(const std::vector<XnnUsageRecord>& records);

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_XNNPACK_MEMORY_PLANNER_H_
