#include "libanalysis/prepare/control_flow_invoke.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::ArenaTensor;
using testing::Constant;
using testing::Graph;
using ::testing::HasSubstr;
using testing::Op;
using testing::WhileModel;

// main: y = IF(cond, x), z = y * y. Both branches compute a [1,16] float (64 bytes) through one
// intermediate: then: out = (x + x) * x; else: out = (x * x) + x.
Model IfModel() {
  Node branch = Op("IF", {0, 1}, {2});
  branch.options.Mutable().then_subgraph = 1;
  branch.options.Mutable().else_subgraph = 2;
  Model m;
  m.subgraphs.push_back(Graph({ArenaTensor({1}, TensorType::kBool), ArenaTensor({1, 16}),
                               ArenaTensor({1, 16}), ArenaTensor({1, 16})},
                              {branch, Op("MUL", {2, 2}, {3})}, {0, 1}, {3}));
  for (const char* first : {"ADD", "MUL"}) {
    m.subgraphs.push_back(Graph(
        {ArenaTensor({1, 16}), ArenaTensor({1, 16}), ArenaTensor({1, 16})},
        {Op(first, {0, 0}, {1}), Op(first == std::string("ADD") ? "MUL" : "ADD", {1, 0}, {2})}, {0},
        {2}));
  }
  return m;
}

// main: CALL_ONCE(init); h = VAR_HANDLE; y = x + x. init: h = VAR_HANDLE; a = c + c; b = a * a.
Model CallOnceModel() {
  Node call_once = Op("CALL_ONCE", {}, {});
  call_once.options.Mutable().init_subgraph = 1;
  Model m;
  m.subgraphs.push_back(Graph({ArenaTensor({1, 4}), ArenaTensor({1, 4})},
                              {call_once, Op("ADD", {0, 0}, {1})}, {0}, {1}));
  Tensor handle = ArenaTensor({}, TensorType::kResource);
  handle.bytes = std::nullopt;
  m.subgraphs.push_back(Graph(
      {handle, Constant({1, 4}, TensorType::kFloat32), ArenaTensor({1, 4}), ArenaTensor({1, 4})},
      {Op("VAR_HANDLE", {}, {0}), Op("ADD", {1, 1}, {2}), Op("MUL", {2, 2}, {3})}, {}, {}));
  return m;
}

TEST(ControlFlowInvokeTest, AnIfWithoutItsConditionIsUndeterminedNotGuessed) {
  auto run = ReplayFirstInvoke(IfModel(), {}, PrepareOptions{}, InvokeFacts{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_TRUE(run->undetermined.has_value());
  EXPECT_EQ(run->undetermined->description,
            "IF node 0 of subgraph 0: its condition's value (input-dependent)");
  EXPECT_EQ(run->undetermined->kind, MissingFact::Kind::kIfCondition);
  EXPECT_EQ(run->undetermined->where, (NodeRef{0, 0}));
  EXPECT_TRUE(run->after_invoke.empty());
  ASSERT_EQ(run->after_allocate.size(), 3u);
  EXPECT_TRUE(run->after_allocate[2].planned);
}

TEST(ControlFlowInvokeTest, IfReplansTheBranchItRunsWithoutItsOutputsThenReleasesIt) {
  InvokeFacts facts;
  facts.if_conditions[{0, 0}] = false;
  auto run = ReplayFirstInvoke(IfModel(), {}, PrepareOptions{}, facts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_FALSE(run->undetermined.has_value());
  EXPECT_THAT(
      run->facts_used,
      ::testing::ElementsAre("IF node 0 of subgraph 0: runs its else branch, subgraph 2 (given)"));
  // Before: the intermediate and the output, 64 bytes each.
  EXPECT_EQ(run->after_allocate[2].arena_size, 128u);
  const SubgraphMemory& ran = run->after_invoke[2];
  EXPECT_TRUE(ran.invoked);
  EXPECT_TRUE(ran.released);
  EXPECT_EQ(ran.arena_size, 0u);
  EXPECT_EQ(ran.plan.arena_size, 64u) << "the output now lives in the parent's buffer";
  EXPECT_EQ(ran.prepared->tensors[2].allocation, AllocationType::kCustom);
  EXPECT_EQ(ran.plan.tensors[2].arena, ArenaKind::kNone);
  EXPECT_EQ(ran.plan.tensors[1].offset, 0u);
  const SubgraphMemory& idle = run->after_invoke[1];
  EXPECT_FALSE(idle.invoked);
  EXPECT_FALSE(idle.released);
  EXPECT_EQ(idle.arena_size, 128u);
  EXPECT_EQ(idle.plan.arena_size, 128u);
  EXPECT_THAT(idle.notes.back(), HasSubstr("not run"));
  const SubgraphMemory& main = run->after_invoke[0];
  EXPECT_TRUE(main.invoked);
  EXPECT_FALSE(main.released);
  EXPECT_EQ(main.arena_size, run->after_allocate[0].arena_size);
}

TEST(ControlFlowInvokeTest, AStaticWhileNeedsNoIterationCountAndReleasesCondAndBody) {
  auto run = ReplayFirstInvoke(WhileModel(), {}, PrepareOptions{}, InvokeFacts{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_FALSE(run->undetermined.has_value());
  EXPECT_TRUE(run->facts_used.empty());
  for (size_t s : {1u, 2u}) {
    SCOPED_TRACE("subgraph " + std::to_string(s));
    const SubgraphMemory& child = run->after_invoke[s];
    EXPECT_TRUE(child.invoked);
    EXPECT_TRUE(child.released);
    EXPECT_EQ(child.arena_size, 0u);
    EXPECT_EQ(child.plan.arena_size, run->after_allocate[s].plan.arena_size) << "the plan is kept";
  }
  EXPECT_EQ(run->after_invoke[1].plan.arena_size, 65u) << "int32 counter at 0, bool at 64";
}

TEST(ControlFlowInvokeTest, ADynamicWhileNeedsItsIterationCountThenItsLastIterationShapes) {
  auto no_count = ReplayFirstInvoke(WhileModel({2, 4}), {}, PrepareOptions{}, InvokeFacts{});
  ASSERT_TRUE(no_count.ok()) << no_count.status().message();
  ASSERT_TRUE(no_count->undetermined.has_value());
  EXPECT_EQ(no_count->undetermined->description,
            "WHILE node 0 of subgraph 0: how many times its body runs (input-dependent)");
  EXPECT_EQ(no_count->undetermined->kind, MissingFact::Kind::kWhileIterations);
  EXPECT_EQ(no_count->undetermined->where, (NodeRef{0, 0}));

  InvokeFacts facts;
  facts.while_iterations[{0, 0}] = 3;
  auto no_shapes = ReplayFirstInvoke(WhileModel({2, 4}), {}, PrepareOptions{}, facts);
  ASSERT_TRUE(no_shapes.ok()) << no_shapes.status().message();
  ASSERT_TRUE(no_shapes->undetermined.has_value());
  EXPECT_EQ(
      no_shapes->undetermined->description,
      "WHILE node 0 of subgraph 0: the shapes of body subgraph 2's tensors in its last iteration "
      "(input-dependent)");
  EXPECT_EQ(no_shapes->undetermined->kind, MissingFact::Kind::kRunShapes);
  EXPECT_EQ(no_shapes->undetermined->where, (NodeRef{2, -1})) << "the body's shapes";

  // Third iteration: x of [4,4] in, [8,4] out.
  facts.run_shapes[2] = {{1, {4, 4}}, {4, {8, 4}}};
  auto no_parent_shapes = ReplayFirstInvoke(WhileModel({2, 4}), {}, PrepareOptions{}, facts);
  ASSERT_TRUE(no_parent_shapes.ok()) << no_parent_shapes.status().message();
  ASSERT_TRUE(no_parent_shapes->undetermined.has_value());
  EXPECT_THAT(no_parent_shapes->undetermined->description,
              HasSubstr("subgraph 0: the shapes of its tensors after"));

  facts.run_shapes[0] = {{3, {8, 4}}};
  auto run = ReplayFirstInvoke(WhileModel({2, 4}), {}, PrepareOptions{}, facts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_FALSE(run->undetermined.has_value()) << run->undetermined->description;
  const SubgraphMemory& body = run->after_invoke[2];
  EXPECT_TRUE(body.released);
  EXPECT_EQ(body.arena_size, 0u);
  // Counter at 0, the [8,4] output (128 bytes) at 64.
  EXPECT_EQ(body.plan.tensors[4].offset, 64u);
  EXPECT_EQ(body.plan.arena_size, 192u);
  EXPECT_EQ(body.prepared->tensors[1].shape, (std::vector<int32_t>{4, 4}));
  // The loop's output takes the body's last shape and stays dynamic; main plans y once it ran.
  const SubgraphMemory& main = run->after_invoke[0];
  EXPECT_EQ(main.prepared->tensors[3].shape, (std::vector<int32_t>{8, 4}));
  EXPECT_EQ(main.prepared->tensors[3].allocation, AllocationType::kDynamic);
  EXPECT_EQ(run->after_allocate[0].plan.tensors[4].arena, ArenaKind::kNone)
      << "y comes after the dynamic node";
  EXPECT_EQ(main.plan.tensors[4].arena, ArenaKind::kRw);
  EXPECT_EQ(main.plan.tensors[4].offset, 64u);
  EXPECT_EQ(main.arena_size, 80u);
}

TEST(ControlFlowInvokeTest, CallOncePlansRunsAndFreesItsInitSubgraphButKeepsItsPersistentArena) {
  auto run = ReplayFirstInvoke(CallOnceModel(), {}, PrepareOptions{}, InvokeFacts{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_FALSE(run->undetermined.has_value());
  EXPECT_FALSE(run->after_allocate[1].planned);
  const SubgraphMemory& init = run->after_invoke[1];
  EXPECT_TRUE(init.planned);
  EXPECT_TRUE(init.invoked);
  EXPECT_TRUE(init.released);
  EXPECT_EQ(init.arena_size, 0u);
  EXPECT_EQ(init.plan.arena_size, 80u) << "a at 0, b at 64";
  EXPECT_EQ(init.persistent_arena_size, 4u) << "the variable handle";
  EXPECT_EQ(init.plan.persistent_arena_size, 4u);
  EXPECT_THAT(init.notes.front(), HasSubstr("planned by CALL_ONCE node 0 of subgraph 0"));
}

TEST(ControlFlowInvokeTest, RunShapesNamingAMissingTensorAreAnError) {
  InvokeFacts facts;
  facts.while_iterations[{0, 0}] = 1;
  facts.run_shapes[2] = {{99, {1}}};
  auto run = ReplayFirstInvoke(WhileModel({2, 4}), {}, PrepareOptions{}, facts);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.status().message(), HasSubstr("tensor 99 of subgraph 2"));
}

// Facts come from users, who can name the wrong node: the run would never read them, so without
// the check a typo would read as "not determined" or, worse, go unnoticed.
TEST(ControlFlowInvokeTest, FactsNamingWhatTheModelLacksAreErrors) {
  auto error = [](const InvokeFacts& facts) {
    return CheckInvokeFacts(IfModel(), facts).message();
  };
  InvokeFacts not_an_if;
  not_an_if.if_conditions[{0, 1}] = true;
  EXPECT_EQ(error(not_an_if), "IF condition given for node 1 of subgraph 0, which is MUL, not IF");
  InvokeFacts no_such_node;
  no_such_node.while_iterations[{1, 7}] = 2;
  EXPECT_EQ(error(no_such_node),
            "WHILE iteration count given for node 7 of subgraph 1, which has 2 nodes");
  InvokeFacts no_such_subgraph;
  no_such_subgraph.if_conditions[{3, 0}] = false;
  EXPECT_EQ(error(no_such_subgraph),
            "IF condition given for node 0 of subgraph 3, but the model has 3 subgraphs");
  InvokeFacts negative_dimension;
  negative_dimension.run_shapes[1] = {{2, {1, -16}}};
  EXPECT_EQ(error(negative_dimension),
            "run shape given for tensor 2 of subgraph 1 has a negative dimension -16");

  InvokeFacts negative_count;
  negative_count.while_iterations[{0, 0}] = -3;
  EXPECT_EQ(CheckInvokeFacts(WhileModel(), negative_count).message(),
            "WHILE node 0 of subgraph 0: negative iteration count -3");
  auto run = ReplayFirstInvoke(WhileModel(), {}, PrepareOptions{}, negative_count);
  EXPECT_FALSE(run.ok()) << "the replay checks its facts too";

  InvokeFacts valid;
  valid.if_conditions[{0, 0}] = false;
  valid.run_shapes[2] = {{0, {}}};
  EXPECT_TRUE(CheckInvokeFacts(IfModel(), valid).ok());
}

}  // namespace
}  // namespace tfa
