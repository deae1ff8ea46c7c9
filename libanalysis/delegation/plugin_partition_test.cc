// Upstream's own expectations for the default partition strategy (litert/compiler/plugin/
// algo_test.cc, TestPartitionsFromFlatList and PartitionWithIndex, and TestSliceSubgraph's
// dispatch-op boundaries), on the graph those tests load (simple_multi_op.tflite):
//   0 = ADD(arg0, arg0); 1 = MUL(0, 0); 2 = MUL(1, 1); 3 = ADD(2, 2); return 3
#include "libanalysis/delegation/plugin_partition.h"

#include <gtest/gtest.h>

#include "libanalysis/delegation/plugin_partition_reference.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::Graph;
using testing::Op;

Subgraph SimpleMultiOp() {
  using testing::ArenaTensor;
  return Graph(
      {ArenaTensor({2}), ArenaTensor({2}), ArenaTensor({2}), ArenaTensor({2}), ArenaTensor({2})},
      {Op("ADD", {0, 0}, {1}), Op("MUL", {1, 1}, {2}), Op("MUL", {2, 2}, {3}),
       Op("ADD", {3, 3}, {4})},
      {0}, {4});
}

std::vector<NodeSubset> Group(const Subgraph& graph, std::vector<PluginSelectedNode> selected) {
  auto fast = GroupCompilerPluginPartitions(graph, selected);
  auto reference = GroupCompilerPluginPartitionsReference(graph, selected);
  EXPECT_TRUE(fast.ok() && reference.ok());
  EXPECT_EQ(DescribeSubsets(*fast), DescribeSubsets(*reference));
  return *fast;
}

std::vector<std::vector<int32_t>> DispatchPartitions(const std::vector<NodeSubset>& subsets) {
  std::vector<std::vector<int32_t>> partitions;
  for (const NodeSubset& s : subsets) {
    if (s.type == SubsetType::kDelegate) partitions.emplace_back(s.nodes.begin(), s.nodes.end());
  }
  return partitions;
}

TEST(PluginPartition, TwoConnectedMulsMakeOnePartition) {
  const auto subsets = Group(SimpleMultiOp(), {{1, 0}, {2, 0}});
  EXPECT_EQ(DispatchPartitions(subsets), (std::vector<std::vector<int32_t>>{{1, 2}}));
  // The main subgraph after outlining: ADD, dispatch, ADD; the dispatch op reads tfl.add's output
  // and writes the one tensor the last ADD reads (TestSliceSubgraphSimpleMultiOp.OnePartition).
  ASSERT_EQ(subsets.size(), 3u);
  EXPECT_EQ(subsets[1].inputs, std::vector<int32_t>{1});
  EXPECT_EQ(subsets[1].outputs, std::vector<int32_t>{3});
}

TEST(PluginPartition, SelectionsSeparatedByAnUnselectedOpMakeTwoPartitions) {
  EXPECT_EQ(DispatchPartitions(Group(SimpleMultiOp(), {{1, 0}, {3, 0}})),
            (std::vector<std::vector<int32_t>>{{1}, {3}}));
}

TEST(PluginPartition, NothingSelectedMakesNoPartition) {
  const auto subsets = Group(SimpleMultiOp(), {});
  EXPECT_TRUE(DispatchPartitions(subsets).empty());
  ASSERT_EQ(subsets.size(), 1u);
  EXPECT_EQ(subsets[0].type, SubsetType::kCpu);
}

TEST(PluginPartition, EverythingSelectedMakesOnePartitionOfFour) {
  EXPECT_EQ(DispatchPartitions(Group(SimpleMultiOp(), {{0, 0}, {1, 0}, {2, 0}, {3, 0}})),
            (std::vector<std::vector<int32_t>>{{0, 1, 2, 3}}));
}

TEST(PluginPartition, PartitionIndicesSplitRuns) {
  EXPECT_EQ(DispatchPartitions(Group(SimpleMultiOp(), {{1, 0}, {2, 1}})),
            (std::vector<std::vector<int32_t>>{{1}, {2}}));
  EXPECT_EQ(DispatchPartitions(Group(SimpleMultiOp(), {{0, 1}, {1, 2}, {2, 3}, {3, 4}})),
            (std::vector<std::vector<int32_t>>{{0}, {1}, {2}, {3}}));
}

TEST(PluginPartition, ConstantsAreClonedNotPassed) {
  Subgraph graph = SimpleMultiOp();
  const int32_t weights = testing::AddConstant(graph, TensorType::kFloat32, {2});
  graph.nodes[1].inputs = std::vector<int32_t>{1, weights};
  const auto subsets = Group(graph, {{1, 0}, {2, 0}});
  ASSERT_EQ(subsets.size(), 3u);
  EXPECT_EQ(subsets[1].inputs, std::vector<int32_t>{1});
}

TEST(PluginPartition, SelectedNodeOutOfRangeIsAnError) {
  const std::vector<PluginSelectedNode> selected{{7, 0}};
  auto fast = GroupCompilerPluginPartitions(SimpleMultiOp(), selected);
  auto reference = GroupCompilerPluginPartitionsReference(SimpleMultiOp(), selected);
  ASSERT_FALSE(fast.ok());
  ASSERT_FALSE(reference.ok());
  EXPECT_EQ(fast.status().message(), reference.status().message());
}

}  // namespace
}  // namespace tfa
