// Alternative planners: exact plans on hand-made block sets, and on random ones: every plan is
// valid and no smaller than the lower bound, and the optimum is no larger than any heuristic.
#include "libanalysis/arena/alternative_planners.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

namespace tfa {
namespace {

constexpr PlannerKind kAllKinds[] = {PlannerKind::kTflite, PlannerKind::kTflmGreedy,
                                     PlannerKind::kGreedyBySize, PlannerKind::kGreedyByBreadth,
                                     PlannerKind::kOptimal};

ArenaBlock Block(int32_t tensor, uint64_t size, int32_t first, int32_t last,
                 uint64_t offset = 0) {
  return {tensor, offset, size, first, last};
}

std::vector<uint64_t> Offsets(const AlternativePlan& plan) {
  std::vector<uint64_t> offsets;
  for (const ArenaBlock& block : plan.blocks) offsets.push_back(block.offset);
  return offsets;
}

AlternativePlan Plan(PlannerKind kind, const std::vector<ArenaBlock>& blocks, int32_t steps,
                     const AlternativePlannerOptions& options = {}) {
  auto plan = PlanWith(kind, blocks, steps, options);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.ok() ? *plan : AlternativePlan{};
}

// Three steps; every planner but greedy-by-breadth reaches the lower bound (384).
std::vector<ArenaBlock> FiveBlocks() {
  return {Block(0, 256, 0, 1, 0), Block(1, 64, 0, 0, 256), Block(2, 128, 1, 2, 256),
          Block(3, 192, 2, 2, 0), Block(4, 64, 2, 2, 192)};
}

TEST(AlternativePlannersTest, TflmGreedyIsFirstFitLargestFirst) {
  const AlternativePlan plan = Plan(PlannerKind::kTflmGreedy, FiveBlocks(), 3);
  EXPECT_EQ(Offsets(plan), (std::vector<uint64_t>{0, 256, 256, 0, 192}));
  EXPECT_EQ(plan.arena_size, 384u);
  EXPECT_TRUE(plan.optimal);
}

TEST(AlternativePlannersTest, GreedyBySizeIsBestFitLargestFirst) {
  const AlternativePlan plan = Plan(PlannerKind::kGreedyBySize, FiveBlocks(), 3);
  EXPECT_EQ(Offsets(plan), (std::vector<uint64_t>{0, 256, 256, 0, 192}));
  EXPECT_EQ(plan.arena_size, 384u);
}

// Steps 1 and 2 (384 bytes each) first: objects {0, 3} of 256, {2} of 128, {4, 1} of 64.
TEST(AlternativePlannersTest, GreedyByBreadthSharesObjects) {
  const AlternativePlan plan = Plan(PlannerKind::kGreedyByBreadth, FiveBlocks(), 3);
  EXPECT_EQ(Offsets(plan), (std::vector<uint64_t>{0, 384, 256, 0, 384}));
  EXPECT_EQ(plan.arena_size, 256u + 128u + 64u);
  EXPECT_FALSE(plan.optimal);
}

TEST(AlternativePlannersTest, TfliteKeepsTheGivenOffsets) {
  const AlternativePlan plan = Plan(PlannerKind::kTflite, FiveBlocks(), 3);
  EXPECT_EQ(Offsets(plan), (std::vector<uint64_t>{0, 256, 256, 0, 192}));
  EXPECT_EQ(plan.arena_size, 384u);
}

// x and y overlap at step 1; z lives with x, w with y. Largest-first puts z and w at 0 and
// needs 256 bytes; 192 (the lower bound) needs y at 0 and x on top.
std::vector<ArenaBlock> BeatsGreedy() {
  return {Block(0, 64, 0, 1, 128), Block(1, 64, 1, 2, 192), Block(2, 128, 0, 0, 0),
          Block(3, 128, 2, 2, 0)};
}

TEST(AlternativePlannersTest, HeuristicsMissTheOptimum) {
  for (PlannerKind kind : {PlannerKind::kTflite, PlannerKind::kTflmGreedy,
                           PlannerKind::kGreedyBySize, PlannerKind::kGreedyByBreadth}) {
    EXPECT_EQ(Plan(kind, BeatsGreedy(), 3).arena_size, 256u) << PlannerKindName(kind);
  }
}

TEST(AlternativePlannersTest, OptimalFindsTheMinimum) {
  const AlternativePlan plan = Plan(PlannerKind::kOptimal, BeatsGreedy(), 3);
  EXPECT_EQ(plan.arena_size, 192u);
  EXPECT_TRUE(plan.optimal);
  EXPECT_EQ(plan.found_by, PlannerKind::kOptimal);
  // The first optimum in search order: x and w at 0, z on x, y on w.
  EXPECT_EQ(Offsets(plan), (std::vector<uint64_t>{0, 128, 64, 0}));
}

TEST(AlternativePlannersTest, OptimalBeyondItsLimitReturnsTheBestHeuristicUnproven) {
  const AlternativePlan plan =
      Plan(PlannerKind::kOptimal, BeatsGreedy(), 3, {.optimal_max_blocks = 3});
  EXPECT_EQ(plan.arena_size, 256u);
  EXPECT_FALSE(plan.optimal);
  EXPECT_EQ(plan.found_by, PlannerKind::kTflite);
}

TEST(AlternativePlannersTest, OptimalOutOfBudgetIsUnproven) {
  const AlternativePlan plan =
      Plan(PlannerKind::kOptimal, BeatsGreedy(), 3, {.optimal_node_budget = 1});
  EXPECT_EQ(plan.arena_size, 256u);
  EXPECT_FALSE(plan.optimal);
}

TEST(AlternativePlannersTest, ZeroByteBlocksTakeNoSpace) {
  const std::vector<ArenaBlock> blocks = {Block(0, 0, 0, 0, 0), Block(1, 100, 0, 0, 0)};
  for (PlannerKind kind : kAllKinds) {
    const AlternativePlan plan = Plan(kind, blocks, 1);
    EXPECT_EQ(Offsets(plan), (std::vector<uint64_t>{0, 0})) << PlannerKindName(kind);
    EXPECT_EQ(plan.arena_size, 100u) << PlannerKindName(kind);
  }
}

TEST(AlternativePlannersTest, NamesRoundTrip) {
  for (PlannerKind kind : kAllKinds) {
    auto parsed = PlannerKindFromName(PlannerKindName(kind));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, kind);
  }
  auto unknown = PlannerKindFromName("buddy");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "unknown planner 'buddy' (expected tflite, tflm-greedy, greedy-size, "
            "greedy-breadth or optimal)");
}

TEST(AlternativePlannersTest, RejectsBlocksOutsideThePlan) {
  auto plan = PlanWith(PlannerKind::kTflmGreedy, {Block(7, 64, 1, 3)}, 3);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(), "block 0 (tensor 7): steps 1..3 outside the plan's 3 steps");
}

void CheckValid(const AlternativePlan& plan, int32_t steps) {
  uint64_t high_water = 0;
  for (size_t i = 0; i < plan.blocks.size(); ++i) {
    const ArenaBlock& a = plan.blocks[i];
    RC_ASSERT(a.offset % kDefaultTensorAlignment == 0);
    if (a.size > 0) high_water = std::max(high_water, a.offset + a.size);
    for (size_t j = i + 1; j < plan.blocks.size(); ++j) {
      const ArenaBlock& b = plan.blocks[j];
      const bool live_together = a.first_step <= b.last_step && b.first_step <= a.last_step;
      const bool bytes_overlap = a.offset < b.offset + b.size && b.offset < a.offset + a.size;
      RC_ASSERT(!(live_together && bytes_overlap));
    }
  }
  RC_ASSERT(high_water == plan.arena_size);
  RC_ASSERT(plan.arena_size >= LowerBound(plan.blocks, steps).bytes);
}

// Random blocks, valid by construction for kTflite: placed one above the other.
std::pair<std::vector<ArenaBlock>, int32_t> GenBlocks(size_t max_blocks) {
  const int32_t steps = *rc::gen::inRange(1, 7);
  const size_t count = *rc::gen::inRange<size_t>(0, max_blocks + 1);
  std::vector<ArenaBlock> blocks;
  uint64_t stacked = 0;
  for (size_t i = 0; i < count; ++i) {
    const int32_t first = *rc::gen::inRange(0, steps);
    const int32_t last = *rc::gen::inRange(first, steps);
    const uint64_t size = *rc::gen::element<uint64_t>(0, 1, 64, 100, 128, 192, 256, 1000);
    blocks.push_back(Block(static_cast<int32_t>(i), size, first, last, stacked));
    stacked += (size + 63) / 64 * 64;
  }
  return {blocks, steps};
}

RC_GTEST_PROP(AlternativePlannersProperty, EveryPlanIsValid, ()) {
  const auto [blocks, steps] = GenBlocks(24);
  for (PlannerKind kind : kAllKinds) {
    auto plan = PlanWith(kind, blocks, steps, {.optimal_node_budget = 20'000});
    RC_ASSERT(plan.ok());
    RC_ASSERT(plan->blocks.size() == blocks.size());
    CheckValid(*plan, steps);
  }
}

RC_GTEST_PROP(AlternativePlannersProperty, OptimalIsNoLargerThanAnyHeuristic, ()) {
  const auto [blocks, steps] = GenBlocks(7);
  auto optimal = PlanWith(PlannerKind::kOptimal, blocks, steps);
  RC_ASSERT(optimal.ok());
  RC_ASSERT(optimal->optimal);
  for (PlannerKind kind : kAllKinds) {
    auto plan = PlanWith(kind, blocks, steps);
    RC_ASSERT(plan.ok());
    RC_ASSERT(optimal->arena_size <= plan->arena_size);
  }
}

}  // namespace
}  // namespace tfa
