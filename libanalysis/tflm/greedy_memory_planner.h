// TFLite Micro's GreedyMemoryPlanner (memory_planner/greedy_memory_planner.cc), loop for loop:
// buffers are placed largest first, each at the lowest offset where it fits between the buffers
// already placed that are live at the same time. Like upstream, this is not guaranteed to find
// the smallest arena (that is NP-complete); it reproduces upstream's placement exactly,
// including its tie order (equal sizes go in reverse order of addition).
#ifndef LIBANALYSIS_TFLM_GREEDY_MEMORY_PLANNER_H_
#define LIBANALYSIS_TFLM_GREEDY_MEMORY_PLANNER_H_

#include <cstdint>
#include <vector>

namespace tfa::tflm {

struct PlannerBuffer {
  uint64_t size = 0;       // already aligned by the caller (CreatePlan aligns to 16)
  int32_t first_used = 0;  // allocation scopes, inclusive
  int32_t last_used = 0;
};

struct PlannerResult {
  std::vector<uint64_t> offsets;  // one per buffer, in the order they were added
  uint64_t size = 0;              // GetMaximumMemorySize
};

PlannerResult PlanGreedy(const std::vector<PlannerBuffer>& buffers);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_GREEDY_MEMORY_PLANNER_H_
