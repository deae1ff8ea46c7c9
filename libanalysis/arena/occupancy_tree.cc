#include "libanalysis/arena/occupancy_tree.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

// A node's level (0 = leaf) and block range in a heap-ordered tree with `leaves` leaves.
struct NodeRange {
  int64_t first;
  int64_t last;
};

NodeRange RangeOf(int64_t node, int level, int64_t leaves) {
  return {(node << level) - leaves, ((node + 1) << level) - leaves - 1};
}

}  // namespace

OccupancyTree::OccupancyTree(int32_t num_steps, uint64_t alignment, size_t scanned_skyline)
    : alignment_(alignment),
      last_step_(num_steps - 1),
      scanned_skyline_(scanned_skyline),
      skyline_holes_(num_steps - 1, alignment) {
  const int64_t blocks = (int64_t{num_steps} + kBlockSteps - 1) / kBlockSteps;
  leaves_ = 1;
  while (leaves_ < blocks) leaves_ *= 2;
  own_.resize(2 * static_cast<size_t>(leaves_));
  sub_.resize(2 * static_cast<size_t>(leaves_));
  suffix_sub_.resize(2 * static_cast<size_t>(leaves_));
  readers_.assign(2 * static_cast<size_t>(leaves_), kWindowQueries | kSuffixQueries);
  partial_.resize(static_cast<size_t>(blocks));
}

OccupancyTree::BlockSpan OccupancyTree::SpanOf(int32_t first, int32_t last) const {
  BlockSpan span;
  span.first_block = first / kBlockSteps;
  span.last_block = last / kBlockSteps;
  auto covers = [&](int32_t block) {
    const int64_t block_last =
        std::min<int64_t>(int64_t{block} * kBlockSteps + kBlockSteps - 1, last_step_);
    return first <= int64_t{block} * kBlockSteps && last >= block_last;
  };
  span.first_partial = !covers(span.first_block);
  span.last_partial = span.last_block != span.first_block && !covers(span.last_block);
  span.covered_first = span.first_partial ? span.first_block + 1 : span.first_block;
  span.covered_last = covers(span.last_block) ? span.last_block : span.last_block - 1;
  return span;
}

// Adds one range, merging it with every range it overlaps or touches. Returns whether the union
// (or the remembered unaligned end) changed.
bool OccupancyTree::AddRange(RangeUnion& ranges, const Range& range) {
  auto by_start = [](uint64_t start, const Range& r) { return start < r.start; };
  auto it = std::upper_bound(ranges.begin(), ranges.end(), range.start, by_start);
  if (it != ranges.begin() && std::prev(it)->aligned_end >= range.start) it = std::prev(it);
  if (it != ranges.end() && it->start <= range.start && it->aligned_end >= range.aligned_end) {
    if (it->aligned_end > range.aligned_end || it->end >= range.end) return false;
    it->end = range.end;
    return true;
  }
  Range merged = range;
  auto last = it;
  for (; last != ranges.end() && last->start <= range.aligned_end; ++last) {
    merged.start = std::min(merged.start, last->start);
    AbsorbEnd(merged, *last);
  }
  if (it == last) {
    ranges.insert(it, merged);
  } else {
    *it = merged;
    ranges.erase(std::next(it), last);
  }
  return true;
}

bool OccupancyTree::Holds(const RangeUnion& ranges, const Range& range) {
  auto by_start = [](uint64_t start, const Range& r) { return start < r.start; };
  auto it = std::upper_bound(ranges.begin(), ranges.end(), range.start, by_start);
  if (it == ranges.begin()) return false;
  --it;
  return it->aligned_end > range.aligned_end ||
         (it->aligned_end == range.aligned_end && it->end >= range.end);
}

void OccupancyTree::KeepOnlyUnionsReadBy(
    const std::vector<std::pair<int32_t, int32_t>>& lifetimes) {
  std::fill(readers_.begin(), readers_.end(), 0);
  for (const auto& [first, last] : lifetimes) {
    const BlockSpan span = SpanOf(first, last);
    const uint8_t reader = last >= last_step_ ? kSuffixQueries : kWindowQueries;
    for (int64_t l = span.covered_first + int64_t{leaves_},
                 r = span.covered_last + int64_t{leaves_} + 1;
         l < r; l >>= 1, r >>= 1) {
      if (l & 1) readers_[l++] |= reader;
      if (r & 1) readers_[--r] |= reader;
    }
  }
}

void OccupancyTree::CollectSets(int32_t first, int32_t last,
                                std::vector<const RangeUnion*>& sets) const {
  sets.clear();
  const BlockSpan span = SpanOf(first, last);
  const std::vector<RangeUnion>& subs = last >= last_step_ ? suffix_sub_ : sub_;
  for (int64_t l = span.covered_first + int64_t{leaves_},
               r = span.covered_last + int64_t{leaves_} + 1;
       l < r; l >>= 1, r >>= 1) {
    if (l & 1) {
      if (!subs[l].empty()) sets.push_back(&subs[l]);
      ++l;
    }
    if (r & 1) {
      --r;
      if (!subs[r].empty()) sets.push_back(&subs[r]);
    }
  }
  // Allocations covering a whole node that the lifetime only partly covers (the partial blocks
  // and their ancestors) meet the lifetime too.
  const int64_t first_leaf = span.first_block + int64_t{leaves_};
  const int64_t last_leaf = span.last_block + int64_t{leaves_};
  auto add_partly_covered = [&](int64_t node, int level) {
    const NodeRange range = RangeOf(node, level, leaves_);
    const bool inside = range.first >= span.covered_first && range.last <= span.covered_last;
    if (!inside && !own_[node].empty()) sets.push_back(&own_[node]);
  };
  for (int level = 0; level < own_levels_ && (first_leaf >> level) >= 1; ++level) {
    const int64_t left = first_leaf >> level;
    const int64_t right = last_leaf >> level;
    add_partly_covered(left, level);
    if (right != left) add_partly_covered(right, level);
  }
  // Allocations starting or ending inside a partial block are kept there as they came.
  RangeUnion& partial = query_partial_;
  partial.clear();
  auto add_partial_block = [&](int32_t block) {
    for (const PartialEntry& entry : partial_[block]) {
      if (entry.first <= last && entry.last >= first) partial.push_back(entry.range);
    }
  };
  if (span.first_partial) add_partial_block(span.first_block);
  if (span.last_partial) add_partial_block(span.last_block);
  if (partial.empty()) return;
  MergeIntoUnion(partial);
  sets.push_back(&partial);
}

std::optional<uint64_t> OccupancyTree::BestFitOffset(int32_t first, int32_t last,
                                                     uint64_t size) const {
  std::vector<const RangeUnion*>& sets = query_sets_;
  CollectSets(first, last, sets);
  // Skyline allocations meet [first, last] iff they start at or before `last`: all of them when
  // the lifetime reaches the last step, otherwise those the scan below keeps.
  const bool skyline_meets = first <= last_step_;
  const bool whole_skyline = skyline_meets && last >= last_step_;
  if (whole_skyline && !skyline_union_.empty()) sets.push_back(&skyline_union_);
  const bool scan_skyline = skyline_meets && !whole_skyline;
  if (scan_skyline && skyline_holes_.size() > scanned_skyline_) {
    RangeUnion& obstacles = query_obstacles_;
    obstacles.clear();
    for (const RangeUnion* ranges : sets) {
      obstacles.insert(obstacles.end(), ranges->begin(), ranges->end());
    }
    MergeIntoUnion(obstacles);
    return skyline_holes_.BestFitOffset(last, size, obstacles);
  }

  // The walk folds every range starting at or before the end of the occupied run into `run`
  // (its highest aligned end, and the highest unaligned end among the ranges ending there; its
  // start is unused); sets and the skyline are read through cursors, since the walk only moves up.
  std::vector<size_t>& cursors = query_cursors_;
  cursors.assign(sets.size(), 0);
  size_t skyline_cursor = 0;
  Range run{0, 0, 0};
  auto fold = [&](const Range& range) { AbsorbEnd(run, range); };
  auto by_start = [](uint64_t start, const Range& r) { return start < r.start; };

  bool found = false;
  uint64_t best_offset = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  uint64_t position = 0;  // aligned end of the occupied run being walked
  const auto smallest_fit = CheckedAlignUp(size, alignment_);
  if (!smallest_fit) return std::nullopt;
  while (true) {
    // Extend the run until no source has a range starting inside or right after it.
    for (bool extended = true; extended;) {
      extended = false;
      for (size_t i = 0; i < sets.size(); ++i) {
        const RangeUnion& ranges = *sets[i];
        const uint64_t reach = std::max(position, run.aligned_end);
        if (cursors[i] == ranges.size() || ranges[cursors[i]].start > reach) continue;
        // A set's ranges are disjoint and sorted: the last one starting within reach ends last.
        cursors[i] = std::upper_bound(ranges.begin() + cursors[i], ranges.end(), reach, by_start) -
                     ranges.begin();
        fold(ranges[cursors[i] - 1]);
        extended = true;
      }
      if (!scan_skyline) continue;
      for (; skyline_cursor < skyline_.size(); ++skyline_cursor) {
        const SkylineEntry& entry = skyline_[skyline_cursor];
        if (entry.first > last) continue;
        if (entry.range.start > std::max(position, run.aligned_end)) break;
        fold(entry.range);
        extended = true;
      }
    }
    position = std::max(position, run.aligned_end);
    uint64_t next_start = std::numeric_limits<uint64_t>::max();
    for (size_t i = 0; i < sets.size(); ++i) {
      if (cursors[i] < sets[i]->size()) {
        next_start = std::min(next_start, (*sets[i])[cursors[i]].start);
      }
    }
    if (scan_skyline && skyline_cursor < skyline_.size()) {
      next_start = std::min(next_start, skyline_[skyline_cursor].range.start);
    }
    if (next_start == std::numeric_limits<uint64_t>::max()) break;
    const uint64_t gap_start = run.aligned_end == position ? run.end : position;
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
  const Range range{offset, *CheckedAlignUp(offset + size, alignment_), offset + size};
  if (last == last_step_) {
    auto by_offset = [](uint64_t start, const SkylineEntry& e) { return start < e.range.start; };
    skyline_holes_.Insert(first, range);
    if (skyline_holes_.size() > scanned_skyline_) {
      skyline_.clear();
      skyline_.shrink_to_fit();
    } else {
      skyline_.insert(std::upper_bound(skyline_.begin(), skyline_.end(), offset, by_offset),
                      {range, first});
    }
    AddRange(skyline_union_, range);
    return;
  }
  const BlockSpan span = SpanOf(first, last);
  // Queries reaching the last step meet the whole skyline: a range it holds changes nothing there.
  const bool suffix_needs = !Holds(skyline_union_, range);
  // A node's union of a kind can only change through a changed child; a union nobody reads is
  // not kept, so its parent cannot tell and counts it as changed.
  std::vector<std::pair<int64_t, uint8_t>>& changed = changed_nodes_;
  changed.clear();
  auto add_sub = [&](int64_t node, uint8_t kinds) {
    uint8_t node_changed = 0;
    if (kinds & kWindowQueries) {
      if (!(readers_[node] & kWindowQueries) || AddRange(sub_[node], range)) {
        node_changed |= kWindowQueries;
      }
    }
    if ((kinds & kSuffixQueries) && suffix_needs) {
      if (!(readers_[node] & kSuffixQueries) || AddRange(suffix_sub_[node], range)) {
        node_changed |= kSuffixQueries;
      }
    }
    if (node_changed) changed.emplace_back(node, node_changed);
  };
  constexpr uint8_t kBoth = kWindowQueries | kSuffixQueries;
  auto add_partial_block = [&](int32_t block) {
    partial_[block].push_back({range, first, last});
    add_sub(block + int64_t{leaves_}, kBoth);
  };
  if (span.first_partial) add_partial_block(span.first_block);
  if (span.last_partial) add_partial_block(span.last_block);
  int level = 0;
  for (int64_t l = span.covered_first + int64_t{leaves_},
               r = span.covered_last + int64_t{leaves_} + 1;
       l < r; l >>= 1, r >>= 1, ++level) {
    if (l & 1) {
      AddRange(own_[l], range);
      own_levels_ = std::max(own_levels_, level + 1);
      add_sub(l++, kBoth);
    }
    if (r & 1) {
      --r;
      AddRange(own_[r], range);
      own_levels_ = std::max(own_levels_, level + 1);
      add_sub(r, kBoth);
    }
  }
  const int64_t first_leaf = span.first_block + int64_t{leaves_};
  const int64_t last_leaf = span.last_block + int64_t{leaves_};
  for (int level = 1; (first_leaf >> level) >= 1 && !changed.empty(); ++level) {
    const int64_t left = first_leaf >> level;
    const int64_t right = last_leaf >> level;
    auto update = [&](int64_t node) {
      const NodeRange node_range = RangeOf(node, level, leaves_);
      if (node_range.first >= span.covered_first && node_range.last <= span.covered_last) return;
      uint8_t child_changed = 0;
      for (const auto& [child, kinds] : changed) {
        if ((child >> 1) == node) child_changed |= kinds;
      }
      if (child_changed) add_sub(node, child_changed);
    };
    update(left);
    if (right != left) update(right);
  }
}

}  // namespace tfa
