#include "libanalysis/arena/skyline_holes.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <tuple>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

constexpr int32_t kNever = std::numeric_limits<int32_t>::max();
constexpr uint64_t kMaxKey = std::numeric_limits<uint64_t>::max();

}  // namespace

SkylineHoles::SkylineHoles(int32_t last_step, uint64_t alignment, int32_t block_steps)
    : alignment_(alignment),
      alignment_shift_(std::countr_zero(alignment)),
      last_step_(last_step),
      block_steps_(block_steps) {
  // Queries end at steps 0..last_step - 1.
  const int32_t blocks = std::max(1, (last_step_ + block_steps_ - 1) / block_steps_);
  while (index_leaves_ < blocks) index_leaves_ *= 2;
  index_slot_.assign(2 * static_cast<size_t>(index_leaves_), kNone);
  // At most one set per node: reserved, so that the sets are never moved as more are made.
  index_sets_.reserve(2 * static_cast<size_t>(index_leaves_));
  block_holes_.resize(static_cast<size_t>(blocks));
}

std::pair<int32_t, int32_t> SkylineHoles::MetAround(uint64_t key, int32_t step) const {
  return met_.MetAround(key, step);
}

int32_t SkylineHoles::PreviousMet(uint64_t key, int32_t step) const {
  return met_.PreviousMet(key, step);
}

int32_t SkylineHoles::EarliestIn(uint64_t from, uint64_t to) const {
  return met_.EarliestIn(from, to);
}

SkylineHoles::StepRange SkylineHoles::StepsOf(const Hole& hole) const {
  const int32_t opens = std::max(EarliestOf(hole.left), EarliestOf(hole.right));
  // The hole closes when an allocation between its sides appears (the arena's start is below
  // key 0, the open top above every key).
  int32_t closes = kNever;
  if (hole.right == kNone || Key(hole.right) > 0) {
    closes = EarliestIn(hole.left == kNone ? 0 : Key(hole.left) + 1,
                        hole.right == kNone ? kMaxKey : Key(hole.right) - 1);
  }
  return {opens, std::min(closes == kNever ? kNever : closes - 1, last_step_ - 1)};
}

std::optional<SkylineHoles::HoleKey> SkylineHoles::KeyOf(const Hole& hole) const {
  if (hole.right == kNone) return std::nullopt;
  const OccupiedRange below =
      hole.left == kNone ? OccupiedRange{0, 0, 0} : entries_[hole.left].range;
  const uint64_t right_start = entries_[hole.right].range.start;
  if (right_start <= below.aligned_end) return std::nullopt;
  const bool unaligned = below.end != below.aligned_end;
  return MakeKey(right_start - below.aligned_end, below.aligned_end, unaligned);
}

void SkylineHoles::IndexHole(const Hole& hole, bool add) {
  const auto key = KeyOf(hole);
  if (!key) return;
  const StepRange steps = StepsOf(hole);
  if (steps.first > steps.last) return;
  auto visit = [&](int64_t node) {
    int32_t& slot = index_slot_[node];
    if (add) {
      if (slot == kNone) {
        slot = static_cast<int32_t>(index_sets_.size());
        index_sets_.emplace_back();
      }
      index_sets_[slot].insert(*key);
    } else if (slot != kNone) {
      index_sets_[slot].erase(*key);
    }
  };
  auto list = [&](int32_t block) {
    std::vector<BlockHole>& holes = block_holes_[block];
    if (add) {
      holes.push_back({*key, steps});
      return;
    }
    const auto it = std::find_if(holes.begin(), holes.end(), [&](const BlockHole& h) {
      return !(h.key < *key) && !(*key < h.key) && h.steps.first == steps.first &&
             h.steps.last == steps.last;
    });
    if (it == holes.end()) return;
    *it = holes.back();
    holes.pop_back();
  };
  // The blocks the steps cover whole go to the tree; a block they start or end inside, to its
  // list.
  const int32_t first_block = steps.first / block_steps_;
  const int32_t last_block = steps.last / block_steps_;
  auto covers = [&](int32_t block) {
    const int64_t start = int64_t{block} * block_steps_;
    const int64_t end = std::min<int64_t>(start + block_steps_ - 1, last_step_ - 1);
    return steps.first <= start && steps.last >= end;
  };
  const bool first_partial = !covers(first_block);
  const bool last_partial = last_block != first_block && !covers(last_block);
  if (first_partial) list(first_block);
  if (last_partial) list(last_block);
  const int32_t covered_first = first_block + (first_partial ? 1 : 0);
  const int32_t covered_last = last_block - (last_partial ? 1 : 0);
  for (int64_t l = covered_first + int64_t{index_leaves_},
               r = covered_last + int64_t{index_leaves_} + 1;
       l < r; l >>= 1, r >>= 1) {
    if (l & 1) visit(l++);
    if (r & 1) visit(--r);
  }
}

void SkylineHoles::Insert(int32_t first, const OccupiedRange& range) {
  const auto entry = static_cast<int32_t>(entries_.size());
  entries_.push_back({range, first});
  highest_end_ = std::max(highest_end_, range.aligned_end);
  const uint64_t key = Key(entry);
  // The holes the new allocation falls in, one per run of steps from its own to the last a
  // query can have; each is taken out of the index with the steps it has now.
  std::vector<Hole>& split = split_holes_;
  split.clear();
  for (int32_t step = first; step <= last_step_ - 1;) {
    const auto [previous, next] = MetAround(key, step);
    const Hole hole{previous, next};
    const int32_t closes = StepsOf(hole).last;
    IndexHole(hole, false);
    split.push_back(hole);
    step = std::max(step, closes) + 1;
  }
  met_.Insert(key, first, entry);
  // Each keeps the steps before the new allocation appears; the new one opens a hole on each
  // side (consecutive holes share a side, so the same new hole can come twice).
  std::vector<Hole>& opened = opened_holes_;
  opened.clear();
  auto open = [&](const Hole& hole) {
    if (std::find_if(opened.begin(), opened.end(), [&](const Hole& h) {
          return h.left == hole.left && h.right == hole.right;
        }) != opened.end()) {
      return;
    }
    opened.push_back(hole);
    IndexHole(hole, true);
  };
  for (const Hole& hole : split) {
    IndexHole(hole, true);
    open({hole.left, entry});
    open({entry, hole.right});
  }
}

std::optional<uint64_t> SkylineHoles::BestFitOffset(
    int32_t last, uint64_t size, const std::vector<OccupiedRange>& obstacles) const {
  const auto smallest_fit = CheckedAlignUp(size, alignment_);
  if (!smallest_fit) return std::nullopt;
  std::optional<HoleKey> best;
  auto consider = [&](const OccupiedRange& below, uint64_t next_start) {
    const uint64_t start = below.aligned_end;
    if (next_start <= start || next_start - start < size) return;
    const bool unaligned = below.end != start;
    const HoleKey key = MakeKey(next_start - start, start, unaligned);
    if (!best || key < *best) best = key;
  };
  // The first obstacle ending at or above `aligned_end`: the ones before it end lower and so
  // cannot change a gap starting there.
  auto first_reaching = [&](uint64_t aligned_end) {
    return std::lower_bound(
        obstacles.begin(), obstacles.end(), aligned_end,
        [](const OccupiedRange& r, uint64_t end) { return r.aligned_end < end; });
  };
  auto reached = [&](uint64_t below_aligned_end, uint64_t right_start) {
    const auto it = first_reaching(below_aligned_end);
    return it != obstacles.end() && it->start <= right_start;
  };
  auto range_of = [&](int32_t entry) {
    return entry == kNone ? OccupiedRange{0, 0, 0} : entries_[entry].range;
  };

  // Holes an obstacle reaches: the gaps inside them are those left between the obstacles there.
  int32_t split_left = kNone - 1;
  int32_t split_right = kNone - 1;
  auto split = [&](int32_t left, int32_t right) {
    if (left == split_left && right == split_right) return;
    split_left = left;
    split_right = right;
    OccupiedRange run = range_of(left);
    const uint64_t right_start = right == kNone ? kMaxKey : entries_[right].range.start;
    for (auto it = first_reaching(run.aligned_end);
         it != obstacles.end() && it->start <= right_start; ++it) {
      if (it->start > run.aligned_end) consider(run, it->start);
      AbsorbEnd(run, *it);
    }
    if (right != kNone) consider(run, right_start);
  };
  // Obstacles come in offset order, and the next one often starts in the hole the last one
  // ended in: the two met entries around that hole are then its neighbours too.
  // The searches for each obstacle's neighbours do not depend on one another: made first, in
  // one pass, their cache misses overlap instead of each waiting for the last.
  std::vector<std::pair<int32_t, int32_t>>& around = obstacle_neighbours_;
  around.clear();
  for (const OccupiedRange& obstacle : obstacles) {
    around.push_back(MetAround(obstacle.start / alignment_, last));
    if (around.back().first != kNone) __builtin_prefetch(&entries_[around.back().first]);
  }
  int32_t left = kNone;
  int32_t right = kNone;
  bool around_known = false;
  for (size_t i = 0; i < obstacles.size(); ++i) {
    const OccupiedRange& obstacle = obstacles[i];
    const uint64_t key = obstacle.start / alignment_;
    if (!around_known || (left != kNone && Key(left) >= key) ||
        (right != kNone && Key(right) < key)) {
      std::tie(left, right) = around[i];
      around_known = true;
    }
    if (obstacle.aligned_end < range_of(left).aligned_end) continue;
    split(left, right);
    if (right == kNone || obstacle.aligned_end < entries_[right].range.aligned_end) continue;
    // The holes between met entries the obstacle covers whole have no gap left; the last hole it
    // reaches is the one below the first met entry ending above it.
    const auto [below_end, from_end] = MetAround(obstacle.aligned_end / alignment_, last);
    if (below_end != kNone && entries_[below_end].range.aligned_end > obstacle.aligned_end) {
      right = below_end;
      left = MetAround(Key(below_end), last).first;
    } else {
      left = below_end;
      right = from_end;
    }
    split(left, right);
  }

  // Holes no obstacle reaches are gaps as they are: the best of them, in the block's list and
  // per index node. The tree from the root down: long-lived holes sit high, so the best is
  // usually found early and the nodes below are settled by their least key.
  const HoleKey fits{*smallest_fit, 0};
  const int32_t block = last / block_steps_;
  for (const BlockHole& hole : block_holes_[block]) {
    if (hole.steps.first > last || hole.steps.last < last || hole.key < fits ||
        (best && !(hole.key < *best))) {
      continue;
    }
    const uint64_t start = StartOf(hole.key);
    if (!reached(start, start + hole.key.aligned_size)) best = hole.key;
  }
  const int64_t leaf = block + int64_t{index_leaves_};
  for (int shift = std::countr_zero(static_cast<uint32_t>(index_leaves_)); shift >= 0; --shift) {
    const int64_t node = leaf >> shift;
    const int32_t slot = index_slot_[node];
    if (slot == kNone) continue;
    const SortedChunks<HoleKey>& holes = index_sets_[slot];
    // The ends of a set are at hand; most nodes are settled by them without a search.
    if (holes.empty() || holes.back() < fits || (best && !(holes.front() < *best))) continue;
    for (auto it = holes.lower_bound(fits); it != holes.end() && (!best || *it < *best); ++it) {
      const uint64_t start = StartOf(*it);
      if (!reached(start, start + it->aligned_size)) {
        best = *it;
        break;
      }
    }
  }

  uint64_t top = obstacles.empty() ? 0 : obstacles.back().aligned_end;
  // The top of what the lifetime meets is needed only without a fitting hole, or to see that it
  // overflows, which it cannot when the top of every entry does not.
  if (!best || !CheckedAdd(std::max(top, highest_end_), size)) {
    const int32_t highest = PreviousMet(kMaxKey, last);
    if (highest != kNone) top = std::max(top, entries_[highest].range.aligned_end);
  }
  if (!CheckedAdd(top, size)) return std::nullopt;
  return best ? StartOf(*best) : top;
}

}  // namespace tfa
