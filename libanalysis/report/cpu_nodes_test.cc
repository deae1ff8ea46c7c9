#include "libanalysis/report/cpu_nodes.h"

#include <gtest/gtest.h>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

// x -ADD-> a -SIN-> b -ADD-> y -MUL-> z
constexpr const char* kChain = R"({"format":"tflite-analyze-graph/1",
  "tensors":[{"name":"x","bytes":400},{"name":"a","bytes":400},{"name":"b","bytes":400},
             {"name":"y","bytes":400},{"name":"z","bytes":400}],
  "nodes":[{"op":"ADD","inputs":[0,0],"outputs":[1]},
           {"op":"SIN","inputs":[1],"outputs":[2]},
           {"op":"ADD","inputs":[2,2],"outputs":[3]},
           {"op":"MUL","inputs":[3,3],"outputs":[4]}],
  "inputs":[0],"outputs":[4],"variables":[]})";

struct Built {
  Model model;
  Report report;
};

Built Build(const std::vector<DelegateRequest>& delegates) {
  auto model = ParseGraphJson(kChain, "chain.json");
  EXPECT_TRUE(model.ok()) << model.status().message();
  ReportOptions options;
  options.delegates = delegates;
  auto report = BuildReport(*model, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return {*model, *report};
}

DelegateRequest Ops(const std::string& ops, std::optional<int32_t> max_partitions = {}) {
  DelegateRequest r;
  r.spec = "ops=" + ops;
  r.max_partitions = max_partitions;
  return r;
}

TEST(NodesLeftOnCpu, ANodeTheNextDelegateTakesIsNotOnTheCpu) {
  const Built b = Build({Ops("ADD"), Ops("SIN")});
  const SubgraphReport& s = b.report.subgraphs.at(0);
  // ops=ADD rejects SIN and MUL; ops=SIN rejects MUL and the two ops=ADD kernels.
  EXPECT_EQ(s.unsupported.size(), 5u);
  const std::vector<CpuNode> nodes = NodesLeftOnCpu(s, b.model.subgraphs[0], b.report.delegates);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].node, 3);
  EXPECT_EQ(nodes[0].op, "MUL");
  EXPECT_EQ(nodes[0].reason,
            "ops=ADD: op not listed in ops=ADD; ops=SIN: op not listed in ops=SIN");
}

TEST(NodesLeftOnCpu, SupportedNodesOfPartitionsNotKeptAreOnTheCpu) {
  const Built b = Build({Ops("ADD", 1)});
  const SubgraphReport& s = b.report.subgraphs.at(0);
  const std::vector<CpuNode> nodes = NodesLeftOnCpu(s, b.model.subgraphs[0], b.report.delegates);
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0].node, 1);
  EXPECT_EQ(nodes[0].reason, "op not listed in ops=ADD");
  EXPECT_EQ(nodes[1].node, 2);
  EXPECT_EQ(nodes[1].reason, "supported, but its partition was not kept");
  EXPECT_EQ(nodes[2].node, 3);
}

TEST(NodesLeftOnCpu, NoDelegateNoList) {
  const Built b = Build({});
  EXPECT_TRUE(NodesLeftOnCpu(b.report.subgraphs.at(0), b.model.subgraphs[0], {}).empty());
}

TEST(NodesLeftOnCpu, UpstreamCountsForTheGpuDelegateKeepingOnePartition) {
  auto model = LoadModelFile(testing::CorpusModelPath("face_mesh__face_landmark_with_attention"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  ReportOptions options;
  DelegateRequest gpu;
  gpu.spec = "gpu";
  options.delegates = {gpu};
  auto report = BuildReport(*model, options);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const SubgraphReport& s = report->subgraphs.at(0);
  // tests/oracle models/face_mesh__face_landmark_with_attention.gpu.json: summary.cpu_nodes 480
  // (upstream: "232 operations will run on the GPU, and the remaining 480 operations will run on
  // the CPU"); the delegate rejects few of them, the rest are outside the one partition it keeps.
  EXPECT_EQ(NodesLeftOnCpu(s, model->subgraphs[0], report->delegates).size(), 480u);
}

TEST(GroupCpuNodes, ByOpAndReasonLargestFirst) {
  const std::vector<CpuNode> nodes = {
      {1, "SIN", "r1"}, {2, "ADD", "r2"}, {3, "ADD", "r2"}, {4, "ADD", "r3"}, {5, "ADD", "r2"}};
  const std::vector<CpuNodeGroup> groups = GroupCpuNodes(nodes);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].op, "ADD");
  EXPECT_EQ(groups[0].reason, "r2");
  EXPECT_EQ(groups[0].nodes, (std::vector<int32_t>{2, 3, 5}));
  EXPECT_EQ(groups[1].reason, "r3");
  EXPECT_EQ(groups[2].op, "SIN");
  EXPECT_EQ(AbbreviatedNodeList(groups[0].nodes, 1), "#2..3, +1 more");
  EXPECT_EQ(AbbreviatedNodeList(groups[0].nodes, 3), "#2..3, #5");
  EXPECT_EQ(AbbreviatedNodeList({3, 4, 5, 6, 7, 9, 12, 13}, 2), "#3..7, #9, +2 more");
}

// Upstream's XNNPACK logs name the node and tensor; the groups do not, so 24 ADD nodes with one
// reason are one group, its nodes in numeric order (#27 before #116).
TEST(GroupCpuNodes, AReasonNamingItsNodeGroupsWithoutTheIndex) {
  const std::vector<CpuNode> nodes = {
      {27, "ADD", "unsupported input-to-output scale in ADD node #27"},
      {116, "ADD", "unsupported input-to-output scale in ADD node #116"},
      {130, "ADD", "unsupported input-to-output scale in ADD node #130"},
      {131, "ADD", "unsupported node # in ADD"},
      {140, "MUL", "Quantized tensor #9 in node #140 has invalid quantization"},
      {150, "RELU", "CheckTensorFloatType: unsupported type INT8 in tensor #11 in node #150"}};
  const std::vector<CpuNodeGroup> groups = GroupCpuNodes(nodes);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].reason, "unsupported input-to-output scale in ADD");
  EXPECT_EQ(groups[0].nodes, (std::vector<int32_t>{27, 116, 130}));
  EXPECT_EQ(groups[1].reason, "unsupported node # in ADD");
  EXPECT_EQ(groups[2].reason, "Quantized tensor #9 has invalid quantization");
  EXPECT_EQ(groups[3].reason, "CheckTensorFloatType: unsupported type INT8");
}

}  // namespace
}  // namespace tfa
