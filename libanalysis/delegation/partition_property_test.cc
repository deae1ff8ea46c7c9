// Property tests: the event-driven partitioner agrees with the upstream-mirroring reference on
// random graphs, and both satisfy what a partitioning must guarantee.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/delegation/partition.h"
#include "libanalysis/delegation/partition_reference.h"
#include "tests/support/random_graph.h"

namespace tfa {
namespace {

using testing::BuildRandomSubgraph;
using testing::RandomGraphOptions;
using testing::RandomNodeSelection;

// Graphs with everything upstream tolerates, including plans out of dependency order, unplanned
// nodes and back edges (which may make nodes unschedulable: both must then fail alike).
RandomGraphOptions AnyGraphOptions() {
  RandomGraphOptions options;
  options.shuffled_plan_probability = 0.3;
  options.unplanned_node_probability = 0.05;
  options.back_edge_probability = 0.03;
  return options;
}

struct RandomCase {
  Subgraph subgraph;
  std::vector<int32_t> claimed;
  PartitionOptions options;
};

RandomCase GenerateCase(const RandomGraphOptions& graph_options) {
  const int node_count = *rc::gen::inRange(1, graph_options.max_nodes + 1);
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  RandomCase c;
  c.subgraph = BuildRandomSubgraph(seed, node_count, graph_options);
  const double claim_probability = *rc::gen::element(0.0, 0.2, 0.5, 0.8, 1.0);
  c.claimed = RandomNodeSelection(seed ^ 0x9e3779b97f4a7c15ull, c.subgraph, claim_probability);
  c.options.greedy = *rc::gen::arbitrary<bool>();
  c.options.disable_node_fusion = *rc::gen::weightedElement<bool>({{9, false}, {1, true}});
  return c;
}

RC_GTEST_PROP(PartitionProperty, FastEqualsReference, ()) {
  const RandomCase c = GenerateCase(AnyGraphOptions());
  auto reference = PartitionExecutionPlanReference(c.subgraph, c.claimed, c.options);
  auto fast = PartitionExecutionPlan(c.subgraph, c.claimed, c.options);
  RC_ASSERT(fast.ok() == reference.ok());
  RC_CLASSIFY(!reference.ok(), "unschedulable");
  RC_CLASSIFY(c.options.greedy, "greedy");
  if (!reference.ok()) {
    RC_ASSERT(fast.status().message() == reference.status().message());
    return;
  }
  RC_ASSERT(DescribeSubsets(*fast) == DescribeSubsets(*reference));
}

// Index of the planned node producing each tensor (dependency-ordered graphs have one).
std::map<int32_t, int32_t> PlannedProducers(const Subgraph& subgraph) {
  std::map<int32_t, int32_t> producer;
  for (int32_t node : subgraph.execution_plan) {
    for (int32_t tensor : subgraph.nodes[node].outputs) {
      if (tensor != -1) producer[tensor] = node;
    }
  }
  return producer;
}

std::vector<int32_t> SortedUnique(std::set<int32_t> items) { return {items.begin(), items.end()}; }

// Graphs every node of which can run: no back edges, and side-effecting nodes only when the plan
// is in dependency order (a control edge against a data edge would deadlock, as upstream).
RandomGraphOptions SchedulableGraphOptions() {
  RandomGraphOptions options = AnyGraphOptions();
  options.back_edge_probability = 0.0;
  if (*rc::gen::arbitrary<bool>()) {
    options.side_effect_probability = 0.0;
    options.shuffled_plan_probability = 1.0;
  } else {
    options.shuffled_plan_probability = 0.0;
  }
  return options;
}

RC_GTEST_PROP(PartitionProperty, SubsetsAreAValidSchedule, ()) {
  const RandomCase c = GenerateCase(SchedulableGraphOptions());
  auto partition = PartitionExecutionPlan(c.subgraph, c.claimed, c.options);
  RC_ASSERT(partition.ok());
  const std::vector<NodeSubset>& subsets = *partition;
  const std::set<int32_t> claimed(c.claimed.begin(), c.claimed.end());

  // Every planned node in exactly one subset, in a subset of its own type.
  std::map<int32_t, std::pair<size_t, size_t>> place;  // node -> (subset, order in subset)
  for (size_t s = 0; s < subsets.size(); ++s) {
    RC_ASSERT(!subsets[s].nodes.empty());
    for (size_t k = 0; k < subsets[s].nodes.size(); ++k) {
      const int32_t node = subsets[s].nodes[k];
      RC_ASSERT(place.emplace(node, std::make_pair(s, k)).second);
      RC_ASSERT((subsets[s].type == SubsetType::kDelegate) == claimed.contains(node));
    }
    if (c.options.disable_node_fusion) RC_ASSERT(subsets[s].nodes.size() == 1u);
  }
  RC_ASSERT(place.size() == c.subgraph.execution_plan.size());
  for (int32_t node : c.subgraph.execution_plan) RC_ASSERT(place.contains(node));

  // Producers run before consumers; side-effecting nodes keep their order when greedy.
  const std::map<int32_t, int32_t> producer = PlannedProducers(c.subgraph);
  for (int32_t node : c.subgraph.execution_plan) {
    for (int32_t tensor : c.subgraph.nodes[node].inputs) {
      auto it = producer.find(tensor);
      if (it == producer.end()) continue;
      RC_ASSERT(place[it->second] < place[node]);
    }
  }
  if (c.options.greedy) {
    std::pair<size_t, size_t> previous{0, 0};
    bool seen = false;
    for (int32_t node : c.subgraph.execution_plan) {
      if (!c.subgraph.nodes[node].side_effect) continue;
      if (seen) RC_ASSERT(previous < place[node]);
      previous = place[node];
      seen = true;
    }
  }

  // Boundaries are exactly the tensors that cross them: inputs are read by the subset and not
  // produced in it (produced by an earlier subset, or always ready); outputs are produced in it
  // and read by another subset or graph outputs.
  const std::set<int32_t> graph_outputs(c.subgraph.outputs.begin(), c.subgraph.outputs.end());
  for (size_t s = 0; s < subsets.size(); ++s) {
    std::set<int32_t> produced, read, read_elsewhere;
    for (int32_t node : subsets[s].nodes) {
      for (int32_t tensor : c.subgraph.nodes[node].outputs) {
        if (tensor != -1) produced.insert(tensor);
      }
    }
    for (int32_t node : c.subgraph.execution_plan) {
      for (int32_t tensor : c.subgraph.nodes[node].inputs) {
        if (tensor == -1) continue;
        (place[node].first == s ? read : read_elsewhere).insert(tensor);
      }
    }
    std::set<int32_t> inputs, outputs;
    for (int32_t tensor : read) {
      if (!produced.contains(tensor)) inputs.insert(tensor);
    }
    for (int32_t tensor : produced) {
      if (read_elsewhere.contains(tensor) || graph_outputs.contains(tensor)) outputs.insert(tensor);
    }
    RC_ASSERT(subsets[s].inputs == SortedUnique(inputs));
    RC_ASSERT(subsets[s].outputs == SortedUnique(outputs));
    for (int32_t tensor : subsets[s].inputs) {
      auto it = producer.find(tensor);
      if (it != producer.end()) RC_ASSERT(place[it->second].first < s);
    }
  }
}

// A second delegate partitions the plan the first one left: both partitioners agree there too,
// and every original planned node either still runs or is replaced by exactly one kernel.
RC_GTEST_PROP(PartitionProperty, SecondDelegateOnDelegatedPlan, ()) {
  const RandomCase c = GenerateCase(SchedulableGraphOptions());
  auto first = ReplaceNodeSubsetsWithDelegateKernels(c.subgraph, c.claimed, "first", c.options);
  RC_ASSERT(first.ok());
  const Subgraph& once = first->subgraph;

  std::vector<int32_t> second_claims;
  for (int32_t node : RandomNodeSelection(*rc::gen::arbitrary<uint64_t>(), once, 0.5)) {
    if (once.nodes[node].kind != NodeKind::kDelegateKernel) second_claims.push_back(node);
  }
  auto reference = PartitionExecutionPlanReference(once, second_claims, c.options);
  auto fast = PartitionExecutionPlan(once, second_claims, c.options);
  RC_ASSERT(reference.ok());
  RC_ASSERT(fast.ok());
  RC_ASSERT(DescribeSubsets(*fast) == DescribeSubsets(*reference));

  auto second = ReplaceNodeSubsetsWithDelegateKernels(once, second_claims, "second", c.options);
  RC_ASSERT(second.ok());
  std::multiset<int32_t> covered;
  std::vector<int32_t> pending(second->subgraph.execution_plan);
  while (!pending.empty()) {
    const int32_t node = pending.back();
    pending.pop_back();
    const Node& n = second->subgraph.nodes[node];
    if (n.kind == NodeKind::kDelegateKernel) {
      pending.insert(pending.end(), n.replaces.begin(), n.replaces.end());
    } else {
      covered.insert(node);
    }
  }
  RC_ASSERT(covered == std::multiset<int32_t>(c.subgraph.execution_plan.begin(),
                                              c.subgraph.execution_plan.end()));
}

}  // namespace
}  // namespace tfa
