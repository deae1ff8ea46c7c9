#include "libanalysis/arena/gpu_memory_assignment.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tfa {
namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kNoObject = std::numeric_limits<uint32_t>::max();

bool Intersect(const GpuUsageRecord& a, const GpuUsageRecord& b) {
  return a.first_task <= b.last_task && b.first_task <= a.last_task;
}

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Records by size, largest first; ties keep record order (upstream's stable sort, CompareBySize).
std::vector<size_t> BySizeDescending(const std::vector<GpuUsageRecord>& records,
                                     std::vector<size_t> indices) {
  std::stable_sort(indices.begin(), indices.end(),
                   [&](size_t a, size_t b) { return records[a].bytes > records[b].bytes; });
  return indices;
}

// upstream's CalculateTaskProfiles: per task, the records live there, largest first.
std::vector<std::vector<size_t>> TaskProfiles(const std::vector<GpuUsageRecord>& records) {
  uint32_t tasks = 0;
  for (const GpuUsageRecord& r : records) tasks = std::max(tasks, r.last_task + 1);
  std::vector<std::vector<size_t>> profiles(tasks);
  for (size_t i = 0; i < records.size(); ++i) {
    for (uint32_t t = records[i].first_task; t <= records[i].last_task; ++t)
      profiles[t].push_back(i);
  }
  for (auto& profile : profiles) profile = BySizeDescending(records, std::move(profile));
  return profiles;
}

// Per record: its distance to every object (kNone where a record of the object overlaps it), the
// smallest of them and its object, and its position among the positional maximums.
struct Priority {
  size_t position = 0;
  std::vector<uint64_t> distance;
  uint64_t best_distance = kNone;
  uint32_t best_object = kNoObject;

  void RecomputeBest() {
    best_distance = kNone;
    for (uint32_t object = 0; object < distance.size(); ++object) {
      if (distance[object] < best_distance) {
        best_distance = distance[object];
        best_object = object;
      }
    }
  }
};

uint64_t Distance(const GpuUsageRecord& a, const GpuUsageRecord& b) {
  if (a.last_task < b.first_task) return b.first_task - a.last_task;
  if (b.last_task < a.first_task) return a.first_task - b.last_task;
  return kNone;
}

}  // namespace

uint64_t GpuObjectsAssignment::TotalBytes() const {
  return std::accumulate(object_bytes.begin(), object_bytes.end(), uint64_t{0});
}

GpuObjectsAssignment AssignGreedyBySizeDistance(const std::vector<GpuUsageRecord>& records) {
  // Positional maximums: the i-th largest record live at any one task, maximised over tasks.
  std::vector<uint64_t> positional_max;
  for (const auto& profile : TaskProfiles(records)) {
    for (size_t i = 0; i < profile.size(); ++i) {
      const uint64_t bytes = records[profile[i]].bytes;
      if (i < positional_max.size()) {
        positional_max[i] = std::max(positional_max[i], bytes);
      } else {
        positional_max.push_back(bytes);
      }
    }
  }
  std::vector<Priority> priority(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    size_t position = 0;
    while (position < positional_max.size() && positional_max[position] >= records[i].bytes)
      ++position;
    // Every record is live at its own tasks, so position >= 1.
    priority[i].position = position - 1;
  }
  // Higher priority: the leftmost position, then the smallest distance, then the larger record.
  auto higher = [&](size_t a, size_t b) {
    const Priority& x = priority[a];
    const Priority& y = priority[b];
    if (x.position != y.position) return x.position < y.position;
    if (x.best_distance != y.best_distance) return x.best_distance < y.best_distance;
    return records[a].bytes > records[b].bytes;
  };

  GpuObjectsAssignment result;
  result.object_of.assign(records.size(), kNoObject);
  for (size_t round = 0; round < records.size(); ++round) {
    size_t chosen = records.size();
    for (size_t i = 0; i < records.size(); ++i) {
      if (result.object_of[i] != kNoObject) continue;
      if (chosen == records.size() || higher(i, chosen)) chosen = i;
    }
    const bool new_object = priority[chosen].best_distance == kNone;
    uint32_t object = priority[chosen].best_object;
    if (new_object) {
      object = static_cast<uint32_t>(result.object_bytes.size());
      result.object_bytes.push_back(records[chosen].bytes);
    } else {
      result.object_bytes[object] = std::max(result.object_bytes[object], records[chosen].bytes);
    }
    result.object_of[chosen] = object;

    for (size_t i = 0; i < records.size(); ++i) {
      if (result.object_of[i] != kNoObject) continue;
      Priority& p = priority[i];
      if (!new_object && p.distance[object] == kNone) continue;  // already overlaps the object
      const uint64_t distance = Distance(records[i], records[chosen]);
      if (new_object) {
        p.distance.push_back(distance);
      } else if (distance == kNone) {
        p.distance[object] = kNone;
        if (p.best_object == object) p.RecomputeBest();
      } else {
        p.distance[object] = std::min(p.distance[object], distance);
      }
      if (distance < p.best_distance) {
        p.best_distance = distance;
        p.best_object = object;
      }
    }
  }
  return result;
}

GpuObjectsAssignment AssignGreedyByBreadth(const std::vector<GpuUsageRecord>& records) {
  const std::vector<std::vector<size_t>> profiles = TaskProfiles(records);
  std::vector<uint64_t> breadth(profiles.size(), 0);
  for (size_t task = 0; task < profiles.size(); ++task) {
    for (size_t i : profiles[task]) breadth[task] += records[i].bytes;
  }
  // Widest tasks first; equal breadths keep task order (upstream stable-sorts the reversed range).
  std::vector<size_t> tasks(profiles.size());
  std::iota(tasks.begin(), tasks.end(), size_t{0});
  std::stable_sort(tasks.begin(), tasks.end(),
                   [&](size_t a, size_t b) { return breadth[a] > breadth[b]; });

  GpuObjectsAssignment result;
  result.object_of.assign(records.size(), kNoObject);
  std::vector<std::vector<size_t>> object_records;
  for (size_t task : tasks) {
    for (size_t i : profiles[task]) {
      if (result.object_of[i] != kNoObject) continue;
      const GpuUsageRecord& record = records[i];
      const size_t objects = result.object_bytes.size();
      size_t best = objects;
      for (size_t object = 0; object < objects; ++object) {
        if (best != objects) {
          // The smallest object that holds the record; while none does, the largest.
          const uint64_t best_bytes = result.object_bytes[best];
          const uint64_t bytes = result.object_bytes[object];
          const bool better = best_bytes < record.bytes
                                  ? bytes > best_bytes
                                  : bytes >= record.bytes && bytes < best_bytes;
          if (!better) continue;
        }
        const bool free =
            std::none_of(object_records[object].begin(), object_records[object].end(),
                         [&](size_t other) { return Intersect(records[other], record); });
        if (free) best = object;
      }
      if (best == objects) {
        result.object_bytes.push_back(record.bytes);
        object_records.emplace_back();
      } else {
        result.object_bytes[best] = std::max(result.object_bytes[best], record.bytes);
      }
      object_records[best].push_back(i);
      result.object_of[i] = static_cast<uint32_t>(best);
    }
  }
  return result;
}

GpuObjectsAssignment AssignGreedyBest(const std::vector<GpuUsageRecord>& records) {
  GpuObjectsAssignment by_size = AssignGreedyBySizeDistance(records);
  GpuObjectsAssignment by_breadth = AssignGreedyByBreadth(records);
  return by_breadth.TotalBytes() < by_size.TotalBytes() ? by_breadth : by_size;
}

GpuOffsetsAssignment AssignGreedyBySizeOffsets(const std::vector<GpuUsageRecord>& records,
                                               uint64_t alignment) {
  std::vector<size_t> all(records.size());
  std::iota(all.begin(), all.end(), size_t{0});
  GpuOffsetsAssignment result;
  result.offsets.assign(records.size(), 0);
  std::vector<size_t> by_offset;  // placed records, by offset; equal offsets in placing order
  for (size_t i : BySizeDescending(records, std::move(all))) {
    const GpuUsageRecord& record = records[i];
    uint64_t best_gap = kNone;
    uint64_t best_offset = kNone;
    uint64_t previous_end = 0;  // aligned end of the overlapping records below
    for (size_t placed : by_offset) {
      if (!Intersect(records[placed], record)) continue;
      const uint64_t offset = result.offsets[placed];
      // The smallest gap below a placed record that holds this one; the first of equal gaps.
      if (offset >= previous_end) {
        const uint64_t gap = offset - previous_end;
        if (gap >= record.bytes && gap < best_gap) {
          best_gap = gap;
          best_offset = previous_end;
        }
      }
      previous_end = std::max(previous_end, AlignUp(offset + records[placed].bytes, alignment));
    }
    if (best_offset == kNone) best_offset = previous_end;
    auto position = std::find_if(by_offset.begin(), by_offset.end(), [&](size_t placed) {
      return result.offsets[placed] > best_offset;
    });
    by_offset.insert(position, i);
    result.offsets[i] = best_offset;
    result.total_bytes = std::max(result.total_bytes, best_offset + record.bytes);
  }
  return result;
}

GpuSharedBuffers PlanGpuSharedBuffers(const std::vector<GpuUsageRecord>& records,
                                      uint64_t base_alignment, bool sub_buffers) {
  GpuSharedBuffers plan;
  if (records.empty()) return plan;
  const uint64_t alignment = std::max<uint64_t>(base_alignment, 1);
  plan.objects = AssignGreedyBest(records);
  if (sub_buffers) {
    GpuOffsetsAssignment offsets = AssignGreedyBySizeOffsets(records, alignment);
    // Compared with the objects' sum before alignment, as upstream does (GetBufferAssignment).
    if (offsets.total_bytes <= plan.objects.TotalBytes()) {
      plan.uses_offsets = true;
      plan.offsets = std::move(offsets.offsets);
      plan.buffer_bytes = {offsets.total_bytes};
      plan.total_bytes = offsets.total_bytes;
      return plan;
    }
    // The objects one after another in one parent buffer, each rounded up to the alignment.
    std::vector<uint64_t> object_offset(plan.objects.object_bytes.size());
    uint64_t end = 0;
    for (size_t object = 0; object < object_offset.size(); ++object) {
      object_offset[object] = end;
      end += AlignUp(plan.objects.object_bytes[object], alignment);
    }
    for (uint32_t object : plan.objects.object_of) plan.offsets.push_back(object_offset[object]);
    plan.buffer_bytes = {end};
    plan.total_bytes = end;
    return plan;
  }
  plan.buffer_bytes = plan.objects.object_bytes;
  plan.total_bytes = plan.objects.TotalBytes();
  return plan;
}

}  // namespace tfa
