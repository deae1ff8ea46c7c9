// Partitioning speed: the event-driven partitioner against the upstream-mirroring reference on
// the graph shape of the oracle's scale table (a chain with skip connections, every other node
// claimed, every 10th output a graph output). Alternating claims make one subset per node, the
// reference's worst case: it rescans the plan for every subset.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "libanalysis/delegation/partition.h"
#include "libanalysis/delegation/partition_reference.h"
#include "libanalysis/model/graph.h"

namespace tfa {
namespace {

struct BenchGraph {
  Subgraph subgraph;
  std::vector<int32_t> claimed;
};

BenchGraph MakeChainWithSkips(int node_count) {
  BenchGraph graph;
  Subgraph& s = graph.subgraph;
  s.tensors.resize(node_count + 2);
  for (auto& tensor : s.tensors) tensor.bytes = 4096;
  s.tensors[1].allocation = AllocationType::kMmapRo;  // a shared constant
  s.inputs = {0};
  for (int i = 0; i < node_count; ++i) {
    Node node;
    node.op = i % 2 == 0 ? "ADD" : "SIN";
    const int32_t previous = i == 0 ? 0 : i + 1;
    const int32_t skip = i < 3 ? 0 : i - 1;
    node.inputs = {previous, skip, 1};
    node.outputs = {i + 2};
    s.nodes.push_back(std::move(node));
    s.execution_plan.push_back(i);
    if (i % 10 == 9 || i == node_count - 1) s.outputs.push_back(i + 2);
    if (i % 2 == 0) graph.claimed.push_back(i);
  }
  return graph;
}

template <auto Partitioner>
void BM_Partition(benchmark::State& state) {
  const BenchGraph graph = MakeChainWithSkips(static_cast<int>(state.range(0)));
  const PartitionOptions options;
  size_t subsets = 0;
  for (auto _ : state) {
    auto result = Partitioner(graph.subgraph, graph.claimed, options);
    if (!result.ok()) {
      state.SkipWithError(result.status().message().c_str());
      return;
    }
    subsets = result->size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["subsets"] = static_cast<double>(subsets);
  state.SetComplexityN(state.range(0));
}

// The overload on a plain Subgraph, which checks its input as the reference does.
constexpr auto* kFastPartitioner = static_cast<Result<std::vector<NodeSubset>> (*)(
    const Subgraph&, std::span<const int32_t>, const PartitionOptions&)>(&PartitionExecutionPlan);

BENCHMARK(BM_Partition<kFastPartitioner>)
    ->Name("Fast")
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();
BENCHMARK(BM_Partition<PartitionExecutionPlanReference>)
    ->Name("Reference")
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();

}  // namespace
}  // namespace tfa

BENCHMARK_MAIN();
