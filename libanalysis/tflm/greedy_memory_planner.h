// TFLite Micro's GreedyMemoryPlanner (memory_planner/greedy_memory_planner.cc), loop for loop:
// buffers are placed largest first, each at the lowest offset where it fits between the buffers
// already placed that are live at the same time. Like upstream, this is not guaranteed to find
// the smallest arena (that is NP-complete); it reproduces upstream's placement exactly,
// including its tie order (equal sizes go in reverse order of addition).
// A buffer with an offline offset (the model's OfflineMemoryAllocation plan) is not placed: it is
// fixed at its offset and enters the offset-ordered list first, in order of addition, unsorted,
// so that the online buffers are fitted into the gaps it leaves.
#ifndef LIBANALYSIS_TFLM_GREEDY_MEMORY_PLANNER_H_
#define LIBANALYSIS_TFLM_GREEDY_MEMORY_PLANNER_H_

#include <cstdint>
#include <vector>

namespace tfa::tflm {

struct PlannerBuffer {
  uint64_t size = 0;       // already aligned by the caller (CreatePlan aligns to 16)
  int32_t first_used = 0;  // allocation scopes, inclusive
  int32_t last_used = 0;
  int64_t offline_offset = kOnlinePlanned;

  static constexpr int64_t kOnlinePlanned = -1;  // kOnlinePlannedBuffer
};

struct PlannerResult {
  std::vector<uint64_t> offsets;  // one per buffer, in the order they were added
  uint64_t size = 0;              // GetMaximumMemorySize
};

PlannerResult PlanGreedy(const std::vector<PlannerBuffer>& buffers);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_GREEDY_MEMORY_PLANNER_H_
