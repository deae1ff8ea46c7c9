#include "libanalysis/arena/gpu_memory_assignment.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "libanalysis/arena/alternative_planners.h"

namespace tfa {
namespace {

using ::testing::ElementsAre;

// upstream's memory_management_test.cc, ChainRecords.
const std::vector<GpuUsageRecord> kChain = {
    {16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};
// upstream's memory_management_test.cc, ComplexRecords.
const std::vector<GpuUsageRecord> kComplex = {{32, 0, 1}, {32, 1, 4}, {8, 2, 5},
                                              {16, 3, 5}, {8, 4, 5},  {64, 5, 7},
                                              {8, 6, 8},  {8, 7, 8},  {16, 8, 9}};

TEST(GpuMemoryAssignment, ChainRecordsAsUpstreamsTest) {
  const GpuObjectsAssignment breadth = AssignGreedyByBreadth(kChain);
  EXPECT_THAT(breadth.object_of, ElementsAre(0, 1, 0, 1, 0));
  EXPECT_THAT(breadth.object_bytes, ElementsAre(64, 32));
  const GpuObjectsAssignment by_size = AssignGreedyBySizeDistance(kChain);
  EXPECT_THAT(by_size.object_of, ElementsAre(0, 1, 0, 1, 0));
  EXPECT_THAT(by_size.object_bytes, ElementsAre(64, 32));
  const GpuOffsetsAssignment offsets = AssignGreedyBySizeOffsets(kChain, 1);
  EXPECT_THAT(offsets.offsets, ElementsAre(0, 64, 0, 64, 0));
  EXPECT_EQ(offsets.total_bytes, 96u);
}

TEST(GpuMemoryAssignment, ComplexRecordsAsUpstreamsTest) {
  const GpuObjectsAssignment breadth = AssignGreedyByBreadth(kComplex);
  EXPECT_THAT(breadth.object_of, ElementsAre(0, 4, 2, 1, 3, 0, 2, 3, 1));
  EXPECT_THAT(breadth.object_bytes, ElementsAre(64, 16, 8, 8, 32));
  const GpuObjectsAssignment by_size = AssignGreedyBySizeDistance(kComplex);
  EXPECT_THAT(by_size.object_of, ElementsAre(1, 0, 2, 1, 3, 0, 1, 2, 0));
  EXPECT_THAT(by_size.object_bytes, ElementsAre(64, 32, 8, 8));
  const GpuOffsetsAssignment offsets = AssignGreedyBySizeOffsets(kComplex, 1);
  EXPECT_THAT(offsets.offsets, ElementsAre(0, 32, 80, 64, 88, 0, 64, 72, 0));
  EXPECT_EQ(offsets.total_bytes, 96u);
}

TEST(GpuMemoryAssignment, GreedyBestKeepsBySizeUnlessBreadthIsStrictlySmaller) {
  // Both give 112 bytes on the complex records (64+32+8+8 and 64+16+8+8+32): by size stays.
  const GpuObjectsAssignment best = AssignGreedyBest(kComplex);
  EXPECT_THAT(best.object_bytes, ElementsAre(64, 32, 8, 8));
}

TEST(GpuMemoryAssignment, OffsetsWinWhenNoLargerThanTheObjects) {
  const GpuSharedBuffers plan = PlanGpuSharedBuffers(kChain, 1, true);
  EXPECT_TRUE(plan.uses_offsets);
  EXPECT_THAT(plan.buffer_bytes, ElementsAre(96));
  EXPECT_EQ(plan.total_bytes, 96u);
}

TEST(GpuMemoryAssignment, AlignedOffsetsCanLoseToTheObjects) {
  // Aligned to 128, the offsets need 64 + 128 + 64 ...: the objects (96 bytes unaligned) win and
  // are laid one after another, each rounded up to 128.
  const GpuSharedBuffers plan = PlanGpuSharedBuffers(kChain, 128, true);
  EXPECT_FALSE(plan.uses_offsets);
  EXPECT_THAT(plan.buffer_bytes, ElementsAre(256));
  EXPECT_THAT(plan.offsets, ElementsAre(0, 128, 0, 128, 0));
}

TEST(GpuMemoryAssignment, WithoutSubBuffersOneBufferPerObject) {
  const GpuSharedBuffers plan = PlanGpuSharedBuffers(kComplex, 128, false);
  EXPECT_THAT(plan.buffer_bytes, ElementsAre(64, 32, 8, 8));
  EXPECT_EQ(plan.total_bytes, 112u);
  EXPECT_TRUE(PlanGpuSharedBuffers({}, 128, true).buffer_bytes.empty());
}

std::vector<GpuUsageRecord> GenRecords() {
  const uint32_t tasks = *rc::gen::inRange<uint32_t>(1, 8);
  const size_t count = *rc::gen::inRange<size_t>(1, 20);
  std::vector<GpuUsageRecord> records;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t first = *rc::gen::inRange<uint32_t>(0, tasks);
    const uint32_t last = *rc::gen::inRange<uint32_t>(first, tasks);
    records.push_back({*rc::gen::element<uint64_t>(1, 16, 64, 100, 128, 200, 512), first, last});
  }
  return records;
}

std::vector<ArenaBlock> AsBlocks(const std::vector<GpuUsageRecord>& records) {
  std::vector<ArenaBlock> blocks;
  uint64_t stacked = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    blocks.push_back({static_cast<int32_t>(i), stacked, records[i].bytes,
                      static_cast<int32_t>(records[i].first_task),
                      static_cast<int32_t>(records[i].last_task)});
    stacked += (records[i].bytes + 127) / 128 * 128;
  }
  return blocks;
}

// The arena's alternative planners run the same two greedy algorithms on TFLite's blocks, written
// independently: on the same lifetimes they agree byte for byte.
RC_GTEST_PROP(GpuMemoryAssignmentProperty, AgreesWithTheArenasGreedyPlanners, ()) {
  const std::vector<GpuUsageRecord> records = GenRecords();
  const uint64_t alignment = *rc::gen::element<uint64_t>(1, 4, 128);
  const std::vector<ArenaBlock> blocks = AsBlocks(records);
  auto by_size = PlanWith(PlannerKind::kGreedyBySize, blocks, 8, {.alignment = alignment});
  RC_ASSERT(by_size.ok());
  const GpuOffsetsAssignment offsets = AssignGreedyBySizeOffsets(records, alignment);
  for (size_t i = 0; i < records.size(); ++i)
    RC_ASSERT(offsets.offsets[i] == by_size->blocks[i].offset);
  RC_ASSERT(offsets.total_bytes == by_size->arena_size);

  auto breadth = PlanWith(PlannerKind::kGreedyByBreadth, blocks, 8, {.alignment = 1});
  RC_ASSERT(breadth.ok());
  RC_ASSERT(AssignGreedyByBreadth(records).TotalBytes() == breadth->arena_size);
}

// Every assignment keeps records that live at the same time apart.
RC_GTEST_PROP(GpuMemoryAssignmentProperty, NoTwoLiveRecordsShareMemory, ()) {
  const std::vector<GpuUsageRecord> records = GenRecords();
  const uint64_t alignment = *rc::gen::element<uint64_t>(1, 128);
  const GpuSharedBuffers plan = PlanGpuSharedBuffers(records, alignment, true);
  for (size_t i = 0; i < records.size(); ++i) {
    RC_ASSERT(plan.offsets[i] % alignment == 0);
    RC_ASSERT(plan.objects.object_bytes[plan.objects.object_of[i]] >= records[i].bytes);
    RC_ASSERT(plan.offsets[i] + records[i].bytes <= plan.total_bytes);
    for (size_t j = i + 1; j < records.size(); ++j) {
      const bool live = records[i].first_task <= records[j].last_task &&
                        records[j].first_task <= records[i].last_task;
      const bool overlap = plan.offsets[i] < plan.offsets[j] + records[j].bytes &&
                           plan.offsets[j] < plan.offsets[i] + records[i].bytes;
      RC_ASSERT(!(live && overlap));
      if (live) RC_ASSERT(plan.objects.object_of[i] != plan.objects.object_of[j]);
    }
  }
}

}  // namespace
}  // namespace tfa
