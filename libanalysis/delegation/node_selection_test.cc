#include "libanalysis/delegation/node_selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>
#include <vector>

#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/delegation/partition.h"
#include "tests/support/random_graph.h"

namespace tfa {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Builds small graphs: tensors by hand, nodes in plan order.
class GraphBuilder {
 public:
  int32_t Tensor(TensorType type = TensorType::kFloat32,
                 AllocationType allocation = AllocationType::kArenaRw) {
    tfa::Tensor tensor;
    tensor.type = type;
    tensor.allocation = allocation;
    tensor.bytes = 64;
    subgraph_.tensors.push_back(tensor);
    return static_cast<int32_t>(subgraph_.tensors.size() - 1);
  }
  int32_t Fp16Constant() { return Tensor(TensorType::kFloat16, AllocationType::kMmapRo); }
  int32_t Input() {
    subgraph_.inputs.push_back(Tensor());
    return subgraph_.inputs.back();
  }
  // Adds a node and returns its output tensor.
  int32_t Node(const char* op, std::vector<int32_t> inputs) {
    tfa::Node node;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = {Tensor()};
    subgraph_.execution_plan.push_back(static_cast<int32_t>(subgraph_.nodes.size()));
    subgraph_.nodes.push_back(node);
    return node.outputs[0];
  }
  Subgraph Build(int32_t output) {
    subgraph_.outputs = {output};
    return subgraph_;
  }

 private:
  Subgraph subgraph_;
};

// x -> 0 -> 1 -> 2(unsupported) -> 3 -> 4 -> 5 -> 6(unsupported) -> 7
Subgraph ChainWithPartitionsOfThreeAndOne(std::vector<bool>* supported) {
  GraphBuilder g;
  int32_t t = g.Input();
  const char* ops[] = {"ADD", "ADD", "SIN", "ADD", "ADD", "ADD", "SIN", "ADD"};
  for (const char* op : ops) t = g.Node(op, {t});
  *supported = {true, true, false, true, true, true, false, true};
  return g.Build(t);
}

TEST(NodeSelectionTest, KeepsTheLargestPartitions) {
  std::vector<bool> supported;
  const Subgraph subgraph = ChainWithPartitionsOfThreeAndOne(&supported);
  auto all = SelectNodesToReplace(subgraph, supported, {});
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->candidate_partitions.size(), 3u);
  EXPECT_EQ(all->supported_node_count, 6);
  EXPECT_THAT(all->nodes_to_replace, ElementsAre(3, 4, 5, 0, 1, 7));

  auto one = SelectNodesToReplace(subgraph, supported, {.max_partitions = 1});
  ASSERT_TRUE(one.ok());
  EXPECT_THAT(one->nodes_to_replace, ElementsAre(3, 4, 5));

  auto at_least_two = SelectNodesToReplace(subgraph, supported, {.min_nodes_per_partition = 2});
  ASSERT_TRUE(at_least_two.ok());
  EXPECT_THAT(at_least_two->nodes_to_replace, ElementsAre(3, 4, 5, 0, 1));
}

// Every candidate kept: the preview partitioned exactly the nodes to replace, so it is kept for
// the delegate kernels. A candidate left out makes it another partitioning.
TEST(NodeSelectionTest, KeepsThePreviewWhenItPartitionsTheNodesToReplace) {
  std::vector<bool> supported;
  const Subgraph subgraph = ChainWithPartitionsOfThreeAndOne(&supported);
  auto all = SelectNodesToReplace(subgraph, supported, {});
  ASSERT_TRUE(all.ok());
  ASSERT_TRUE(all->partitioning.has_value());
  auto again = PartitionExecutionPlan(subgraph, all->nodes_to_replace, PartitionOptions{});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*all->partitioning, *again);

  auto one = SelectNodesToReplace(subgraph, supported, {.max_partitions = 1});
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(one->partitioning.has_value());
}

TEST(NodeSelectionTest, NoPartitionsWhenMaxPartitionsIsNotPositive) {
  std::vector<bool> supported;
  const Subgraph subgraph = ChainWithPartitionsOfThreeAndOne(&supported);
  auto none = SelectNodesToReplace(subgraph, supported, {.max_partitions = 0});
  ASSERT_TRUE(none.ok());
  EXPECT_THAT(none->nodes_to_replace, IsEmpty());
  EXPECT_EQ(none->candidate_partitions.size(), 3u);
}

TEST(NodeSelectionTest, EqualPartitionsKeepPlanOrderWhenFew) {
  GraphBuilder g;
  int32_t t = g.Input();
  for (const char* op : {"ADD", "SIN", "ADD", "SIN", "ADD"}) t = g.Node(op, {t});
  const Subgraph subgraph = g.Build(t);
  auto selection =
      SelectNodesToReplace(subgraph, {true, false, true, false, true}, {.max_partitions = 2});
  ASSERT_TRUE(selection.ok());
  EXPECT_THAT(selection->nodes_to_replace, ElementsAre(0, 2));
}

TEST(NodeSelectionTest, RejectsAVerdictCountThatIsNotTheNodeCount) {
  std::vector<bool> supported;
  const Subgraph subgraph = ChainWithPartitionsOfThreeAndOne(&supported);
  supported.pop_back();
  EXPECT_FALSE(SelectNodesToReplace(subgraph, supported, {}).ok());
}

// x -> 0 ADD -> a;  w(fp16) -> 1 DEQUANTIZE -> w32;  2 CONV(a, w32) -> b;  3 SIN(b) -> c;
// 4 ADD(c) -> out. Supported: every node but SIN.
struct Fp16Graph {
  Subgraph subgraph;
  int32_t x, w, w32, b, c;
};

Fp16Graph MakeFp16Graph() {
  GraphBuilder g;
  Fp16Graph f;
  f.x = g.Input();
  const int32_t a = g.Node("ADD", {f.x});
  f.w = g.Fp16Constant();
  f.w32 = g.Node("DEQUANTIZE", {f.w});
  f.b = g.Node("CONV_2D", {a, f.w32});
  f.c = g.Node("SIN", {f.b});
  f.subgraph = g.Build(g.Node("ADD", {f.c}));
  return f;
}

// Upstream counts partitions with the DEQUANTIZE still on the CPU between ADD and CONV_2D: the
// preview sees three one-node partitions, not ADD+CONV_2D, and keeps only the first.
TEST(NodeSelectionTest, Fp16HelperCountsPartitionsWithDequantizeStillInTheGraph) {
  const Fp16Graph f = MakeFp16Graph();
  const std::vector<bool> supported = {true, true, true, false, true};
  auto selection =
      SelectNodesToReplace(f.subgraph, supported, {.max_partitions = 1, .fp16_helper = true});
  ASSERT_TRUE(selection.ok()) << selection.status().message();
  EXPECT_THAT(selection->constant_dequantize_nodes, ElementsAre(1));
  EXPECT_EQ(selection->supported_node_count, 3);
  EXPECT_FALSE(selection->full_delegation);
  ASSERT_EQ(selection->candidate_partitions.size(), 3u);
  EXPECT_THAT(selection->candidate_partitions[0].nodes, ElementsAre(0));
  EXPECT_THAT(selection->candidate_partitions[1].nodes, ElementsAre(2));
  EXPECT_THAT(selection->candidate_partitions[2].nodes, ElementsAre(4));
  EXPECT_THAT(selection->nodes_to_replace, ElementsAre(0));
  EXPECT_THAT(selection->input_remaps, IsEmpty());
}

TEST(NodeSelectionTest, Fp16HelperRewiresSelectedConsumersToTheFp16Constant) {
  const Fp16Graph f = MakeFp16Graph();
  const std::vector<bool> supported = {true, true, true, false, true};
  auto selection = SelectNodesToReplace(f.subgraph, supported, {.fp16_helper = true});
  ASSERT_TRUE(selection.ok());
  EXPECT_THAT(selection->nodes_to_replace, ElementsAre(0, 2, 4));
  EXPECT_THAT(selection->input_remaps, ElementsAre(InputRemap{2, 1, f.w32, f.w}));

  // After the rewiring, the DEQUANTIZE output is read by nobody and ADD + CONV_2D fuse.
  const Subgraph rewired = ApplyInputRemaps(f.subgraph, selection->input_remaps);
  auto delegated = ReplaceNodeSubsetsWithDelegateKernels(rewired, selection->nodes_to_replace,
                                                         "gpu", PartitionOptions{});
  ASSERT_TRUE(delegated.ok()) << delegated.status().message();
  ASSERT_EQ(delegated->subsets.size(), 3u);
  EXPECT_THAT(delegated->subsets[0].nodes, ElementsAre(0, 2));
  EXPECT_THAT(delegated->subsets[0].inputs, ElementsAre(f.x, f.w));
  EXPECT_THAT(delegated->subsets[0].outputs, ElementsAre(f.b));
  EXPECT_THAT(delegated->subsets[1].nodes, ElementsAre(1, 3));
  EXPECT_THAT(delegated->subsets[2].nodes, ElementsAre(4));
  EXPECT_THAT(delegated->subgraph.execution_plan, ElementsAre(5, 1, 3, 6));
}

TEST(NodeSelectionTest, Fp16HelperDelegatesEverythingWhenOnlyDequantizeIsUnsupported) {
  const Fp16Graph f = MakeFp16Graph();
  const std::vector<bool> supported = {true, false, true, true, true};
  auto selection =
      SelectNodesToReplace(f.subgraph, supported, {.max_partitions = 1, .fp16_helper = true});
  ASSERT_TRUE(selection.ok());
  EXPECT_TRUE(selection->full_delegation);
  EXPECT_THAT(selection->nodes_to_replace, ElementsAre(0, 1, 2, 3, 4));
  EXPECT_THAT(selection->input_remaps, ElementsAre(InputRemap{2, 1, f.w32, f.w}));

  const Subgraph rewired = ApplyInputRemaps(f.subgraph, selection->input_remaps);
  auto delegated = ReplaceNodeSubsetsWithDelegateKernels(rewired, selection->nodes_to_replace,
                                                         "gpu", PartitionOptions{});
  ASSERT_TRUE(delegated.ok());
  ASSERT_EQ(delegated->subsets.size(), 1u);
  EXPECT_THAT(delegated->subsets[0].inputs, ElementsAre(f.x, f.w));
  EXPECT_THAT(delegated->subgraph.execution_plan, ElementsAre(5));
}

// Without the fp16 helper a DEQUANTIZE is an ordinary node the delegate may support.
TEST(NodeSelectionTest, PlainHelperTreatsDequantizeAsAnyNode) {
  const Fp16Graph f = MakeFp16Graph();
  auto selection = SelectNodesToReplace(f.subgraph, {true, true, true, false, true}, {});
  ASSERT_TRUE(selection.ok());
  EXPECT_THAT(selection->constant_dequantize_nodes, IsEmpty());
  EXPECT_THAT(selection->nodes_to_replace, ElementsAre(0, 1, 2, 4));
}

// The kept preview is the partitioning the delegate kernels would be built from, and it is kept
// whenever every candidate is kept and no input is remapped.
RC_GTEST_PROP(NodeSelectionProperty, KeptPreviewIsThePartitioningOfTheNodesToReplace, ()) {
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  testing::RandomGraphOptions graph_options;
  graph_options.shuffled_plan_probability = 0.2;
  const Subgraph subgraph =
      testing::BuildRandomSubgraph(seed, *rc::gen::inRange(1, 30), graph_options);
  std::vector<bool> supported(subgraph.nodes.size(), false);
  for (int32_t node : testing::RandomNodeSelection(seed + 1, subgraph, 0.6)) {
    supported[static_cast<size_t>(node)] = true;
  }
  const NodeSelectionOptions options{
      .max_partitions = *rc::gen::element(1, 2, 4, std::numeric_limits<int>::max()),
      .min_nodes_per_partition = *rc::gen::inRange(0, 3),
      .greedy = *rc::gen::arbitrary<bool>(),
  };
  auto selection = SelectNodesToReplace(subgraph, supported, options);
  RC_PRE(selection.ok());
  RC_CLASSIFY(selection->partitioning.has_value(), "preview kept");
  if (!selection->partitioning) {
    RC_ASSERT(selection->nodes_to_replace.empty() ||
              selection->nodes_to_replace.size() <
                  static_cast<size_t>(selection->supported_node_count));
    return;
  }
  auto again = PartitionExecutionPlan(subgraph, selection->nodes_to_replace,
                                      PartitionOptions{.greedy = options.greedy});
  RC_ASSERT(again.ok());
  RC_ASSERT(DescribeSubsets(*selection->partitioning) == DescribeSubsets(*again));
}

}  // namespace
}  // namespace tfa
