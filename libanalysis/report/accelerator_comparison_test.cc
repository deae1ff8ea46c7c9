#include "libanalysis/report/accelerator_comparison.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/accelerator_comparison_json.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// x(1000 B) -> 0 -> 1 -> [2] -> 3 (+ constant w, 4000 B) -> 4 -> [5] -> 6 -> y(70 B), nodes 2
// and 5 are OpB, the others OpA (the advisor test's chain).
constexpr char kChain[] = R"({"format":"tflite-analyze-graph/1",
 "tensors":[
  {"name":"x","bytes":1000},{"name":"t1","bytes":100},{"name":"t2","bytes":200},
  {"name":"t3","bytes":300},{"name":"t4","bytes":40},{"name":"t5","bytes":50},
  {"name":"t6","bytes":60},{"name":"y","bytes":70},{"name":"w","bytes":4000,"alloc":"mmap_ro"}],
 "nodes":[
  {"op":"OpA","inputs":[0],"outputs":[1]},
  {"op":"OpA","inputs":[1],"outputs":[2]},
  {"op":"OpB","inputs":[2],"outputs":[3]},
  {"op":"OpA","inputs":[3,8],"outputs":[4]},
  {"op":"OpA","inputs":[4],"outputs":[5]},
  {"op":"OpB","inputs":[5],"outputs":[6]},
  {"op":"OpA","inputs":[6],"outputs":[7]}],
 "inputs":[0],"outputs":[7],"variables":[]})";

std::shared_ptr<const Model> Chain() {
  auto model = ParseGraphJson(kChain, "chain.json");
  EXPECT_TRUE(model.ok()) << model.status().message();
  return std::make_shared<const Model>(std::move(model).value());
}

AcceleratorComparison Compare(const std::vector<std::string>& accelerators) {
  ComparisonOptions options;
  options.accelerators = accelerators;
  auto comparison = CompareAccelerators(Chain(), options);
  EXPECT_TRUE(comparison.ok()) << comparison.status().message();
  if (!comparison.ok()) return {};
  return std::move(comparison).value();
}

std::vector<std::string> Order(const AcceleratorComparison& comparison) {
  std::vector<std::string> names;
  for (const AcceleratorCandidate& c : comparison.candidates) names.push_back(c.accelerator);
  return names;
}

TEST(AcceleratorComparisonTest, RanksByCpuNodesThenBytesThenPartitions) {
  const AcceleratorComparison comparison =
      Compare({"ops=ADD", "ops=OpB", "ops=OpA", "ops=OpA,OpB"});
  EXPECT_THAT(Order(comparison), ElementsAre("ops=OpA,OpB", "ops=OpA", "ops=OpB", "ops=ADD"));
  ASSERT_EQ(comparison.candidates.size(), 4u);
  const AcceleratorCandidate& all = comparison.candidates[0];
  EXPECT_EQ(all.rank, 0);
  EXPECT_EQ(all.nodes, 7u);
  EXPECT_EQ(all.cpu_nodes, 0u);
  EXPECT_EQ(all.delegated_partitions, 1u);
  EXPECT_EQ(all.bytes_to_delegate, 1000u);
  EXPECT_EQ(all.bytes_from_delegate, 70u);
  EXPECT_EQ(all.transitions, 2u);
  EXPECT_EQ(all.init_upload_bytes, 4000u);
  EXPECT_THAT(all.support_next, IsEmpty());

  // {0,1}, {3,4}, {6}: in x + t3 + t6, out t2 + t5 + y, three round trips.
  const AcceleratorCandidate& op_a = comparison.candidates[1];
  EXPECT_EQ(op_a.cpu_nodes, 2u);
  EXPECT_EQ(op_a.delegated_partitions, 3u);
  EXPECT_EQ(op_a.bytes_per_inference(), 1000u + 300u + 60u + 200u + 50u + 70u);
  EXPECT_EQ(op_a.transitions, 6u);
  ASSERT_EQ(op_a.support_next.size(), 1u);
  EXPECT_EQ(op_a.support_next[0].op, "CUSTOM OpB");
  EXPECT_EQ(op_a.support_next[0].rejected_nodes, 2);
  EXPECT_EQ(op_a.support_next[0].cpu_nodes_moved, 2);
  EXPECT_EQ(op_a.support_next[0].delegated_partitions_saved, 2);
  EXPECT_EQ(op_a.support_next[0].bytes_saved_per_inference, 1680 - 1070);

  // {2}, {5}: in t2 + t5, out t3 + t6.
  const AcceleratorCandidate& op_b = comparison.candidates[2];
  EXPECT_EQ(op_b.cpu_nodes, 5u);
  EXPECT_EQ(op_b.bytes_per_inference(), 200u + 50u + 300u + 60u);
  ASSERT_EQ(op_b.support_next.size(), 1u);
  EXPECT_EQ(op_b.support_next[0].op, "CUSTOM OpA");
  EXPECT_EQ(op_b.support_next[0].cpu_nodes_moved, 5);
  EXPECT_EQ(op_b.support_next[0].delegated_partitions_saved, 1);
  EXPECT_EQ(op_b.support_next[0].bytes_saved_per_inference, 610 - 1070);

  // Nothing delegated: supporting OpA moves more nodes than OpB, though it adds more partitions.
  const AcceleratorCandidate& none = comparison.candidates[3];
  EXPECT_EQ(none.cpu_nodes, 7u);
  EXPECT_EQ(none.bytes_per_inference(), 0u);
  ASSERT_EQ(none.support_next.size(), 2u);
  EXPECT_EQ(none.support_next[0].op, "CUSTOM OpA");
  EXPECT_EQ(none.support_next[0].cpu_nodes_moved, 5);
  EXPECT_EQ(none.support_next[0].delegated_partitions_saved, -3);
  EXPECT_EQ(none.support_next[1].op, "CUSTOM OpB");
}

TEST(AcceleratorComparisonTest, TiesKeepTheOrderAskedFor) {
  EXPECT_THAT(Order(Compare({"nodes=0,1,3,4,6", "ops=OpA"})),
              ElementsAre("nodes=0,1,3,4,6", "ops=OpA"));
  EXPECT_THAT(Order(Compare({"ops=OpA", "nodes=0,1,3,4,6"})),
              ElementsAre("ops=OpA", "nodes=0,1,3,4,6"));
}

TEST(AcceleratorComparisonTest, XnnpackCopiesNothing) {
  const AcceleratorComparison comparison = Compare({"xnnpack"});
  ASSERT_EQ(comparison.candidates.size(), 1u);
  EXPECT_EQ(comparison.candidates[0].bytes_per_inference(), 0u);
}

TEST(AcceleratorComparisonTest, AnUnknownCandidateIsNamed) {
  ComparisonOptions options;
  options.accelerators = {"npu:nosuch"};
  auto comparison = CompareAccelerators(Chain(), options);
  ASSERT_FALSE(comparison.ok());
  EXPECT_THAT(comparison.status().message(), ::testing::StartsWith("candidate npu:nosuch: "));
}

TEST(AcceleratorComparisonTest, DefaultCandidatesAreGpuXnnpackAndEveryNpuPlugin) {
  EXPECT_THAT(DefaultAcceleratorCandidates(),
              ElementsAre("gpu", "xnnpack", "npu:example", "npu:google_tensor", "npu:mediatek",
                          "npu:qualcomm"));
}

TEST(AcceleratorComparisonTest, JsonCarriesTheRankingAndSupportNext) {
  const auto j = nlohmann::json::parse(AcceleratorComparisonToJson(Compare({"ops=OpA"})));
  EXPECT_EQ(j.at("ranking"),
            "fewest CPU nodes, then fewest bytes copied per inference, then fewest delegate "
            "partitions");
  const auto& c = j.at("candidates").at(0);
  EXPECT_EQ(c.at("rank"), 0);
  EXPECT_EQ(c.at("cpu_nodes"), 2);
  EXPECT_EQ(c.at("copy").at("bytes_per_inference"), 1680);
  EXPECT_EQ(c.at("support_next").at(0).at("op"), "CUSTOM OpB");
  EXPECT_EQ(c.at("support_next").at(0).at("cpu_nodes_moved"), 2);
}

// face_landmark: the GPU delegate takes all 210 nodes; Qualcomm's plugin has no PRELU, so its 23
// PRELU nodes stay on the CPU, and supporting PRELU would move exactly those.
TEST(AcceleratorComparisonTest, FaceLandmarkAcrossEveryDefaultCandidate) {
  auto model = LoadModelFile(testing::CorpusModelPath("face_mesh__face_landmark"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto comparison =
      CompareAccelerators(std::make_shared<const Model>(std::move(model).value()), {});
  ASSERT_TRUE(comparison.ok()) << comparison.status().message();
  EXPECT_THAT(Order(*comparison), ElementsAre("xnnpack", "gpu", "npu:google_tensor", "npu:mediatek",
                                              "npu:qualcomm", "npu:example"));
  for (const AcceleratorCandidate& c : comparison->candidates) {
    if (c.accelerator == "gpu") {
      EXPECT_EQ(c.cpu_nodes, 0u);
    }
    if (c.accelerator != "npu:qualcomm") continue;
    EXPECT_EQ(c.cpu_nodes, 23u);
    ASSERT_FALSE(c.support_next.empty());
    EXPECT_EQ(c.support_next[0].op, "PRELU");
    EXPECT_EQ(c.support_next[0].cpu_nodes_moved, 23);
    EXPECT_THAT(c.notes, Contains(HasSubstr("transcribed; the vendor SDK's own op validation")));
  }
}

}  // namespace
}  // namespace tfa
