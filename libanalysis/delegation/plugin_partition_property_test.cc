// Property tests: the one-pass compiler-plugin grouping agrees with the upstream-mirroring
// reference on random graphs and random plugin selections, and every partition is a run of
// consecutive planned nodes with one partition index.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <vector>

#include "libanalysis/delegation/plugin_partition.h"
#include "libanalysis/delegation/plugin_partition_reference.h"
#include "tests/support/random_graph.h"

namespace tfa {
namespace {

using testing::BuildRandomSubgraph;
using testing::RandomGraphOptions;
using testing::RandomNodeSelection;

struct RandomCase {
  Subgraph subgraph;
  std::vector<PluginSelectedNode> selected;
};

RandomCase GenerateCase() {
  RandomGraphOptions options;
  options.shuffled_plan_probability = 0.3;
  options.unplanned_node_probability = 0.05;
  options.back_edge_probability = 0.03;
  const int node_count = *rc::gen::inRange(1, options.max_nodes + 1);
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  RandomCase c;
  c.subgraph = BuildRandomSubgraph(seed, node_count, options);
  const double probability = *rc::gen::element(0.0, 0.3, 0.7, 1.0);
  const auto indices = *rc::gen::inRange<uint32_t>(1, 4);
  for (int32_t node : RandomNodeSelection(seed ^ 0x5bd1e995u, c.subgraph, probability)) {
    c.selected.push_back({node, *rc::gen::inRange<uint32_t>(0, indices)});
  }
  return c;
}

RC_GTEST_PROP(PluginPartitionProperty, FastEqualsReference, ()) {
  const RandomCase c = GenerateCase();
  auto reference = GroupCompilerPluginPartitionsReference(c.subgraph, c.selected);
  auto fast = GroupCompilerPluginPartitions(c.subgraph, c.selected);
  RC_ASSERT(fast.ok() == reference.ok());
  if (!reference.ok()) {
    RC_ASSERT(fast.status().message() == reference.status().message());
    return;
  }
  RC_ASSERT(DescribeSubsets(*fast) == DescribeSubsets(*reference));
}

RC_GTEST_PROP(PluginPartitionProperty, PartitionsAreRunsOfOneIndex, ()) {
  const RandomCase c = GenerateCase();
  auto subsets = GroupCompilerPluginPartitions(c.subgraph, c.selected);
  RC_ASSERT(subsets.ok());
  std::map<int32_t, uint32_t> index;
  for (const PluginSelectedNode& s : c.selected) index[s.node] = s.partition_index;
  std::vector<int32_t> covered;
  for (size_t i = 0; i < subsets->size(); ++i) {
    const NodeSubset& subset = (*subsets)[i];
    RC_ASSERT(!subset.nodes.empty());
    for (int32_t node : subset.nodes) {
      RC_ASSERT(index.contains(node) == (subset.type == SubsetType::kDelegate));
      if (subset.type == SubsetType::kDelegate) {
        RC_ASSERT(index[node] == index[subset.nodes.front()]);
      }
      covered.push_back(node);
    }
    if (i > 0 && subset.type == SubsetType::kCpu) {
      RC_ASSERT((*subsets)[i - 1].type == SubsetType::kDelegate);
    }
  }
  RC_ASSERT(covered == c.subgraph.execution_plan);
}

}  // namespace
}  // namespace tfa
