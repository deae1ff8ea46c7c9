#include "libanalysis/tflm/greedy_memory_planner.h"

#include <algorithm>
#include <cstddef>
#include <optional>

namespace tfa::tflm {
namespace {

bool OverlapInTime(const PlannerBuffer& a, const PlannerBuffer& b) {
  return a.first_used <= b.last_used && b.first_used <= a.last_used;
}

}  // namespace

PlannerResult PlanGreedy(const std::vector<PlannerBuffer>& buffers) {
  PlannerResult result;
  const size_t count = buffers.size();
  result.offsets.assign(count, 0);
  if (count == 0) return result;

  // Upstream fills its sort array with the offline-planned buffers from the front (in order of
  // addition) and the online ones from the back, then bubble-sorts only the online part by size
  // descending; the bubble sort is stable, so equal sizes keep reverse order of addition.
  std::vector<size_t> order;
  order.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    if (buffers[i].offline_offset != PlannerBuffer::kOnlinePlanned) order.push_back(i);
  }
  const size_t offline_count = order.size();
  for (size_t i = count; i-- > 0;) {
    if (buffers[i].offline_offset == PlannerBuffer::kOnlinePlanned) order.push_back(i);
  }
  std::stable_sort(order.begin() + static_cast<ptrdiff_t>(offline_count), order.end(),
                   [&](size_t a, size_t b) { return buffers[a].size > buffers[b].size; });
  auto fixed_offset = [&](size_t id) -> std::optional<uint64_t> {
    if (buffers[id].offline_offset == PlannerBuffer::kOnlinePlanned) return std::nullopt;
    return static_cast<uint64_t>(buffers[id].offline_offset);
  };

  // Placed buffers, ascending by offset; a new buffer goes after the last one with an offset
  // not greater than its own (upstream's linked-list insertion).
  std::vector<size_t> placed;
  placed.push_back(order[0]);
  result.offsets[order[0]] = fixed_offset(order[0]).value_or(0);
  for (size_t k = 1; k < count; ++k) {
    const size_t id = order[k];
    const PlannerBuffer& wanted = buffers[id];
    uint64_t candidate = 0;
    std::optional<size_t> prior;  // position in `placed` of the last live buffer passed over
    while (!fixed_offset(id)) {
      std::optional<size_t> next;
      for (size_t p = prior ? *prior + 1 : 0; p < placed.size(); ++p) {
        if (OverlapInTime(buffers[placed[p]], wanted)) {
          next = p;
          break;
        }
      }
      if (prior) {
        const size_t prior_id = placed[*prior];
        candidate = std::max(candidate, result.offsets[prior_id] + buffers[prior_id].size);
      }
      if (!next) break;
      const uint64_t next_offset = result.offsets[placed[*next]];
      if (next_offset >= candidate && next_offset - candidate >= wanted.size) break;
      prior = next;
    }
    if (auto fixed = fixed_offset(id)) candidate = *fixed;
    result.offsets[id] = candidate;
    size_t insert_at = placed.size();
    if (result.offsets[placed[0]] > candidate) {
      insert_at = 0;
    } else {
      for (size_t p = 1; p < placed.size(); ++p) {
        if (result.offsets[placed[p]] > candidate) {
          insert_at = p;
          break;
        }
      }
    }
    placed.insert(placed.begin() + static_cast<ptrdiff_t>(insert_at), id);
  }
  for (size_t id = 0; id < count; ++id) {
    result.size = std::max(result.size, result.offsets[id] + buffers[id].size);
  }
  return result;
}

}  // namespace tfa::tflm
