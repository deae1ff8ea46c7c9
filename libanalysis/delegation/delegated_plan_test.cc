#include "libanalysis/delegation/delegated_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "libanalysis/delegation/partition.h"

namespace tfa {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Node MakeNode(const char* op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  Node node;
  node.op = op;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  return node;
}

// x(0) -> 0 ADD -> 1 -> 1 SIN -> 2 -> 2 ADD -> 3 (graph output)
Subgraph ThreeNodeChain() {
  Subgraph s;
  s.tensors.resize(4);
  s.inputs = {0};
  s.outputs = {3};
  s.nodes = {MakeNode("ADD", {0}, {1}), MakeNode("SIN", {1}, {2}), MakeNode("ADD", {2}, {3})};
  s.execution_plan = {0, 1, 2};
  return s;
}

TEST(DelegatedPlanTest, EachDelegateSubsetBecomesOneAppendedKernel) {
  const std::vector<int32_t> claimed = {2, 0};
  auto delegated = ReplaceNodeSubsetsWithDelegateKernels(ThreeNodeChain(), claimed, "gpu", {});
  ASSERT_TRUE(delegated.ok()) << delegated.status().message();
  const Subgraph& s = delegated->subgraph;
  EXPECT_THAT(s.execution_plan, ElementsAre(3, 1, 4));
  EXPECT_THAT(delegated->kernel_nodes, ElementsAre(3, 4));
  ASSERT_EQ(s.nodes.size(), 5u);
  const Node& first = s.nodes[3];
  EXPECT_EQ(first.kind, NodeKind::kDelegateKernel);
  EXPECT_EQ(first.op, "gpu");
  EXPECT_EQ(first.builtin_code, kBuiltinDelegate);
  EXPECT_THAT(first.replaces, ElementsAre(0));
  EXPECT_THAT(first.inputs, ElementsAre(0));
  EXPECT_THAT(first.outputs, ElementsAre(1));
  EXPECT_TRUE(first.temporaries.empty());
  EXPECT_EQ(first.inplace, kInplaceNone);
  EXPECT_FALSE(first.side_effect);
  EXPECT_THAT(s.nodes[4].outputs, ElementsAre(3));
}

// A selection hands over its preview partitioning, which is taken, not copied (issue 46): the
// kernels and subsets are those a partitioning of their own would give.
TEST(DelegatedPlanTest, AGivenPartitioningBuildsTheSameKernels) {
  const std::vector<int32_t> claimed = {2, 0};
  const Subgraph chain = ThreeNodeChain();
  auto valid = ValidSubgraph::Check(chain);
  ASSERT_TRUE(valid.ok());
  auto partitioning = PartitionExecutionPlan(*valid, claimed, {});
  ASSERT_TRUE(partitioning.ok());
  auto given = ReplaceNodeSubsetsWithDelegateKernels(*valid, claimed, "gpu", {}, *partitioning);
  auto own = ReplaceNodeSubsetsWithDelegateKernels(*valid, claimed, "gpu", {});
  ASSERT_TRUE(given.ok() && own.ok());
  EXPECT_EQ(given->subsets, *partitioning);
  EXPECT_EQ(given->subsets, own->subsets);
  EXPECT_EQ(given->kernel_nodes, own->kernel_nodes);
  EXPECT_EQ(given->subgraph.execution_plan, own->subgraph.execution_plan);
}

TEST(DelegatedPlanTest, NothingClaimedLeavesThePlanAlone) {
  Subgraph s = ThreeNodeChain();
  s.execution_plan = {2, 0, 1};  // not even re-partitioned, as upstream
  auto delegated = ReplaceNodeSubsetsWithDelegateKernels(s, {}, "gpu", {});
  ASSERT_TRUE(delegated.ok());
  EXPECT_THAT(delegated->subgraph.execution_plan, ElementsAre(2, 0, 1));
  EXPECT_TRUE(delegated->subsets.empty());
}

TEST(DelegatedPlanTest, KernelTouchingAResourceTensorMightHaveSideEffects) {
  Subgraph s = ThreeNodeChain();
  s.tensors[1].type = TensorType::kResource;
  const std::vector<int32_t> claimed = {0};
  auto delegated = ReplaceNodeSubsetsWithDelegateKernels(s, claimed, "gpu", {});
  ASSERT_TRUE(delegated.ok());
  EXPECT_TRUE(delegated->subgraph.nodes[3].side_effect);
}

TEST(DelegatedPlanTest, SecondDelegateMayNotTakeOverAnotherDelegatesOutputs) {
  const std::vector<int32_t> first_claims = {0};
  auto first = ReplaceNodeSubsetsWithDelegateKernels(ThreeNodeChain(), first_claims, "a", {});
  ASSERT_TRUE(first.ok());
  const std::vector<int32_t> kernel = {first->kernel_nodes[0]};
  auto other = ReplaceNodeSubsetsWithDelegateKernels(first->subgraph, kernel, "b", {});
  ASSERT_FALSE(other.ok());
  EXPECT_THAT(other.status().message(), HasSubstr("another delegate"));
  auto same = ReplaceNodeSubsetsWithDelegateKernels(first->subgraph, kernel, "a", {});
  EXPECT_TRUE(same.ok());
}

// Tensor 1 has two producers (node 0 on the CPU, node 2 delegated); the delegated subset reads
// the first value and produces the second, so its kernel would have 1 as input and output.
TEST(DelegatedPlanTest, KernelWhoseInputIsAlsoItsOutputIsAnError) {
  Subgraph s;
  s.tensors.resize(3);
  s.inputs = {0};
  s.nodes = {MakeNode("ADD", {0}, {1}), MakeNode("SIN", {1}, {2}), MakeNode("ADD", {0}, {1}),
             MakeNode("MUL", {1, 2}, {})};
  s.execution_plan = {0, 1, 2, 3};
  const std::vector<int32_t> claimed = {1, 2};
  auto delegated = ReplaceNodeSubsetsWithDelegateKernels(s, claimed, "gpu", {});
  ASSERT_FALSE(delegated.ok());
  EXPECT_THAT(delegated.status().message(), HasSubstr("both an input and an output"));
}

TEST(DelegatedPlanTest, ClaimedNodeOutOfRangeIsAnError) {
  const std::vector<int32_t> claimed = {7};
  auto delegated = ReplaceNodeSubsetsWithDelegateKernels(ThreeNodeChain(), claimed, "gpu", {});
  ASSERT_FALSE(delegated.ok());
  EXPECT_THAT(delegated.status().message(), HasSubstr("claimed node 7 is out of range"));
}

}  // namespace
}  // namespace tfa
