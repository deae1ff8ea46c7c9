#include "libanalysis/arena/alternative_planners.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <string>
#include <vector>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

constexpr PlannerKind kHeuristics[] = {PlannerKind::kTflite, PlannerKind::kTflmGreedy,
                                       PlannerKind::kGreedyBySize,
                                       PlannerKind::kGreedyByBreadth};

bool LiveTogether(const ArenaBlock& a, const ArenaBlock& b) {
  return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

// The blocks with the rounded sizes every planner separates them by. Validation guarantees the
// rounded sizes sum without overflow, and no planner puts a block above the sum of the others.
class BlockSet {
 public:
  BlockSet(const std::vector<ArenaBlock>& blocks, uint64_t alignment)
      : blocks_(blocks), alignment_(alignment) {
    rounded_.reserve(blocks.size());
    for (const ArenaBlock& block : blocks) rounded_.push_back(AlignUp(block.size));
  }

  size_t size() const { return blocks_.size(); }
  const ArenaBlock& block(size_t i) const { return blocks_[i]; }
  uint64_t rounded(size_t i) const { return rounded_[i]; }
  uint64_t AlignUp(uint64_t value) const { return (value + alignment_ - 1) & ~(alignment_ - 1); }

  // Indices of the blocks with bytes.
  std::vector<size_t> NonEmpty() const {
    std::vector<size_t> indices;
    for (size_t i = 0; i < blocks_.size(); ++i) {
      if (blocks_[i].size > 0) indices.push_back(i);
    }
    return indices;
  }

  AlternativePlan MakePlan(PlannerKind kind, const std::vector<uint64_t>& offsets) const {
    AlternativePlan plan;
    plan.kind = kind;
    plan.found_by = kind;
    plan.blocks = blocks_;
    for (size_t i = 0; i < blocks_.size(); ++i) {
      plan.blocks[i].offset = blocks_[i].size > 0 ? offsets[i] : 0;
      if (blocks_[i].size > 0) {
        plan.arena_size = std::max(plan.arena_size, offsets[i] + blocks_[i].size);
      }
    }
    return plan;
  }

 private:
  const std::vector<ArenaBlock>& blocks_;
  uint64_t alignment_;
  std::vector<uint64_t> rounded_;
};

// Placed blocks in offset order, for the two gap-scanning greedy planners.
class OffsetOrderedBlocks {
 public:
  void Insert(size_t index, uint64_t offset) {
    auto position = std::upper_bound(
        placed_.begin(), placed_.end(), offset,
        [](uint64_t value, const Placed& placed) { return value < placed.offset; });
    placed_.insert(position, {index, offset});
  }

  struct Placed {
    size_t index;
    uint64_t offset;
  };
  const std::vector<Placed>& placed() const { return placed_; }

 private:
  std::vector<Placed> placed_;
};

// TFLite Micro's GreedyMemoryPlanner: first fit, largest first.
std::vector<uint64_t> PlanTflmGreedy(const BlockSet& set) {
  std::vector<size_t> order = set.NonEmpty();
  // Micro fills its sort array from the tail, so among equal sizes the later block comes first.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (set.rounded(a) != set.rounded(b)) return set.rounded(a) > set.rounded(b);
    return a > b;
  });
  std::vector<uint64_t> offsets(set.size(), 0);
  OffsetOrderedBlocks placed;
  for (size_t index : order) {
    const ArenaBlock& wanted = set.block(index);
    uint64_t candidate = 0;
    for (const auto& other : placed.placed()) {
      if (!LiveTogether(set.block(other.index), wanted)) continue;
      if (other.offset >= candidate && other.offset - candidate >= set.rounded(index)) break;
      candidate = std::max(candidate, other.offset + set.rounded(other.index));
    }
    offsets[index] = candidate;
    placed.Insert(index, candidate);
  }
  return offsets;
}

// The GPU delegate's GreedyBySizeAssignment: best fit, largest first.
std::vector<uint64_t> PlanGreedyBySize(const BlockSet& set) {
  std::vector<size_t> order = set.NonEmpty();
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return set.block(a).size > set.block(b).size;
  });
  std::vector<uint64_t> offsets(set.size(), 0);
  OffsetOrderedBlocks placed;
  for (size_t index : order) {
    const ArenaBlock& wanted = set.block(index);
    bool found = false;
    uint64_t best_gap = 0;
    uint64_t best_offset = 0;
    uint64_t previous_end = 0;  // aligned end of the highest block below
    for (const auto& other : placed.placed()) {
      if (!LiveTogether(set.block(other.index), wanted)) continue;
      if (other.offset >= previous_end) {
        const uint64_t gap = other.offset - previous_end;
        // The first of equally small gaps wins (strict comparison upstream).
        if (gap >= wanted.size && (!found || gap < best_gap)) {
          found = true;
          best_gap = gap;
          best_offset = previous_end;
        }
      }
      previous_end = std::max(previous_end, other.offset + set.rounded(other.index));
    }
    offsets[index] = found ? best_offset : previous_end;
    placed.Insert(index, offsets[index]);
  }
  return offsets;
}

// The GPU delegate's GreedyByBreadthAssignment: shared objects, widest steps first.
std::vector<uint64_t> PlanGreedyByBreadth(const BlockSet& set, int32_t num_steps) {
  std::vector<std::vector<size_t>> live_at(num_steps);
  std::vector<uint64_t> breadth(num_steps, 0);
  for (size_t index : set.NonEmpty()) {
    const ArenaBlock& block = set.block(index);
    for (int32_t step = block.first_step; step <= block.last_step; ++step) {
      live_at[step].push_back(index);
      breadth[step] += block.size;
    }
  }
  for (auto& blocks : live_at) {
    std::stable_sort(blocks.begin(), blocks.end(), [&](size_t a, size_t b) {
      return set.block(a).size > set.block(b).size;
    });
  }
  std::vector<int32_t> steps(num_steps);
  std::iota(steps.begin(), steps.end(), 0);
  // Equal breadths keep step order, as upstream's stable sort over reversed iterators does.
  std::stable_sort(steps.begin(), steps.end(),
                   [&](int32_t a, int32_t b) { return breadth[a] > breadth[b]; });

  constexpr size_t kUnassigned = static_cast<size_t>(-1);
  std::vector<size_t> object_of(set.size(), kUnassigned);
  std::vector<uint64_t> object_sizes;
  std::vector<std::vector<size_t>> object_blocks;
  for (int32_t step : steps) {
    for (size_t index : live_at[step]) {
      if (object_of[index] != kUnassigned) continue;
      const ArenaBlock& block = set.block(index);
      size_t best = kUnassigned;
      for (size_t object = 0; object < object_sizes.size(); ++object) {
        if (best != kUnassigned) {
          // Prefer the smallest object that holds the block; while none does, the largest.
          const uint64_t best_size = object_sizes[best];
          const uint64_t size = object_sizes[object];
          const bool better = best_size < block.size
                                  ? size > best_size
                                  : size >= block.size && size < best_size;
          if (!better) continue;
        }
        const bool free = std::none_of(
            object_blocks[object].begin(), object_blocks[object].end(),
            [&](size_t other) { return LiveTogether(set.block(other), block); });
        if (free) best = object;
      }
      if (best == kUnassigned) {
        best = object_sizes.size();
        object_sizes.push_back(0);
        object_blocks.emplace_back();
      }
      object_sizes[best] = std::max(object_sizes[best], block.size);
      object_blocks[best].push_back(index);
      object_of[index] = best;
    }
  }
  std::vector<uint64_t> object_offsets(object_sizes.size(), 0);
  for (size_t object = 1; object < object_sizes.size(); ++object) {
    object_offsets[object] = object_offsets[object - 1] + set.AlignUp(object_sizes[object - 1]);
  }
  std::vector<uint64_t> offsets(set.size(), 0);
  for (size_t index = 0; index < set.size(); ++index) {
    if (object_of[index] != kUnassigned) offsets[index] = object_offsets[object_of[index]];
  }
  return offsets;
}

// Branch and bound over placements in nondecreasing offset order. Any plan can be pushed down
// until every block rests at 0 or on the rounded end of a time-overlapping block, without
// growing; in offset order each block's support comes earlier, so trying exactly those offsets
// (equal offsets in index order) reaches an optimum.
class OptimalSearch {
 public:
  OptimalSearch(const BlockSet& set, const std::vector<size_t>& items, uint64_t lower_bound,
                uint64_t budget)
      : set_(set), items_(items), lower_bound_(lower_bound), budget_(budget) {}

  // Improves on `best_size`; returns whether the search finished (the result is then optimal).
  bool Run(uint64_t best_size, std::vector<uint64_t>& offsets) {
    best_size_ = best_size;
    offsets_ = offsets;
    placed_.assign(items_.size(), false);
    order_.clear();
    Search(0, 0, 0);
    if (improved_) offsets = best_offsets_;
    return !aborted_;
  }

  bool improved() const { return improved_; }
  uint64_t best_size() const { return best_size_; }

 private:
  void Search(uint64_t min_offset, size_t min_item, uint64_t top) {
    if (aborted_ || best_size_ <= lower_bound_) return;
    if (++nodes_ > budget_) {
      aborted_ = true;
      return;
    }
    if (order_.size() == items_.size()) {
      if (top < best_size_) {
        best_size_ = top;
        best_offsets_ = offsets_;
        improved_ = true;
      }
      return;
    }
    for (size_t item = 0; item < items_.size(); ++item) {
      if (placed_[item]) continue;
      const size_t index = items_[item];
      const ArenaBlock& block = set_.block(index);
      // Every block still to come lies at min_offset or above.
      if (min_offset + block.size >= best_size_) return;
      for (uint64_t offset : Candidates(index)) {
        if (offset < min_offset || (offset == min_offset && item < min_item)) continue;
        const uint64_t new_top = std::max(top, offset + block.size);
        if (new_top >= best_size_ || !Fits(index, offset)) continue;
        placed_[item] = true;
        order_.push_back(index);
        offsets_[index] = offset;
        Search(offset, item, new_top);
        order_.pop_back();
        placed_[item] = false;
      }
    }
  }

  std::vector<uint64_t> Candidates(size_t index) const {
    std::vector<uint64_t> candidates = {0};
    for (size_t other : order_) {
      if (LiveTogether(set_.block(other), set_.block(index))) {
        candidates.push_back(offsets_[other] + set_.rounded(other));
      }
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    return candidates;
  }

  bool Fits(size_t index, uint64_t offset) const {
    for (size_t other : order_) {
      if (!LiveTogether(set_.block(other), set_.block(index))) continue;
      if (offset < offsets_[other] + set_.rounded(other) &&
          offsets_[other] < offset + set_.rounded(index)) {
        return false;
      }
    }
    return true;
  }

  const BlockSet& set_;
  const std::vector<size_t>& items_;
  uint64_t lower_bound_;
  uint64_t budget_;
  uint64_t nodes_ = 0;
  bool aborted_ = false;
  bool improved_ = false;
  uint64_t best_size_ = 0;
  std::vector<uint64_t> offsets_;
  std::vector<uint64_t> best_offsets_;
  std::vector<bool> placed_;
  std::vector<size_t> order_;  // indices placed so far, in offset order
};

AlternativePlan PlanHeuristic(PlannerKind kind, const BlockSet& set, int32_t num_steps) {
  switch (kind) {
    case PlannerKind::kTflite: {
      std::vector<uint64_t> offsets(set.size());
      for (size_t i = 0; i < set.size(); ++i) offsets[i] = set.block(i).offset;
      return set.MakePlan(kind, offsets);
    }
    case PlannerKind::kTflmGreedy:
      return set.MakePlan(kind, PlanTflmGreedy(set));
    case PlannerKind::kGreedyBySize:
      return set.MakePlan(kind, PlanGreedyBySize(set));
    case PlannerKind::kGreedyByBreadth:
      return set.MakePlan(kind, PlanGreedyByBreadth(set, num_steps));
    case PlannerKind::kOptimal:
      break;
  }
  assert(false && "PlanHeuristic: kOptimal is not a heuristic");
  return {};
}

AlternativePlan PlanOptimal(const BlockSet& set, int32_t num_steps, uint64_t lower_bound,
                            const AlternativePlannerOptions& options) {
  AlternativePlan best = PlanHeuristic(kHeuristics[0], set, num_steps);
  for (PlannerKind kind : kHeuristics) {
    AlternativePlan plan = PlanHeuristic(kind, set, num_steps);
    if (plan.arena_size < best.arena_size) best = std::move(plan);
  }
  best.kind = PlannerKind::kOptimal;
  if (best.arena_size <= lower_bound) {
    best.optimal = true;
    return best;
  }
  const std::vector<size_t> items = set.NonEmpty();
  if (items.size() > options.optimal_max_blocks) return best;
  std::vector<uint64_t> offsets(set.size(), 0);
  for (size_t i = 0; i < set.size(); ++i) offsets[i] = best.blocks[i].offset;
  OptimalSearch search(set, items, lower_bound, options.optimal_node_budget);
  const bool finished = search.Run(best.arena_size, offsets);
  if (search.improved()) {
    best = set.MakePlan(PlannerKind::kOptimal, offsets);
    best.found_by = PlannerKind::kOptimal;
  }
  best.optimal = finished || best.arena_size <= lower_bound;
  return best;
}

Status ValidateBlocks(const std::vector<ArenaBlock>& blocks, int32_t num_steps,
                      uint64_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return Status::Error("alignment " + std::to_string(alignment) + " is not a power of two");
  }
  uint64_t total = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const ArenaBlock& block = blocks[i];
    const std::string name = "block " + std::to_string(i) + " (tensor " +
                             std::to_string(block.tensor) + ")";
    if (block.first_step < 0 || block.first_step > block.last_step ||
        block.last_step >= num_steps) {
      return Status::Error(name + ": steps " + std::to_string(block.first_step) + ".." +
                           std::to_string(block.last_step) + " outside the plan's " +
                           std::to_string(num_steps) + " steps");
    }
    const auto rounded = CheckedAlignUp(block.size, alignment);
    const auto sum = rounded ? CheckedAdd(total, *rounded) : std::nullopt;
    const auto end = sum ? CheckedAdd(block.offset, block.size) : std::nullopt;
    if (!end || !CheckedAdd(*sum, block.offset)) {
      return Status::Error(name + ": arena offsets overflow");
    }
    total = *sum;
  }
  return Status::Ok();
}

}  // namespace

const char* PlannerKindName(PlannerKind kind) {
  switch (kind) {
    case PlannerKind::kTflite:
      return "tflite";
    case PlannerKind::kTflmGreedy:
      return "tflm-greedy";
    case PlannerKind::kGreedyBySize:
      return "greedy-size";
    case PlannerKind::kGreedyByBreadth:
      return "greedy-breadth";
    case PlannerKind::kOptimal:
      return "optimal";
  }
  return "tflite";
}

Result<PlannerKind> PlannerKindFromName(std::string_view name) {
  for (PlannerKind kind : {PlannerKind::kTflite, PlannerKind::kTflmGreedy,
                           PlannerKind::kGreedyBySize, PlannerKind::kGreedyByBreadth,
                           PlannerKind::kOptimal}) {
    if (name == PlannerKindName(kind)) return kind;
  }
  return Status::Error("unknown planner '" + std::string(name) +
                       "' (expected tflite, tflm-greedy, greedy-size, greedy-breadth or optimal)");
}

Result<AlternativePlan> PlanWith(PlannerKind kind, const std::vector<ArenaBlock>& blocks,
                                 int32_t num_steps, const AlternativePlannerOptions& options) {
  TFA_RETURN_IF_ERROR(ValidateBlocks(blocks, num_steps, options.alignment));
  const BlockSet set(blocks, options.alignment);
  const uint64_t lower_bound = LowerBound(blocks, num_steps, options.alignment).bytes;
  if (kind == PlannerKind::kOptimal) return PlanOptimal(set, num_steps, lower_bound, options);
  AlternativePlan plan = PlanHeuristic(kind, set, num_steps);
  plan.optimal = plan.arena_size <= lower_bound;
  return plan;
}

}  // namespace tfa
