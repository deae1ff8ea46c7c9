#include "libanalysis/prepare/control_flow_prepare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::ArenaTensor;
using testing::Constant;
using ::testing::ElementsAre;
using testing::Graph;
using testing::Op;
using testing::WhileModel;

TEST(ControlFlowPrepareTest, WhileAliasesBodyInputsDropsUnusedInputsAndUnreadOutputs) {
  auto memory = ReplayModelMemory(WhileModel(), {}, PrepareOptions{});
  ASSERT_TRUE(memory.ok()) << memory.status().message();
  ASSERT_EQ(memory->size(), 3u);
  for (const SubgraphMemory& m : *memory) EXPECT_TRUE(m.planned);
  const SubgraphMemory& main = (*memory)[0];
  EXPECT_THAT(main.prepared->nodes[0].outputs, ElementsAre(2, -1));
  EXPECT_EQ(main.plan.tensors[3].arena, ArenaKind::kNone);
  EXPECT_EQ(main.plan.tensors[2].arena, ArenaKind::kRw);
  const SubgraphMemory& cond = (*memory)[1];
  EXPECT_THAT(cond.prepared->inputs, ElementsAre(0, -1));
  EXPECT_EQ(cond.plan.tensors[0].arena, ArenaKind::kRw);  // filled by copy, so it has a buffer
  EXPECT_EQ(cond.arena_size, 65u);
  const SubgraphMemory& body = (*memory)[2];
  EXPECT_EQ(body.prepared->tensors[0].allocation, AllocationType::kCustom);
  EXPECT_EQ(body.prepared->tensors[1].allocation, AllocationType::kCustom);
  EXPECT_EQ(body.arena_size, 4u);
  EXPECT_FALSE(main.planning_stops_at.has_value());
}

TEST(ControlFlowPrepareTest, BodyChangingAShapeMakesWhileOutputsDynamicAndStopsPlanning) {
  auto memory = ReplayModelMemory(WhileModel({2, 4}), {}, PrepareOptions{});
  ASSERT_TRUE(memory.ok()) << memory.status().message();
  const SubgraphMemory& main = (*memory)[0];
  ASSERT_TRUE(main.planning_stops_at.has_value());
  EXPECT_EQ(*main.planning_stops_at, 0);
  EXPECT_EQ(main.prepared->tensors[2].allocation, AllocationType::kDynamic);
  EXPECT_EQ(main.plan.tensors[4].arena, ArenaKind::kNone);  // y comes after the stop
  EXPECT_EQ(main.arena_size, 16u);                          // x only
}

Model CallOnceModel() {
  Node call_once = Op("CALL_ONCE", {}, {});
  call_once.options.Mutable().init_subgraph = 1;
  Model m;
  m.subgraphs.push_back(Graph({ArenaTensor({1, 4}), ArenaTensor({1, 4})},
                              {call_once, Op("ADD", {0, 0}, {1})}, {0}, {1}));
  m.subgraphs.push_back(
      Graph({Constant({1, 4}, TensorType::kFloat32), ArenaTensor({1, 4}), ArenaTensor({1, 4})},
            {Op("ADD", {0, 0}, {1}), Op("MUL", {1, 1}, {2})}, {}, {}));
  return m;
}

TEST(ControlFlowPrepareTest, CallOnceLeavesItsInitSubgraphUnplannedUnlessADelegateReplansIt) {
  auto plain = ReplayModelMemory(CallOnceModel(), {}, PrepareOptions{});
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_TRUE((*plain)[0].planned);
  EXPECT_FALSE((*plain)[1].planned);
  EXPECT_EQ((*plain)[1].arena_size, 0u);

  ModelDelegate claims_nothing;
  claims_nothing.name = "none";
  claims_nothing.apply = [](int32_t, const Subgraph& current) -> Result<Subgraph> {
    return current;
  };
  auto delegated = ReplayModelMemory(CallOnceModel(), {claims_nothing}, PrepareOptions{});
  ASSERT_TRUE(delegated.ok()) << delegated.status().message();
  EXPECT_TRUE((*delegated)[1].planned);
  EXPECT_EQ((*delegated)[1].delegates_applied, 1);
}

TEST(ControlFlowPrepareTest, ArenaKeepsTheLargerPlanWhenADelegateShrinksAChild) {
  Model m = WhileModel();
  ModelDelegate takes_body;
  takes_body.name = "takes-body";
  takes_body.apply = [](int32_t s, const Subgraph& current) -> Result<Subgraph> {
    if (s != 2) return current;
    Subgraph out = current;
    Node kernel = Op("takes-body", {0, 2}, {3});
    kernel.kind = NodeKind::kDelegateKernel;
    kernel.replaces = {0};
    out.nodes.push_back(kernel);
    out.execution_plan = {static_cast<int32_t>(out.nodes.size()) - 1};
    out.tensors[3].bytes = 0;  // pretend the kernel's output shrank
    return out;
  };
  auto memory = ReplayModelMemory(m, {takes_body}, PrepareOptions{});
  ASSERT_TRUE(memory.ok()) << memory.status().message();
  const SubgraphMemory& body = (*memory)[2];
  EXPECT_EQ(body.plan_count, 2);
  EXPECT_EQ(body.arena_size, 4u);       // planned undelegated by WHILE's Prepare first
  EXPECT_EQ(body.plan.arena_size, 0u);  // then re-planned after delegation
}

TEST(ControlFlowPrepareTest, MismatchedWhileIsAnError) {
  Model m = WhileModel();
  m.subgraphs[2].outputs.pop_back();
  auto memory = ReplayModelMemory(m, {}, PrepareOptions{});
  ASSERT_FALSE(memory.ok());
  EXPECT_NE(memory.status().message().find("subgraph 0: node 0 (WHILE)"), std::string::npos);
}

}  // namespace
}  // namespace tfa
