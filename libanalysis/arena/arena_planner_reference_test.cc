// Hand-made graphs whose plans were worked out by hand from upstream's rules; each one pins a
// behaviour (and both planners must agree on it).
#include "libanalysis/arena/arena_planner_reference.h"

#include <gtest/gtest.h>

#include <vector>

#include "libanalysis/arena/arena_planner.h"

namespace tfa {
namespace {

struct NodeSpec {
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<int32_t> temporaries = {};
  uint32_t inplace = kInplaceNone;
};

Subgraph MakeSubgraph(const std::vector<uint64_t>& bytes, const std::vector<NodeSpec>& nodes,
                      std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  Subgraph subgraph;
  subgraph.name = "hand";
  for (uint64_t size : bytes) {
    Tensor tensor;
    tensor.bytes = size;
    subgraph.tensors.push_back(tensor);
  }
  for (const NodeSpec& spec : nodes) {
    Node node;
    node.op = "OP";
    node.inputs = spec.inputs;
    node.outputs = spec.outputs;
    node.temporaries = spec.temporaries;
    node.inplace = spec.inplace;
    subgraph.nodes.push_back(node);
  }
  subgraph.inputs = std::move(inputs);
  subgraph.outputs = std::move(outputs);
  subgraph.execution_plan = IdentityExecutionPlan(subgraph);
  return subgraph;
}

ArenaPlan PlanBoth(const Subgraph& subgraph) {
  auto reference = PlanArenaReference(subgraph);
  auto fast = PlanArena(subgraph);
  EXPECT_TRUE(reference.ok() && fast.ok());
  if (!reference.ok() || !fast.ok()) return {};
  EXPECT_EQ(*fast, *reference);
  return *reference;
}

// Whole-run tensors go first, then the largest; a tensor that fits no gap goes on top.
TEST(ArenaPlannerReferenceTest, ChainPlacesByOrderAndBestFit) {
  // g(100) -> N0 -> x(200) -> N1 -> out(300)
  const ArenaPlan plan =
      PlanBoth(MakeSubgraph({100, 200, 300}, {{{0}, {1}}, {{1}, {2}}}, {0}, {2}));
  EXPECT_EQ(plan.tensors[0].offset, 0u);
  EXPECT_EQ(plan.tensors[2].offset, 128u);
  EXPECT_EQ(plan.tensors[1].offset, 448u);
  EXPECT_EQ(plan.arena_size, 648u);
  EXPECT_EQ(plan.tensors[1].first_step, 0);
  EXPECT_EQ(plan.tensors[1].last_step, 1);
  EXPECT_EQ(plan.tensors[2].last_step, kUnassignedStep);
}

// A temporary lives only at its node, so the next node's temporary reuses its bytes.
TEST(ArenaPlannerReferenceTest, TemporariesLiveOneStep) {
  // g(64) -> N0 [tmp 3: 1000] -> a(64) -> N1 [tmp 4: 1000] -> out 2(64)
  const ArenaPlan plan = PlanBoth(
      MakeSubgraph({64, 64, 64, 1000, 1000}, {{{0}, {1}, {3}}, {{1}, {2}, {4}}}, {0}, {2}));
  EXPECT_EQ(plan.tensors[3].first_step, 0);
  EXPECT_EQ(plan.tensors[3].last_step, 0);
  EXPECT_EQ(plan.tensors[3].offset, 64u);
  EXPECT_EQ(plan.tensors[4].offset, 64u);
  EXPECT_EQ(plan.arena_size, 64u + 1000u + 24u + 64u + 64u);
}

// An add-like op (input 0 shared, data modified) writes its output into its input's buffer.
TEST(ArenaPlannerReferenceTest, InPlaceOutputSharesItsInput) {
  // g(64) -> N0 -> x(400) -> N1 (in place) -> y(400) -> N2 -> out(64)
  const ArenaPlan plan = PlanBoth(
      MakeSubgraph({64, 400, 400, 64},
                   {{{0}, {1}}, {{1}, {2}, {}, kInplaceInput0Shared}, {{2}, {3}}}, {0}, {3}));
  EXPECT_EQ(plan.tensors[2].shares_buffer_of, 1);
  EXPECT_EQ(plan.tensors[2].offset, plan.tensors[1].offset);
  EXPECT_EQ(plan.tensors[1].last_step, 2);  // the owner lives until the alias is read
  EXPECT_EQ(plan.rw_blocks.size(), 3u);
}

// Upstream surprise: a data-unmodified op shares without comparing sizes, and the planner drops
// the sharing later when the sizes differ; the output then gets its own buffer but keeps the
// lifetime computed for an alias: it is never freed, and the input lives until it is read.
TEST(ArenaPlannerReferenceTest, UnmodifiedSharingWithDifferentSizesIsDroppedLate) {
  const ArenaPlan plan = PlanBoth(MakeSubgraph(
      {64, 400, 800, 64},
      {{{0}, {1}}, {{1}, {2}, {}, kInplaceOpDataUnmodified | kInplaceInput0Shared}, {{2}, {3}}},
      {0}, {3}));
  EXPECT_EQ(plan.tensors[2].shares_buffer_of, -1);
  EXPECT_EQ(plan.tensors[2].last_step, kUnassignedStep);
  EXPECT_EQ(plan.tensors[1].last_step, 2);
  EXPECT_EQ(plan.tensors[0].offset, 0u);
  EXPECT_EQ(plan.tensors[2].offset, 64u);
  EXPECT_EQ(plan.tensors[1].offset, 896u);
  EXPECT_EQ(plan.tensors[3].offset, 1344u);
  EXPECT_EQ(plan.arena_size, 1408u);
}

// Upstream surprise: a graph input that a node writes again is queued at two steps and placed
// twice; the first block keeps its bytes for the whole run.
TEST(ArenaPlannerReferenceTest, TensorQueuedTwiceIsPlacedTwice) {
  // g(128) -> N0 -> x(128) -> N1 -> g
  const ArenaPlan plan = PlanBoth(MakeSubgraph({128, 128}, {{{0}, {1}}, {{1}, {0}}}, {0}, {}));
  ASSERT_EQ(plan.rw_blocks.size(), 3u);
  EXPECT_EQ(plan.rw_blocks[0].tensor, 0);
  EXPECT_EQ(plan.rw_blocks[1].tensor, 0);
  EXPECT_EQ(plan.tensors[0].offset, 128u);
  EXPECT_EQ(plan.tensors[1].offset, 256u);
  EXPECT_EQ(plan.arena_size, 384u);
}

// Variables go to the persistent arena, stacked, and never to the non-persistent one; constants
// and zero-byte tensors take no space.
TEST(ArenaPlannerReferenceTest, PersistentConstantAndEmptyTensors) {
  Subgraph subgraph =
      MakeSubgraph({64, 100, 100, 0, 500, 64}, {{{0, 1, 2, 4}, {3}}, {{3}, {5}}}, {0}, {5});
  subgraph.tensors[1].allocation = AllocationType::kArenaRwPersistent;
  subgraph.tensors[2].allocation = AllocationType::kArenaRwPersistent;
  subgraph.tensors[4].allocation = AllocationType::kMmapRo;
  subgraph.variables = {1, 2};
  const ArenaPlan plan = PlanBoth(subgraph);
  EXPECT_EQ(plan.tensors[1].arena, ArenaKind::kPersistent);
  EXPECT_EQ(plan.tensors[1].offset, 0u);
  EXPECT_EQ(plan.tensors[2].offset, 128u);
  EXPECT_EQ(plan.persistent_arena_size, 228u);
  EXPECT_EQ(plan.tensors[3].arena, ArenaKind::kNone);
  EXPECT_EQ(plan.tensors[4].arena, ArenaKind::kNone);
  EXPECT_EQ(plan.tensors[5].offset, 64u);
  EXPECT_EQ(plan.arena_size, 128u);
}

TEST(ArenaPlannerReferenceTest, PreserveAllTensorsFreesNothing) {
  const Subgraph subgraph = MakeSubgraph({64, 64, 64, 64}, {{{0}, {1}, {3}}, {{1}, {2}}}, {0}, {2});
  auto plan = PlanArenaReference(subgraph, {.preserve_all_tensors = true});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->tensors[1].last_step, kUnassignedStep);
  EXPECT_EQ(plan->tensors[3].last_step, kUnassignedStep);
  EXPECT_EQ(plan->arena_size, 256u);
}

}  // namespace
}  // namespace tfa
