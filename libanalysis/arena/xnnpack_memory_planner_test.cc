#include "libanalysis/arena/xnnpack_memory_planner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace tfa {
namespace {

using ::testing::ElementsAre;

// XNNPACK's test/memory-planner-test.cc, MemoryBlocksCoalescing.
const std::vector<XnnUsageRecord> kCoalescing = {
    {56, 1, 1}, {40, 0, 1}, {64, 1, 1}, {152, 0, 0}, {20, 1, 1}};
// XNNPACK's test/memory-planner-test.cc, GeneralPlanning.
const std::vector<XnnUsageRecord> kGeneral = {{32, 0, 1}, {28, 1, 4}, {36, 2, 5}, {16, 3, 5},
                                              {8, 4, 5},  {64, 5, 7}, {10, 6, 8}, {40, 7, 8}};

TEST(XnnpackMemoryPlanner, MemoryBlocksCoalescingAsXnnpacksTest) {
  for (const XnnMemoryPlan& plan :
       {PlanXnnpackValues(kCoalescing), PlanXnnpackValuesReference(kCoalescing)}) {
    EXPECT_EQ(plan.arena_bytes, 192u);
    EXPECT_THAT(plan.offsets, ElementsAre(64, 152, 0, 0, 120));
  }
}

TEST(XnnpackMemoryPlanner, GeneralPlanningAsXnnpacksTest) {
  for (const XnnMemoryPlan& plan :
       {PlanXnnpackValues(kGeneral), PlanXnnpackValuesReference(kGeneral)}) {
    EXPECT_EQ(plan.arena_bytes, 124u);
    EXPECT_THAT(plan.offsets, ElementsAre(0, 32, 64, 100, 116, 0, 104, 64));
  }
}

TEST(XnnpackMemoryPlanner, TheSpaceBelowTheOnlyLiveBlockIsNoCandidate) {
  // 100 bytes at 0..0 and 40 at 1..2 go side by side; then 30 bytes live with the 40 only: it
  // would fit below them (offset 0 to 100 is free at steps 1..2) but goes above.
  const XnnMemoryPlan plan = PlanXnnpackValues({{100, 0, 0}, {40, 0, 2}, {30, 1, 2}});
  EXPECT_THAT(plan.offsets, ElementsAre(0, 100, 140));
  EXPECT_EQ(plan.arena_bytes, 170u);
}

TEST(XnnpackMemoryPlanner, TheLeadingGapIsTheFirstCandidateSinceXnnpack10801) {
  // The same records: the 30 bytes go below the 40, at 0; the arena stays 140.
  for (const XnnMemoryPlan& plan :
       {PlanXnnpackValues({{100, 0, 0}, {40, 0, 2}, {30, 1, 2}}, true),
        PlanXnnpackValuesReference({{100, 0, 0}, {40, 0, 2}, {30, 1, 2}}, true)}) {
    EXPECT_THAT(plan.offsets, ElementsAre(0, 100, 0));
    EXPECT_EQ(plan.arena_bytes, 140u);
  }
  // A strictly smaller gap between blocks wins over the leading one: 100 (step 0) at 0, 50
  // (0..1) at 100, 40 (0) at 150, 35 (0..1) at 190; then 30 at step 1 sees 50 and 35 live,
  // [100,150) and [190,225): the leading gap (100) and the one between (40) both hold it.
  const XnnMemoryPlan plan =
      PlanXnnpackValues({{100, 0, 0}, {50, 0, 1}, {40, 0, 0}, {35, 0, 1}, {30, 1, 1}}, true);
  EXPECT_THAT(plan.offsets, ElementsAre(0, 100, 150, 190, 150));
  EXPECT_EQ(plan.arena_bytes, 225u);
}

TEST(XnnpackMemoryPlanner, RecordsOfNoBytesAreNotPlaced) {
  const XnnMemoryPlan plan = PlanXnnpackValues({{0, 0, 3}, {16, 0, 3}});
  EXPECT_THAT(plan.offsets, ElementsAre(0, 0));
  EXPECT_EQ(plan.arena_bytes, 16u);
  EXPECT_EQ(PlanXnnpackValues({}).arena_bytes, 0u);
}

std::vector<XnnUsageRecord> GenRecords() {
  const uint32_t nodes = *rc::gen::inRange<uint32_t>(1, 10);
  const size_t count = *rc::gen::inRange<size_t>(0, 24);
  std::vector<XnnUsageRecord> records;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t first = *rc::gen::inRange<uint32_t>(0, nodes);
    const uint32_t last = *rc::gen::inRange<uint32_t>(first, nodes);
    records.push_back({*rc::gen::element<uint64_t>(0, 16, 32, 48, 112, 128, 400), first, last});
  }
  return records;
}

RC_GTEST_PROP(XnnpackMemoryPlannerProperty, FastAgreesWithTheReference, ()) {
  const std::vector<XnnUsageRecord> records = GenRecords();
  const bool leading_gap = *rc::gen::arbitrary<bool>();
  const XnnMemoryPlan fast = PlanXnnpackValues(records, leading_gap);
  const XnnMemoryPlan reference = PlanXnnpackValuesReference(records, leading_gap);
  RC_ASSERT(fast.offsets == reference.offsets);
  RC_ASSERT(fast.arena_bytes == reference.arena_bytes);
}

RC_GTEST_PROP(XnnpackMemoryPlannerProperty, NoTwoLiveRecordsShareMemory, ()) {
  const std::vector<XnnUsageRecord> records = GenRecords();
  const XnnMemoryPlan plan = PlanXnnpackValues(records);
  for (size_t i = 0; i < records.size(); ++i) {
    RC_ASSERT(plan.offsets[i] + records[i].bytes <= plan.arena_bytes);
    for (size_t j = i + 1; j < records.size(); ++j) {
      const bool live = records[i].first_node <= records[j].last_node &&
                        records[j].first_node <= records[i].last_node;
      const bool overlap = plan.offsets[i] < plan.offsets[j] + records[j].bytes &&
                           plan.offsets[j] < plan.offsets[i] + records[i].bytes;
      RC_ASSERT(!(live && overlap));
    }
  }
}

}  // namespace
}  // namespace tfa
