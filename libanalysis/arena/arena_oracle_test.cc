// Both arena planners against upstream TFLite's own figures for 320 generated graphs
// (tests/oracle/graphs.tar.xz, see /work/shared/oracle/README.md): the arena planned on the
// original execution plan and on the plan after delegation, every offset, alias and lifetime.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/arena/arena_planner_reference.h"
#include "libanalysis/model/graph_json.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using nlohmann::json;

std::vector<json> LoadCases(const std::string& file) {
  std::ifstream in(testing::OraclePath("graphs/" + file));
  std::vector<json> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) cases.push_back(json::parse(line));
  }
  return cases;
}

// The plan in the oracle's vocabulary: {tensor: offset}, persistent tensors, {alias: owner},
// {tensor: [first step, last step or -1]} for every tensor that has arena bytes; aliases are
// listed even when they have none, as upstream's actual_tensor_id_ lists them.
json OracleView(const ArenaPlan& plan) {
  json offsets = json::object();
  json persistent = json::array();
  json shared = json::object();
  json lifetimes = json::object();
  for (size_t i = 0; i < plan.tensors.size(); ++i) {
    const TensorPlacement& placement = plan.tensors[i];
    const std::string key = std::to_string(i);
    if (placement.shares_buffer_of != -1) shared[key] = placement.shares_buffer_of;
    if (placement.arena == ArenaKind::kNone) continue;
    offsets[key] = placement.offset;
    if (placement.arena == ArenaKind::kPersistent) persistent.push_back(i);
    lifetimes[key] = {placement.first_step, placement.last_step};
  }
  return {{"arena_size", plan.arena_size},
          {"persistent_arena_size", plan.persistent_arena_size},
          {"offsets", offsets},
          {"persistent_tensors", persistent},
          {"inplace_shared", shared},
          {"lifetimes", lifetimes}};
}

json ExpectedView(const json& expected) {
  json persistent = expected["persistent_tensors"];
  std::sort(persistent.begin(), persistent.end());
  return {{"arena_size", expected["arena_size"]},
          {"persistent_arena_size", expected["persistent_arena_size"]},
          {"offsets", expected["offsets"]},
          {"persistent_tensors", persistent},
          {"inplace_shared", expected["inplace_shared"]},
          {"lifetimes", expected["lifetimes"]}};
}

// The subgraph after ReplaceNodeSubsetsWithDelegateKernels: one kDelegateKernel node per
// delegate subset, appended after the model's nodes, with the subset's inputs and outputs.
Subgraph DelegatedSubgraph(const Subgraph& original, const json& after) {
  Subgraph delegated = original;
  delegated.execution_plan.clear();
  for (const json& entry : after["execution_plan"]) {
    const int32_t node_index = entry["node"];
    if (entry["kind"] == "delegate") {
      const std::vector<int32_t> replaces = entry["replaces"];
      Node node;
      node.kind = NodeKind::kDelegateKernel;
      node.op = "DELEGATE";
      node.replaces = replaces;
      for (const json& subset : after["subsets"]) {
        if (subset["type"] == "delegate" &&
            subset["nodes"].get<std::vector<int32_t>>() == replaces) {
          node.inputs = subset["inputs"].get<std::vector<int32_t>>();
          node.outputs = subset["outputs"].get<std::vector<int32_t>>();
        }
      }
      EXPECT_EQ(node_index, static_cast<int32_t>(delegated.nodes.size()));
      delegated.nodes.push_back(node);
    }
    delegated.execution_plan.push_back(node_index);
  }
  return delegated;
}

struct OracleCounts {
  int cases = 0;
  int reference_matches = 0;
  int fast_matches = 0;
};

void CheckPlans(const std::string& id, const Subgraph& subgraph, const json& expected,
                OracleCounts& counts) {
  ++counts.cases;
  const json want = ExpectedView(expected);
  auto reference = PlanArenaReference(subgraph);
  ASSERT_TRUE(reference.ok()) << id << ": " << reference.status().message();
  const json reference_view = OracleView(*reference);
  if (reference_view == want) {
    ++counts.reference_matches;
  } else {
    ADD_FAILURE() << id << " reference:\n got " << reference_view.dump() << "\nwant "
                  << want.dump();
  }
  auto fast = PlanArena(subgraph);
  ASSERT_TRUE(fast.ok()) << id << ": " << fast.status().message();
  if (OracleView(*fast) == want) {
    ++counts.fast_matches;
  } else {
    ADD_FAILURE() << id << " fast:\n got " << OracleView(*fast).dump() << "\nwant " << want.dump();
  }
  EXPECT_EQ(*fast, *reference) << id;
}

void RunOracleFile(const std::string& file, int expected_cases) {
  const std::vector<json> cases = LoadCases(file);
  ASSERT_EQ(static_cast<int>(cases.size()), expected_cases) << "oracle data missing: " << file;
  OracleCounts original_counts;
  OracleCounts delegated_counts;
  for (const json& oracle_case : cases) {
    const std::string id = oracle_case["id"];
    auto model = ParseGraphJson(oracle_case["graph"].dump(), id);
    ASSERT_TRUE(model.ok()) << model.status().message();
    const Subgraph& subgraph = model->subgraphs[0];
    CheckPlans(id, subgraph, oracle_case["expected"], original_counts);
    const json& after = oracle_case["expected_after_delegation"];
    CheckPlans(id + " (delegated)", DelegatedSubgraph(subgraph, after), after, delegated_counts);
  }
  EXPECT_EQ(original_counts.reference_matches, expected_cases);
  EXPECT_EQ(original_counts.fast_matches, expected_cases);
  EXPECT_EQ(delegated_counts.reference_matches, expected_cases);
  EXPECT_EQ(delegated_counts.fast_matches, expected_cases);
}

TEST(ArenaOracleTest, RandomSmallGraphsMatchUpstream) { RunOracleFile("random_small.jsonl", 300); }

TEST(ArenaOracleTest, RandomMediumGraphsMatchUpstream) { RunOracleFile("random_medium.jsonl", 20); }

}  // namespace
}  // namespace tfa
