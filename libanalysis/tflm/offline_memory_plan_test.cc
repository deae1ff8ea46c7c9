#include "libanalysis/tflm/offline_memory_plan.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/tflm/micro_allocator_replay.h"
#include "libanalysis/tflm/offline_plan_proposal.h"
#include "tests/support/test_paths.h"

namespace tfa::tflm {
namespace {

const std::string kConvModel =
    "external/tflite-micro__tensorflow_lite_micro_testing_test_conv_model.tflite";

std::vector<uint8_t> FileBytes(const std::string& path) {
  auto bytes = ReadFileBytes(path, uint64_t{1} << 30);
  EXPECT_TRUE(bytes.ok()) << bytes.status().message();
  return bytes.ok() ? std::move(bytes).value() : std::vector<uint8_t>{};
}

// `plan` written into the conv model, saved, loaded back as a model.
Model ConvModelWithPlan(const OfflinePlan& plan, const std::string& name) {
  const std::string source = testing::OraclePath(kConvModel);
  auto written = WithOfflinePlan(FileBytes(source), plan, source);
  EXPECT_TRUE(written.ok()) << written.status().message();
  const std::string path =
      (std::filesystem::temp_directory_path() / ("tfa_offline_plan_" + name + ".tflite")).string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(written->data()),
             static_cast<std::streamsize>(written->size()));
  auto model = LoadModelFile(path);
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

Model ConvModel() {
  auto model = LoadModelFile(testing::OraclePath(kConvModel));
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

TEST(TflmOfflinePlan, WrittenPlanReadsBackAndKeepsTheModel) {
  OfflinePlan plan;
  plan.offsets.assign(15, kOnlinePlannedOffset);
  plan.offsets[3] = 4096;
  const std::string source = testing::OraclePath(kConvModel);
  const std::vector<uint8_t> original = FileBytes(source);
  auto written = WithOfflinePlan(original, plan, source);
  ASSERT_TRUE(written.ok()) << written.status().message();
  auto read = ReadOfflinePlan(*written, "written");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ((*read)->offsets, plan.offsets);
  EXPECT_EQ((*read)->version, 1);
  auto none = ReadOfflinePlan(original, source);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  // Writing again replaces the plan instead of adding a second one.
  plan.offsets[3] = kOnlinePlannedOffset;
  auto rewritten = WithOfflinePlan(*written, plan, "written");
  ASSERT_TRUE(rewritten.ok()) << rewritten.status().message();
  auto reread = ReadOfflinePlan(*rewritten, "rewritten");
  ASSERT_TRUE(reread.ok() && reread->has_value());
  EXPECT_EQ((*reread)->offsets, plan.offsets);

  const Model model = ConvModelWithPlan(plan, "all_online");
  const Model plain = ConvModel();
  EXPECT_EQ(model.subgraphs.size(), plain.subgraphs.size());
  EXPECT_EQ(model.subgraphs[0].nodes.size(), plain.subgraphs[0].nodes.size());
  EXPECT_EQ(model.constant_bytes, plain.constant_bytes);
  // A plan of -1 only is TFLM's online plan.
  auto arena = ReplayMicroAllocator(model, Target::kHost64);
  ASSERT_TRUE(arena.ok()) << arena.status().message();
  EXPECT_TRUE(arena->offline_plan);
  EXPECT_EQ(arena->head, 7744u);
}

// A span that starts off flatbuffers' alignment (found by fuzz_tflm: a misaligned read in the
// Verifier) reads and writes as an aligned one does.
TEST(TflmOfflinePlan, AnUnalignedSpanReadsAndWritesAsAnAlignedOne) {
  OfflinePlan plan;
  plan.offsets.assign(15, kOnlinePlannedOffset);
  plan.offsets[3] = 4096;
  const std::string source = testing::OraclePath(kConvModel);
  auto written = WithOfflinePlan(FileBytes(source), plan, source);
  ASSERT_TRUE(written.ok()) << written.status().message();
  std::vector<uint8_t> shifted(written->size() + 1);
  std::copy(written->begin(), written->end(), shifted.begin() + 1);
  const std::span<const uint8_t> unaligned(shifted.data() + 1, written->size());
  auto read = ReadOfflinePlan(unaligned, "unaligned");
  ASSERT_TRUE(read.ok() && read->has_value()) << read.status().message();
  EXPECT_EQ((*read)->offsets, plan.offsets);
  auto rewritten = WithOfflinePlan(unaligned, plan, "unaligned");
  auto rewritten_aligned = WithOfflinePlan(*written, plan, "aligned");
  ASSERT_TRUE(rewritten.ok() && rewritten_aligned.ok()) << rewritten.status().message();
  EXPECT_EQ(*rewritten, *rewritten_aligned);
}

TEST(TflmOfflinePlan, HandWrittenPlanWithOnlineEntries) {
  auto greedy = ReplayMicroAllocator(ConvModel(), Target::kHost64);
  ASSERT_TRUE(greedy.ok()) << greedy.status().message();
  OfflinePlan plan;
  plan.offsets.assign(15, kOnlinePlannedOffset);
  // The largest head tensor fixed above everything TFLM would plan: the others (-1) are planned
  // online below it, as if it were not there where their lifetimes allow.
  const HeadBuffer* largest = &greedy->head_buffers[0];
  for (const HeadBuffer& buffer : greedy->head_buffers) {
    if (buffer.tensor >= 0 && buffer.size > largest->size) largest = &buffer;
  }
  plan.offsets[static_cast<size_t>(largest->tensor)] = static_cast<int32_t>(greedy->head);
  auto arena = ReplayMicroAllocator(ConvModelWithPlan(plan, "hand_written"), Target::kHost64);
  ASSERT_TRUE(arena.ok()) << arena.status().message();
  for (const HeadBuffer& buffer : arena->head_buffers) {
    if (buffer.tensor == largest->tensor) {
      EXPECT_TRUE(buffer.offline);
      EXPECT_EQ(buffer.offset, greedy->head);
    } else {
      EXPECT_FALSE(buffer.offline);
    }
  }
  // 7,744 + the 4,608-byte tensor on top: the rest fits below it, as TFLM planned them before.
  EXPECT_EQ(largest->size, 4608u);
  EXPECT_EQ(arena->head, 12352u);
  // The tail does not change with the plan.
  EXPECT_EQ(arena->tail, greedy->tail);
}

TEST(TflmOfflinePlan, PlanOfAnotherTensorCountIsRefusedAsTflmRefusesIt) {
  OfflinePlan plan;
  plan.offsets.assign(14, kOnlinePlannedOffset);
  auto arena = ReplayMicroAllocator(ConvModelWithPlan(plan, "short"), Target::kHost64);
  ASSERT_FALSE(arena.ok());
  EXPECT_NE(arena.status().message().find(
                "Nbr of offline buffer offsets (14) in metadata not equal nbr tensors (15)"),
            std::string::npos)
      << arena.status().message();
}

TEST(TflmOfflinePlan, OffsetBeforeTheHeadIsRefused) {
  OfflinePlan plan;
  plan.offsets.assign(15, kOnlinePlannedOffset);
  plan.offsets[2] = -16;
  auto arena = ReplayMicroAllocator(ConvModel(), Target::kHost64, &plan);
  ASSERT_FALSE(arena.ok());
  EXPECT_NE(arena.status().message().find("offset -16"), std::string::npos);
}

TEST(TflmOfflinePlan, TruncatedPlanBufferIsRefused) {
  OfflinePlan plan;
  plan.offsets.assign(15, kOnlinePlannedOffset);
  const std::string source = testing::OraclePath(kConvModel);
  auto written = WithOfflinePlan(FileBytes(source), plan, source);
  ASSERT_TRUE(written.ok());
  // Announce more offsets than the buffer holds: its count word is the first 15 after the name.
  const std::vector<uint8_t> encoded = EncodeOfflinePlan(plan);
  auto at = std::search(written->begin(), written->end(), encoded.begin(), encoded.end());
  ASSERT_NE(at, written->end());
  at[8] = 200;
  auto read = ReadOfflinePlan(*written, "truncated");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("cannot hold the 200 offsets"), std::string::npos);
}

// The round trip convert --tflm-offline-plan makes: the optimal planner's plan, written, read
// back by the replay, gives the head the proposal announced, never more than TFLM's own.
TEST(TflmOfflinePlan, ProposedPlanRoundTrips) {
  for (const Target target : {Target::kHost64, Target::kMcu32}) {
    auto proposal = ProposeOfflinePlan(ConvModel(), target);
    ASSERT_TRUE(proposal.ok()) << proposal.status().message();
    EXPECT_EQ(proposal->greedy_head, 7744u);
    // 4,608 and 3,136 bytes live together: TFLM's greedy plan is already the smallest.
    EXPECT_EQ(proposal->planned_head, 7744u);
    EXPECT_EQ(proposal->optimal_size, 7744u);
    EXPECT_TRUE(proposal->optimal_proven);
    EXPECT_EQ(proposal->fixed_tensors, 8u);
    auto arena = ReplayMicroAllocator(ConvModelWithPlan(proposal->plan, "proposed"), target);
    ASSERT_TRUE(arena.ok()) << arena.status().message();
    EXPECT_EQ(arena->head, proposal->planned_head);
    // No two buffers live at the same time share a byte.
    for (const HeadBuffer& a : arena->head_buffers) {
      for (const HeadBuffer& b : arena->head_buffers) {
        if (&a == &b || a.last_used < b.first_used || b.last_used < a.first_used) continue;
        EXPECT_TRUE(a.offset + a.size <= b.offset || b.offset + b.size <= a.offset)
            << a.tensor << " and " << b.tensor;
      }
    }
  }
}

}  // namespace
}  // namespace tfa::tflm
