#include "libanalysis/report/live_arena_bytes.h"

#include <algorithm>

namespace tfa {

std::vector<uint64_t> LiveArenaBytes(const ArenaPlan& plan) {
  const size_t steps = static_cast<size_t>(std::max(plan.num_steps, 0));
  // Bytes arriving and leaving at each step, summed from the left: linear in blocks + steps. The
  // blocks live at one step occupy disjoint ranges of an arena whose end the planner checked, so
  // no sum here can overflow.
  std::vector<uint64_t> arriving(steps + 1, 0), leaving(steps + 1, 0);
  for (const ArenaBlock& block : plan.rw_blocks) {
    if (block.first_step < 0 || block.first_step > block.last_step ||
        static_cast<size_t>(block.first_step) >= steps) {
      continue;
    }
    const size_t last = std::min(static_cast<size_t>(block.last_step), steps - 1);
    arriving[static_cast<size_t>(block.first_step)] += block.size;
    leaving[last + 1] += block.size;
  }
  std::vector<uint64_t> live(steps, 0);
  uint64_t bytes = 0;
  for (size_t step = 0; step < steps; ++step) {
    bytes = bytes - leaving[step] + arriving[step];
    live[step] = bytes;
  }
  return live;
}

}  // namespace tfa
