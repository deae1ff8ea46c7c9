#include "libanalysis/report/advisor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/advice_json.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// x(1000 B) -> 0 -> 1 -> [2] -> 3 (+ constant w, 4000 B) -> 4 -> [5] -> 6 -> y(70 B)
// Nodes 2 and 5 (OpB) are rejected, so the candidates are {0,1}, {3,4} and {6}:
//   #0 {0,1}: in x 1000, out t2 200
//   #1 {3,4}: in t3 300 (+ w 4000 uploaded once), out t5 50
//   #2 {6}:   in t6 60, out y 70
// #0 and #1 tie at two nodes; keep-1-largest takes #0 (plan order), which copies 1200 B per
// inference where #1 would copy 350 B: the advisor's reason to exist.
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

Subgraph Parse(const char* text) {
  auto model = ParseGraphJson(text, "chain.json");
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return {};
  return model->subgraphs.at(0);
}

// 1 MB/s and 0.1 ms per transition: 1 byte = 1 us, easy to check by hand.
DelegateProfile Profile(const std::string& spec, int32_t max_partitions) {
  auto profile = ResolveDelegateProfile(spec);
  EXPECT_TRUE(profile.ok()) << profile.status().message();
  DelegateProfile p = std::move(profile).value();
  p.partition.max_partitions = max_partitions;
  p.transfer.bandwidth_bytes_per_second = 1e6;
  p.transfer.transition_latency_seconds = 1e-4;
  return p;
}

DelegationAdvice Advise(const Subgraph& subgraph, const DelegateProfile& profile,
                        const AdvisorOptions& options = {}) {
  auto advice = AdviseDelegation(subgraph, profile, PrepareOptionsFor({profile}), options);
  EXPECT_TRUE(advice.ok()) << advice.status().message();
  if (!advice.ok()) return {};
  return std::move(advice).value();
}

constexpr int32_t kAll = std::numeric_limits<int32_t>::max();

TEST(AdvisorTest, CandidatesCarryTheirBoundaryBytes) {
  const Subgraph chain = Parse(kChain);
  const DelegationAdvice advice = Advise(chain, Profile("ops=OpA", 1));
  ASSERT_EQ(advice.candidates.size(), 3u);
  const CandidatePartition& c0 = advice.candidates[0];
  EXPECT_EQ(c0.node_count, 2);
  EXPECT_EQ(c0.first_node, 0);
  EXPECT_EQ(c0.last_node, 1);
  EXPECT_EQ(c0.size_rank, 0);
  EXPECT_TRUE(c0.kept);
  EXPECT_EQ(c0.copy.bytes_to_delegate, 1000u);
  EXPECT_EQ(c0.copy.bytes_from_delegate, 200u);
  EXPECT_EQ(c0.copy.init_upload_bytes, 0u);
  EXPECT_EQ(c0.copy.transitions, 2);
  EXPECT_DOUBLE_EQ(c0.copy.copy_seconds, 1200e-6 + 2e-4);

  const CandidatePartition& c1 = advice.candidates[1];
  EXPECT_EQ(c1.first_node, 3);
  EXPECT_EQ(c1.last_node, 4);
  EXPECT_EQ(c1.size_rank, 1);
  EXPECT_FALSE(c1.kept);
  EXPECT_EQ(c1.copy.bytes_to_delegate, 300u);
  EXPECT_EQ(c1.copy.bytes_from_delegate, 50u);
  EXPECT_EQ(c1.copy.init_upload_bytes, 4000u);
  EXPECT_DOUBLE_EQ(c1.copy.copy_seconds, 350e-6 + 2e-4);

  const CandidatePartition& c2 = advice.candidates[2];
  EXPECT_EQ(c2.node_count, 1);
  EXPECT_EQ(c2.first_node, 6);
  EXPECT_EQ(c2.size_rank, 2);
  EXPECT_EQ(c2.copy.bytes_per_inference(), 130u);
}

TEST(AdvisorTest, MaxPartitionsTableShowsEverySetting) {
  const DelegationAdvice advice = Advise(Parse(kChain), Profile("ops=OpA", 1));
  EXPECT_EQ(advice.profile_max_partitions, 1);
  ASSERT_EQ(advice.max_partition_outcomes.size(), 3u);
  EXPECT_FALSE(advice.max_partitions_table_capped);

  const DelegationOutcome& one = advice.max_partition_outcomes[0];
  EXPECT_EQ(one.max_partitions, 1);
  EXPECT_THAT(one.kept_candidates, ElementsAre(0));
  EXPECT_EQ(one.delegated_nodes, 2);
  EXPECT_EQ(one.delegated_partitions, 1);
  EXPECT_EQ(one.copy.bytes_per_inference(), 1200u);
  EXPECT_EQ(one.copy.transitions, 2);

  const DelegationOutcome& two = advice.max_partition_outcomes[1];
  EXPECT_THAT(two.kept_candidates, ElementsAre(0, 1));
  EXPECT_EQ(two.delegated_nodes, 4);
  EXPECT_EQ(two.delegated_partitions, 2);
  EXPECT_EQ(two.copy.bytes_to_delegate, 1300u);
  EXPECT_EQ(two.copy.bytes_from_delegate, 250u);
  EXPECT_EQ(two.copy.init_upload_bytes, 4000u);
  EXPECT_EQ(two.copy.transitions, 4);

  const DelegationOutcome& three = advice.max_partition_outcomes[2];
  EXPECT_THAT(three.kept_candidates, ElementsAre(0, 1, 2));
  EXPECT_EQ(three.delegated_nodes, 5);
  EXPECT_EQ(three.delegated_partitions, 3);
  EXPECT_EQ(three.copy.bytes_per_inference(), 1680u);
  EXPECT_EQ(three.copy.transitions, 6);
  EXPECT_DOUBLE_EQ(three.copy.copy_seconds, 1680e-6 + 6e-4);

  // The profile's own setting is N = 1.
  EXPECT_EQ(advice.profile_outcome.copy.bytes_per_inference(), 1200u);
  EXPECT_THAT(advice.profile_outcome.kept_candidates, ElementsAre(0));
}

TEST(AdvisorTest, SupportingABridgeMergesItsNeighboursWhenAllPartitionsAreKept) {
  const DelegationAdvice advice = Advise(Parse(kChain), Profile("ops=OpA", kAll));
  EXPECT_EQ(advice.unsupported_adjacent, 2);
  ASSERT_EQ(advice.unsupported_impacts.size(), 2u);

  // Node 2: {0,1,2,3,4} in x + w, out t5; {6} in t6, out y: 1060 + 120 B, 4 transitions.
  const UnsupportedNodeImpact& first = advice.unsupported_impacts[0];
  EXPECT_EQ(first.node, 2);
  EXPECT_EQ(first.op, "CUSTOM OpB");
  EXPECT_EQ(first.reason, "op not listed in ops=OpA");
  EXPECT_THAT(first.joined_candidates, ElementsAre(0, 1));
  EXPECT_EQ(first.candidate_count_after, 2);
  EXPECT_EQ(first.after.delegated_partitions, 2);
  EXPECT_EQ(first.after.copy.bytes_per_inference(), 1180u);
  EXPECT_EQ(first.bytes_saved_per_inference, 1680 - 1180);
  EXPECT_EQ(first.transitions_saved, 2);
  EXPECT_EQ(first.delegated_nodes_gained, 1);
  EXPECT_DOUBLE_EQ(first.copy_seconds_saved, (1680e-6 + 6e-4) - (1180e-6 + 4e-4));

  // Node 5: {0,1} 1200 B; {3,4,5,6} in t3 300, out y 70: 1570 B.
  const UnsupportedNodeImpact& second = advice.unsupported_impacts[1];
  EXPECT_EQ(second.node, 5);
  EXPECT_THAT(second.joined_candidates, ElementsAre(1, 2));
  EXPECT_EQ(second.bytes_saved_per_inference, 110);
  EXPECT_EQ(second.transitions_saved, 2);
}

TEST(AdvisorTest, ImpactIsMeasuredUnderTheProfilesKeepLargestSetting) {
  // Keeping one partition: supporting node 2 keeps {0..4} (1050 B, saves 150 B) while
  // supporting node 5 keeps {3,4,5,6} (370 B, saves 830 B): node 5 ranks first.
  const DelegationAdvice advice = Advise(Parse(kChain), Profile("ops=OpA", 1));
  ASSERT_EQ(advice.unsupported_impacts.size(), 2u);
  const UnsupportedNodeImpact& first = advice.unsupported_impacts[0];
  EXPECT_EQ(first.node, 5);
  EXPECT_EQ(first.after.copy.bytes_per_inference(), 370u);
  EXPECT_EQ(first.bytes_saved_per_inference, 830);
  EXPECT_EQ(first.transitions_saved, 0);
  EXPECT_EQ(first.delegated_nodes_gained, 2);
  EXPECT_THAT(first.after.kept_candidates, ElementsAre(1, 2));
  const UnsupportedNodeImpact& second = advice.unsupported_impacts[1];
  EXPECT_EQ(second.node, 2);
  EXPECT_EQ(second.after.copy.bytes_per_inference(), 1050u);
  EXPECT_EQ(second.bytes_saved_per_inference, 150);
  EXPECT_EQ(second.delegated_nodes_gained, 3);
}

TEST(AdvisorTest, CapsAreNoted) {
  const DelegationAdvice advice =
      Advise(Parse(kChain), Profile("nodes=0,1,3,4,6", 1),
             AdvisorOptions{.max_partitions_table = 2, .max_unsupported_analysed = 1});
  EXPECT_EQ(advice.max_partition_outcomes.size(), 2u);
  EXPECT_TRUE(advice.max_partitions_table_capped);
  EXPECT_EQ(advice.unsupported_adjacent, 2);
  ASSERT_EQ(advice.unsupported_impacts.size(), 1u);
  // Both touch two candidates; the first in plan order is analysed.
  EXPECT_EQ(advice.unsupported_impacts[0].node, 2);
  EXPECT_THAT(advice.notes, Contains(HasSubstr("stops at 2 of 3 candidates")));
  EXPECT_THAT(advice.notes, Contains(HasSubstr("re-selected 1 of 2 unsupported nodes")));
}

TEST(AdvisorTest, GroupsRejectionsAndSkipsNodesAwayFromCandidates) {
  // Node 3 reads only the graph input and feeds only a graph output: no candidate is next to it.
  constexpr char kSide[] = R"({"format":"tflite-analyze-graph/1",
   "tensors":[{"bytes":16},{"bytes":16},{"bytes":16},{"bytes":16},{"bytes":16}],
   "nodes":[{"op":"OpA","inputs":[0],"outputs":[1]},
            {"op":"OpB","inputs":[1],"outputs":[2]},
            {"op":"OpA","inputs":[2],"outputs":[3]},
            {"op":"OpB","inputs":[0],"outputs":[4]}],
   "inputs":[0],"outputs":[3,4],"variables":[]})";
  const DelegationAdvice advice = Advise(Parse(kSide), Profile("ops=OpA", kAll));
  ASSERT_EQ(advice.rejection_groups.size(), 1u);
  EXPECT_EQ(advice.rejection_groups[0].op, "CUSTOM OpB");
  EXPECT_THAT(advice.rejection_groups[0].nodes, ElementsAre(1, 3));
  EXPECT_EQ(advice.unsupported_adjacent, 1);
  ASSERT_EQ(advice.unsupported_impacts.size(), 1u);
  EXPECT_EQ(advice.unsupported_impacts[0].node, 1);
  EXPECT_THAT(advice.notes, Contains(HasSubstr("1 unsupported nodes touch no candidate")));
}

TEST(AdvisorTest, NothingSupportedGivesAnEmptyAdvice) {
  const DelegationAdvice advice = Advise(Parse(kChain), Profile("ops=NONE", 1));
  EXPECT_THAT(advice.candidates, IsEmpty());
  EXPECT_THAT(advice.max_partition_outcomes, IsEmpty());
  EXPECT_THAT(advice.unsupported_impacts, IsEmpty());
  EXPECT_EQ(advice.profile_outcome.delegated_nodes, 0);
  EXPECT_EQ(advice.profile_outcome.copy.transitions, 0);
  EXPECT_EQ(advice.rejection_groups.size(), 2u);  // CUSTOM OpA and CUSTOM OpB
}

// Keep-1-largest delegates {0,1} (2 nodes, 1200 B per inference); supporting OpB (nodes 2 and 5)
// makes one partition of all 7 nodes, which copies x in and y out.
TEST(AdvisorTest, SupportingAnOpReselectsAllItsNodesAtOnce) {
  const DelegationAdvice advice = Advise(Parse(kChain), Profile("ops=OpA", 1));
  ASSERT_EQ(advice.op_impacts.size(), 1u);
  const OpSupportImpact& impact = advice.op_impacts[0];
  EXPECT_EQ(impact.op, advice.rejection_groups.at(0).op);
  EXPECT_EQ(impact.rejected_nodes, 2);
  EXPECT_EQ(impact.after.delegated_nodes, 7);
  EXPECT_EQ(impact.delegated_nodes_gained, 5);
  EXPECT_EQ(impact.delegated_partitions_saved, 0);
  EXPECT_EQ(impact.bytes_saved_per_inference, 1200 - 1070);
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(AdviceToJson(advice));
  EXPECT_EQ(json["op_impacts"][0]["delegated_nodes_gained"], 5);
}

TEST(AdvisorTest, JsonSaysWhatItEstimates) {
  const Subgraph chain = Parse(kChain);
  const DelegationAdvice advice = Advise(chain, Profile("ops=OpA", 1));
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(AdviceToJson(advice));
  EXPECT_EQ(json["delegate"], "ops=OpA");
  EXPECT_THAT(json["estimate"].get<std::string>(), HasSubstr("copy-cost estimate"));
  EXPECT_EQ(json["candidates"].size(), 3u);
  EXPECT_EQ(json["candidates"][1]["copy"]["init_upload_bytes"], 4000);
  EXPECT_EQ(json["max_partitions"][1]["copy"]["bytes_per_inference"], 1550);
  EXPECT_EQ(json["unsupported_impacts"][0]["node"], 5);
  EXPECT_EQ(json["unsupported_impacts"][0]["joined_candidates"], nlohmann::json({1, 2}));
  EXPECT_EQ(json["unsupported_impacts"][0]["bytes_saved_per_inference"], 830);
  EXPECT_EQ(json["unsupported_impacts"][0]["delegated_nodes_gained"], 2);
  EXPECT_EQ(json["profile_outcome"]["kept_candidates"], nlohmann::json({0}));
  EXPECT_THAT(advice.notes, Contains(std::string(kAdviceEstimateNote)));
}

// A corpus model the GPU delegate splits: three custom ops (Landmarks2TransformMatrix,
// TransformTensorBilinear, TransformLandmarks) cut it into candidates of 93, 232 and 5 nodes.
class AdvisorCorpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto model = LoadModelFile(testing::CorpusModelPath("face_mesh__face_landmark_with_attention"));
    ASSERT_TRUE(model.ok()) << model.status().message();
    model_ = std::move(model).value();
    auto profile = ResolveDelegateProfile("gpu");
    ASSERT_TRUE(profile.ok()) << profile.status().message();
    // As `report --advise` asks: on the plan, which kept the graph the delegate found.
    PlanOptions options;
    options.delegates = {*profile};
    options.keep_delegate_inputs = true;
    auto plan = PlanModel(model_, options);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    auto advice = AdviseDelegation(*plan, 0, 0);
    ASSERT_TRUE(advice.ok()) << advice.status().message();
    advice_ = std::move(advice).value();
  }

  Model model_;
  DelegationAdvice advice_;
};

TEST_F(AdvisorCorpusTest, GpuCandidatesOfFaceLandmarkWithAttention) {
  ASSERT_EQ(advice_.candidates.size(), 3u);
  EXPECT_EQ(advice_.profile_max_partitions, 1);
  EXPECT_FALSE(advice_.full_delegation);
  const CandidatePartition& c0 = advice_.candidates[0];
  EXPECT_EQ(c0.node_count, 93);
  EXPECT_EQ(c0.first_node, 2);
  EXPECT_EQ(c0.last_node, 706);
  EXPECT_FALSE(c0.kept);
  EXPECT_EQ(c0.copy.bytes_to_delegate, 442368u);  // the 1x192x192x3 float32 image
  EXPECT_EQ(c0.copy.bytes_from_delegate, 317380u);
  const CandidatePartition& c1 = advice_.candidates[1];
  EXPECT_EQ(c1.node_count, 232);
  EXPECT_EQ(c1.size_rank, 0);
  EXPECT_TRUE(c1.kept);
  EXPECT_EQ(c1.copy.bytes_per_inference(), 100544u);
  // Read as fp16 constants, as the FP16 helper rewires them: what N = 1 uploads.
  EXPECT_EQ(c1.copy.init_upload_bytes, advice_.max_partition_outcomes.at(0).copy.init_upload_bytes);
  EXPECT_EQ(advice_.candidates[2].node_count, 5);

  ASSERT_EQ(advice_.max_partition_outcomes.size(), 3u);
  EXPECT_EQ(advice_.max_partition_outcomes[1].delegated_nodes, 325);
  EXPECT_EQ(advice_.max_partition_outcomes[1].copy.bytes_per_inference(), 860292u);
  EXPECT_EQ(advice_.max_partition_outcomes[2].delegated_nodes, 330);
  EXPECT_EQ(advice_.max_partition_outcomes[2].copy.transitions, 6);

  // Eleven custom ops are rejected, all next to a candidate. Supporting one of the three
  // Landmarks2TransformMatrix grows candidate #0 by a node of #1; with one partition kept,
  // that saves 128 bytes and delegates one node fewer.
  EXPECT_EQ(advice_.unsupported_adjacent, 11);
  ASSERT_EQ(advice_.unsupported_impacts.size(), 11u);
  const UnsupportedNodeImpact& top = advice_.unsupported_impacts[0];
  EXPECT_EQ(top.node, 192);
  EXPECT_EQ(top.op, "CUSTOM Landmarks2TransformMatrix");
  EXPECT_THAT(top.joined_candidates, ElementsAre(0));
  EXPECT_THAT(top.partly_joined_candidates, ElementsAre(1));
  EXPECT_EQ(top.bytes_saved_per_inference, 128);
  EXPECT_EQ(top.delegated_nodes_gained, -1);
  ASSERT_EQ(advice_.rejection_groups.size(), 3u);
  EXPECT_EQ(advice_.rejection_groups[0].op, "CUSTOM TransformLandmarks");
  EXPECT_THAT(advice_.rejection_groups[0].nodes, ElementsAre(701, 702, 703, 704, 705));
}

// Each row of the --max-partitions table is what the report shows for that setting.
TEST_F(AdvisorCorpusTest, MaxPartitionsTableMatchesTheReport) {
  for (const DelegationOutcome& outcome : advice_.max_partition_outcomes) {
    ReportOptions options;
    DelegateRequest gpu;
    gpu.spec = "gpu";
    gpu.max_partitions = outcome.max_partitions;
    options.delegates.push_back(gpu);
    options.plan_arena = true;
    auto report = BuildReport(model_, options);
    ASSERT_TRUE(report.ok()) << report.status().message();
    const SubgraphReport& subgraph = report->subgraphs.at(0);
    SCOPED_TRACE("max_partitions " + std::to_string(outcome.max_partitions));
    EXPECT_EQ(subgraph.delegated_partition_count, outcome.delegated_partitions);
    EXPECT_EQ(subgraph.copy.bytes_to_delegate, outcome.copy.bytes_to_delegate);
    EXPECT_EQ(subgraph.copy.bytes_from_delegate, outcome.copy.bytes_from_delegate);
    EXPECT_EQ(subgraph.copy.init_upload_bytes, outcome.copy.init_upload_bytes);
    EXPECT_EQ(static_cast<int64_t>(subgraph.copy.transitions), outcome.copy.transitions);
    size_t delegated_nodes = 0;
    for (const PartitionReport& p : subgraph.partitions) {
      if (p.kind == PartitionReport::Kind::kDelegate) delegated_nodes += p.nodes.size();
    }
    EXPECT_EQ(delegated_nodes, static_cast<size_t>(outcome.delegated_nodes));
  }
}

}  // namespace
}  // namespace tfa
