#include "libanalysis/report/report_builder.h"

#include <gtest/gtest.h>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

// x -ADD(c0)-> a -SIN-> b -ADD(c1)-> y -MUL(v)-> z, v a variable.
constexpr const char* kAlternating = R"({"format":"tflite-analyze-graph/1",
  "tensors":[{"name":"x","bytes":400},{"name":"c0","bytes":40,"alloc":"mmap_ro"},
             {"name":"a","bytes":400},{"name":"b","bytes":400},
             {"name":"c1","bytes":48,"alloc":"mmap_ro"},{"name":"y","bytes":400},
             {"name":"v","bytes":16,"alloc":"arena_rw_persistent"},{"name":"z","bytes":400}],
  "nodes":[{"op":"ADD","inputs":[0,1],"outputs":[2]},
           {"op":"SIN","inputs":[2],"outputs":[3]},
           {"op":"ADD","inputs":[3,4],"outputs":[5]},
           {"op":"MUL","inputs":[5,6],"outputs":[7]}],
  "inputs":[0],"outputs":[7],"variables":[6]})";

Report BuildFor(const char* graph, const std::vector<DelegateRequest>& delegates) {
  auto model = ParseGraphJson(graph, "g.json");
  EXPECT_TRUE(model.ok()) << model.status().message();
  if (!model.ok()) return {};
  ReportOptions options;
  options.delegates = delegates;
  auto report = BuildReport(*model, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return {};
  return *report;
}

DelegateRequest Ops(const std::string& ops) {
  DelegateRequest r;
  r.spec = "ops=" + ops;
  return r;
}

TEST(ReportBuilder, CopyCostsCountBoundaryBytesConstantsOnceAndTransitions) {
  const Report r = BuildFor(kAlternating, {Ops("ADD")});
  const SubgraphReport& s = r.subgraphs.at(0);
  ASSERT_EQ(s.partitions.size(), 4u);  // ADD | SIN | ADD | MUL
  EXPECT_EQ(s.delegated_partition_count, 2);
  const PartitionReport& first = s.partitions[0];
  EXPECT_EQ(first.kind, PartitionReport::Kind::kDelegate);
  EXPECT_EQ(first.nodes, (std::vector<int32_t>{0}));
  EXPECT_EQ(first.bytes_to_delegate, 400u);    // x
  EXPECT_EQ(first.init_upload_bytes, 40u);     // c0
  EXPECT_EQ(first.bytes_from_delegate, 400u);  // a
  EXPECT_EQ(s.partitions[1].kind, PartitionReport::Kind::kCpu);
  EXPECT_EQ(s.partitions[2].nodes, (std::vector<int32_t>{2}));
  EXPECT_EQ(s.partitions[3].nodes, (std::vector<int32_t>{3}));
  EXPECT_EQ(s.copy.bytes_to_delegate, 800u);    // x, b
  EXPECT_EQ(s.copy.bytes_from_delegate, 800u);  // a, y
  EXPECT_EQ(s.copy.init_upload_bytes, 88u);     // c0, c1
  EXPECT_EQ(s.copy.transitions, 4u);            // host>ADD>SIN>ADD>MUL, ending on the host
}

TEST(ReportBuilder, VariablesAreCopiedEveryInference) {
  const Report r = BuildFor(kAlternating, {Ops("MUL")});
  const SubgraphReport& s = r.subgraphs.at(0);
  ASSERT_EQ(s.delegated_partition_count, 1);
  EXPECT_EQ(s.copy.bytes_to_delegate, 416u);  // y and the variable v
  EXPECT_EQ(s.copy.init_upload_bytes, 0u);
  EXPECT_EQ(s.copy.bytes_from_delegate, 400u);
  EXPECT_EQ(s.copy.transitions, 2u);
}

TEST(ReportBuilder, TwoDelegatesApplyInTurn) {
  const Report r = BuildFor(kAlternating, {Ops("ADD"), Ops("SIN,MUL")});
  const SubgraphReport& s = r.subgraphs.at(0);
  EXPECT_EQ(r.delegates, (std::vector<std::string>{"ops=ADD", "ops=SIN,MUL"}));
  ASSERT_EQ(s.delegated_partition_count, static_cast<int32_t>(s.partitions.size()));
  std::vector<int32_t> covered;
  for (const PartitionReport& p : s.partitions)
    covered.insert(covered.end(), p.nodes.begin(), p.nodes.end());
  std::sort(covered.begin(), covered.end());
  EXPECT_EQ(covered, (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(ReportBuilder, NoDelegateMeansOneCpuPartitionAndBothArenasEqual) {
  const Report r = BuildFor(kAlternating, {});
  const SubgraphReport& s = r.subgraphs.at(0);
  ASSERT_EQ(s.partitions.size(), 1u);
  EXPECT_EQ(s.partitions[0].nodes, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.copy.transitions, 0u);
  ASSERT_TRUE(s.arena && s.arena_cpu_only);
  EXPECT_EQ(s.arena->size, s.arena_cpu_only->size);
  EXPECT_EQ(s.arena->lower_bound, s.arena_cpu_only->lower_bound);
  // The report prints the allocations of the delegated arena only (issue 46).
  EXPECT_FALSE(s.arena->allocs.empty());
  EXPECT_TRUE(s.arena_cpu_only->allocs.empty());
}

TEST(ReportBuilder, TheCpuOnlyArenaHoldsItsFiguresWithoutAllocations) {
  const Report r = BuildFor(kAlternating, {Ops("ADD")});
  const SubgraphReport& s = r.subgraphs.at(0);
  ASSERT_TRUE(s.arena && s.arena_cpu_only);
  EXPECT_FALSE(s.arena->allocs.empty());
  EXPECT_TRUE(s.arena_cpu_only->allocs.empty());
  EXPECT_GT(s.arena_cpu_only->size, 0u);
}

TEST(ReportBuilder, UnknownDelegateIsAnError) {
  auto model = ParseGraphJson(kAlternating, "g.json");
  ASSERT_TRUE(model.ok());
  ReportOptions options;
  DelegateRequest r;
  r.spec = "no-such-delegate";
  options.delegates.push_back(r);
  auto report = BuildReport(*model, options);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("no-such-delegate"), std::string::npos);
}

}  // namespace
}  // namespace tfa

namespace tfa {
namespace {

// Every corpus model reports under each built-in delegate, alone and two in turn.
class CorpusDelegateTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusDelegateTest, ReportsUnderEveryBuiltinDelegate) {
  auto model = LoadModelFile(testing::CorpusModelPath(GetParam()));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const std::vector<std::vector<std::string>> configs = {
      {"gpu"}, {"xnnpack"},        {"add-sub"},       {"nnapi"},
      {"sin"}, {"add-sub", "gpu"}, {"gpu", "xnnpack"}};
  for (const auto& config : configs) {
    ReportOptions options;
    for (const std::string& spec : config) {
      DelegateRequest r;
      r.spec = spec;
      options.delegates.push_back(r);
    }
    auto report = BuildReport(*model, options);
    ASSERT_TRUE(report.ok()) << config[0] << ": " << report.status().message();
    const SubgraphReport& s = report->subgraphs.at(0);
    size_t nodes = 0;
    for (const PartitionReport& p : s.partitions) nodes += p.nodes.size();
    EXPECT_EQ(nodes, s.nodes) << config[0] << ": every node in exactly one partition";
    ASSERT_TRUE(s.arena.has_value());
    EXPECT_GE(s.arena->size, s.arena->lower_bound);
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusDelegateTest,
                         ::testing::ValuesIn(testing::CorpusModelNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tfa
