#include "libanalysis/tflm/greedy_memory_planner.h"

#include <gtest/gtest.h>

namespace tfa::tflm {
namespace {

// greedy_memory_planner_test.cc's TestGreedyBasics: two buffers live at different times share
// offset 0.
TEST(TflmGreedyPlanner, BuffersLiveAtDifferentTimesShareAnOffset) {
  const PlannerResult plan = PlanGreedy({{10, 0, 1}, {20, 2, 3}});
  EXPECT_EQ(plan.offsets[0], 0u);
  EXPECT_EQ(plan.offsets[1], 0u);
  EXPECT_EQ(plan.size, 20u);
}

// Upstream's TestGreedyMedium.
TEST(TflmGreedyPlanner, UpstreamMediumCase) {
  const PlannerResult plan =
      PlanGreedy({{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}});
  EXPECT_EQ(plan.offsets[0], 50u);
  EXPECT_EQ(plan.offsets[1], 70u);
  EXPECT_EQ(plan.offsets[2], 40u);
  EXPECT_EQ(plan.offsets[3], 0u);
  EXPECT_EQ(plan.offsets[4], 0u);
  EXPECT_EQ(plan.size, 90u);
}

// Equal sizes: the one added last is placed first (upstream fills its sort array from the back).
TEST(TflmGreedyPlanner, EqualSizesGoInReverseOrderOfAddition) {
  const PlannerResult plan = PlanGreedy({{16, 0, 1}, {16, 0, 1}});
  EXPECT_EQ(plan.offsets[1], 0u);
  EXPECT_EQ(plan.offsets[0], 16u);
}

TEST(TflmGreedyPlanner, ABufferGoesInTheFirstGapLargeEnough) {
  const PlannerResult plan = PlanGreedy({{64, 0, 2}, {32, 0, 0}, {48, 1, 1}, {16, 2, 2}});
  // 64 at 0; 48 at 64 (overlaps 64 only); 32 at 64 (no overlap with 48); 16 at 112? no: live
  // with 64 (0..63) only at time 2, so it goes right after it.
  EXPECT_EQ(plan.offsets[0], 0u);
  EXPECT_EQ(plan.offsets[2], 64u);
  EXPECT_EQ(plan.offsets[1], 64u);
  EXPECT_EQ(plan.offsets[3], 64u);
  EXPECT_EQ(plan.size, 112u);
}

// An offline buffer stays at its offset; the online ones fill the gaps around it, below it
// included (GreedyMemoryPlanner places offline-planned buffers first, unsorted).
TEST(TflmGreedyPlanner, OnlineBuffersFitAroundAnOfflineOne) {
  const PlannerResult plan = PlanGreedy({{32, 0, 1, 16}, {16, 0, 1}, {48, 2, 3}});
  EXPECT_EQ(plan.offsets[0], 16u);
  EXPECT_EQ(plan.offsets[2], 0u);  // not live with the offline buffer
  EXPECT_EQ(plan.offsets[1], 0u);  // the 16 bytes below it
  EXPECT_EQ(plan.size, 48u);
}

// Offline buffers are not sorted by size and may overlap (the plan knows their lifetimes); an
// online buffer too large for the gap below them goes above the highest live one.
TEST(TflmGreedyPlanner, OfflineBuffersKeepTheirOffsetsAndOrder) {
  const PlannerResult plan = PlanGreedy({{16, 0, 0, 64}, {64, 0, 0, 0}, {32, 0, 0}});
  EXPECT_EQ(plan.offsets[0], 64u);
  EXPECT_EQ(plan.offsets[1], 0u);
  EXPECT_EQ(plan.offsets[2], 80u);
  EXPECT_EQ(plan.size, 112u);
}

}  // namespace
}  // namespace tfa::tflm
