// Both partitioners and the post-delegation plan against upstream TFLite's own results on the
// generated graphs of tests/oracle/graphs.tar.xz (see /work/shared/oracle/README.md).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/delegation/partition.h"
#include "libanalysis/delegation/partition_reference.h"
#include "libanalysis/model/graph_json.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

struct OracleCase {
  std::string id;
  Subgraph subgraph;
  std::vector<int32_t> delegate_nodes;
  bool greedy = true;
  std::vector<NodeSubset> expected_subsets;
  nlohmann::json expected_plan;  // expected_after_delegation.execution_plan
};

std::vector<OracleCase> LoadCases(const std::string& file_name) {
  std::ifstream in(testing::OraclePath("graphs/" + file_name));
  EXPECT_TRUE(in.good()) << "missing oracle file " << file_name;
  std::vector<OracleCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    OracleCase c;
    c.id = j.at("id").get<std::string>();
    auto model = ParseGraphJson(j.at("graph").dump(), c.id);
    EXPECT_TRUE(model.ok()) << model.status().message();
    if (!model.ok()) continue;
    c.subgraph = model->subgraphs.at(0);
    c.delegate_nodes = j.at("delegate_nodes").get<std::vector<int32_t>>();
    c.greedy = j.at("greedy").get<bool>();
    for (const auto& s : j.at("expected").at("subsets")) {
      NodeSubset subset;
      subset.type = s.at("type") == "delegate" ? SubsetType::kDelegate : SubsetType::kCpu;
      subset.nodes = s.at("nodes").get<std::vector<int32_t>>();
      subset.inputs = s.at("inputs").get<std::vector<int32_t>>();
      subset.outputs = s.at("outputs").get<std::vector<int32_t>>();
      c.expected_subsets.push_back(std::move(subset));
    }
    c.expected_plan = j.at("expected_after_delegation").at("execution_plan");
    cases.push_back(std::move(c));
  }
  return cases;
}

nlohmann::json PlanAsOracleJson(const Subgraph& subgraph) {
  nlohmann::json plan = nlohmann::json::array();
  for (int32_t node_index : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[node_index];
    nlohmann::json entry = {{"node", node_index}};
    if (node.kind == NodeKind::kDelegateKernel) {
      entry["kind"] = "delegate";
      entry["replaces"] = node.replaces;
    } else {
      entry["kind"] = "cpu";
    }
    plan.push_back(std::move(entry));
  }
  return plan;
}

class PartitionOracleTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PartitionOracleTest, BothPartitionersReproduceUpstreamSubsets) {
  const std::vector<OracleCase> cases = LoadCases(GetParam());
  ASSERT_FALSE(cases.empty());
  int claimed_cases = 0, reference_matches = 0, fast_matches = 0;
  for (const OracleCase& c : cases) {
    if (c.delegate_nodes.empty()) continue;
    ++claimed_cases;
    const PartitionOptions options{.greedy = c.greedy};
    const std::string expected = DescribeSubsets(c.expected_subsets);
    auto reference = PartitionExecutionPlanReference(c.subgraph, c.delegate_nodes, options);
    ASSERT_TRUE(reference.ok()) << c.id << ": " << reference.status().message();
    EXPECT_EQ(DescribeSubsets(*reference), expected) << c.id;
    reference_matches += *reference == c.expected_subsets;
    auto fast = PartitionExecutionPlan(c.subgraph, c.delegate_nodes, options);
    ASSERT_TRUE(fast.ok()) << c.id << ": " << fast.status().message();
    EXPECT_EQ(DescribeSubsets(*fast), expected) << c.id;
    fast_matches += *fast == c.expected_subsets;
  }
  EXPECT_EQ(reference_matches, claimed_cases);
  EXPECT_EQ(fast_matches, claimed_cases);
}

// Upstream partitions with no claimed node too (the oracle's `expected.subsets`): one cpu subset.
TEST_P(PartitionOracleTest, UnclaimedGraphsFormOneCpuSubset) {
  for (const OracleCase& c : LoadCases(GetParam())) {
    if (!c.delegate_nodes.empty()) continue;
    const PartitionOptions options{.greedy = c.greedy};
    auto fast = PartitionExecutionPlan(c.subgraph, c.delegate_nodes, options);
    ASSERT_TRUE(fast.ok()) << c.id << ": " << fast.status().message();
    EXPECT_EQ(DescribeSubsets(*fast), DescribeSubsets(c.expected_subsets)) << c.id;
  }
}

TEST_P(PartitionOracleTest, DelegatedPlanReproducesUpstreamExecutionPlan) {
  for (const OracleCase& c : LoadCases(GetParam())) {
    const PartitionOptions options{.greedy = c.greedy};
    auto delegated =
        ReplaceNodeSubsetsWithDelegateKernels(c.subgraph, c.delegate_nodes, "oracle", options);
    ASSERT_TRUE(delegated.ok()) << c.id << ": " << delegated.status().message();
    EXPECT_EQ(PlanAsOracleJson(delegated->subgraph).dump(), c.expected_plan.dump()) << c.id;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Graphs, PartitionOracleTest, ::testing::Values("random_small.jsonl", "random_medium.jsonl"),
    [](const auto& info) {
      return std::string(info.param).substr(0, std::string(info.param).find('.'));
    });

}  // namespace
}  // namespace tfa
