#include "libanalysis/arena/occupancy_tree.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

// A node's level (0 = leaf) and step range in a heap-ordered tree with `leaves` leaves.
struct NodeRange {
  int64_t first;
  int64_t last;
};

NodeRange RangeOf(int64_t node, int level, int64_t leaves) {
  return {(node << level) - leaves, ((node + 1) << level) - leaves - 1};
}

}  // namespace

OccupancyTree::OccupancyTree(int32_t num_steps, uint64_t alignment) : alignment_(alignment) {
  leaves_ = 1;
  while (leaves_ < num_steps) leaves_ *= 2;
  own_.resize(2 * static_cast<size_t>(leaves_));
  sub_.resize(2 * static_cast<size_t>(leaves_));
}

// Adds one range, merging it with every range it overlaps or touches. Returns whether the union
// (or the remembered unaligned end) changed.
bool OccupancyTree::AddRange(RangeUnion& ranges, uint64_t start, const Range& range) {
  auto it = ranges.upper_bound(start);
  if (it != ranges.begin()) {
    auto previous = std::prev(it);
    if (previous->second.aligned_end >= start) it = previous;
  }
  if (it != ranges.end() && it->first <= start &&
      it->second.aligned_end >= range.aligned_end) {
    if (it->second.aligned_end > range.aligned_end || it->second.end >= range.end) return false;
    it->second.end = range.end;
    return true;
  }
  uint64_t merged_start = start;
  Range merged = range;
  while (it != ranges.end() && it->first <= range.aligned_end) {
    merged_start = std::min(merged_start, it->first);
    if (it->second.aligned_end > merged.aligned_end) {
      merged = it->second;
    } else if (it->second.aligned_end == merged.aligned_end) {
      merged.end = std::max(merged.end, it->second.end);
    }
    it = ranges.erase(it);
  }
  ranges.emplace_hint(it, merged_start, merged);
  return true;
}

void OccupancyTree::CollectSets(int32_t first, int32_t last,
                                std::vector<const RangeUnion*>& sets) const {
  sets.clear();
  for (int64_t l = first + int64_t{leaves_}, r = last + int64_t{leaves_} + 1; l < r;
       l >>= 1, r >>= 1) {
    if (l & 1) {
      if (!sub_[l].empty()) sets.push_back(&sub_[l]);
      ++l;
    }
    if (r & 1) {
      --r;
      if (!sub_[r].empty()) sets.push_back(&sub_[r]);
    }
  }
  const int64_t first_leaf = first + int64_t{leaves_};
  const int64_t last_leaf = last + int64_t{leaves_};
  auto add_partly_covered = [&](int64_t node, int level) {
    const NodeRange range = RangeOf(node, level, leaves_);
    const bool inside = range.first >= first && range.last <= last;
    if (!inside && !own_[node].empty()) sets.push_back(&own_[node]);
  };
  for (int level = 1; (first_leaf >> level) >= 1; ++level) {
    const int64_t left = first_leaf >> level;
    const int64_t right = last_leaf >> level;
    add_partly_covered(left, level);
    if (right != left) add_partly_covered(right, level);
  }
}

std::optional<uint64_t> OccupancyTree::BestFitOffset(int32_t first, int32_t last,
                                                     uint64_t size) const {
  std::vector<const RangeUnion*> sets;
  CollectSets(first, last, sets);
  bool found = false;
  uint64_t best_offset = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  uint64_t position = 0;  // aligned end of the occupied run being walked
  const auto smallest_fit = CheckedAlignUp(size, alignment_);
  if (!smallest_fit) return std::nullopt;
  while (true) {
    // Extend `position` to the end of the occupied run, then learn the run's highest unaligned
    // end and where the next run starts, from a pass that no longer moves `position`.
    bool extended = false;
    bool run_ends_here = false;
    uint64_t unaligned_end = 0;
    uint64_t next_start = std::numeric_limits<uint64_t>::max();
    for (const RangeUnion* ranges : sets) {
      auto it = ranges->upper_bound(position);
      if (it != ranges->end()) next_start = std::min(next_start, it->first);
      if (it == ranges->begin()) continue;
      const Range& previous = std::prev(it)->second;
      if (previous.aligned_end > position) {
        position = previous.aligned_end;
        extended = true;
      } else if (previous.aligned_end == position) {
        run_ends_here = true;
        unaligned_end = std::max(unaligned_end, previous.end);
      }
    }
    if (extended) continue;
    if (next_start == std::numeric_limits<uint64_t>::max()) break;
    const uint64_t gap_start = run_ends_here ? unaligned_end : position;
    const auto fit_end = CheckedAdd(position, size);
    if (!fit_end) return std::nullopt;
    if (*fit_end <= next_start && next_start - position < best_gap) {
      found = true;
      best_offset = position;
      best_gap = next_start - gap_start;
      // A later gap replaces this one only if its aligned size is below `best_gap` and at least
      // `size`; aligned sizes are multiples of the alignment, so none can once `best_gap` is
      // the smallest aligned size that holds `size`.
      if (best_gap <= *smallest_fit) break;
    }
    position = next_start;
  }
  if (found) return best_offset;
  if (!CheckedAdd(position, size)) return std::nullopt;
  return position;
}

void OccupancyTree::Insert(int32_t first, int32_t last, uint64_t offset, uint64_t size) {
  const Range range{*CheckedAlignUp(offset + size, alignment_), offset + size};
  // Nodes whose `sub` changed; a parent's `sub` can only change through a changed child.
  std::vector<int64_t> changed;
  for (int64_t l = first + int64_t{leaves_}, r = last + int64_t{leaves_} + 1; l < r;
       l >>= 1, r >>= 1) {
    if (l & 1) {
      AddRange(own_[l], offset, range);
      if (AddRange(sub_[l], offset, range)) changed.push_back(l);
      ++l;
    }
    if (r & 1) {
      --r;
      AddRange(own_[r], offset, range);
      if (AddRange(sub_[r], offset, range)) changed.push_back(r);
    }
  }
  const int64_t first_leaf = first + int64_t{leaves_};
  const int64_t last_leaf = last + int64_t{leaves_};
  for (int level = 1; (first_leaf >> level) >= 1 && !changed.empty(); ++level) {
    const int64_t left = first_leaf >> level;
    const int64_t right = last_leaf >> level;
    auto update = [&](int64_t node) {
      const NodeRange node_range = RangeOf(node, level, leaves_);
      const bool inside = node_range.first >= first && node_range.last <= last;
      const bool child_changed =
          std::find_if(changed.begin(), changed.end(), [node](int64_t c) {
            return (c >> 1) == node;
          }) != changed.end();
      if (!inside && child_changed && AddRange(sub_[node], offset, range)) {
        changed.push_back(node);
      }
    };
    update(left);
    if (right != left) update(right);
  }
}

}  // namespace tfa
