// Arena planning: the fast planner (PlanArena) against the upstream-mirroring reference
// (PlanArenaReference) on generated graphs of 1k to 1M tensors; the reference runs up to 100k
// (it is quadratic) and the `speedup` counter is its CPU time over the fast planner's.
//
// The graph is a chain with skip connections, with only its last output live (the shape of real
// models, which have a few outputs) and with every 10th output kept live as a graph output (the
// adversarial shape for best fit: each earlier lifetime sees a hole where every later-placed
// output sits). Every 5th node has a temporary, every 7th node is add-like (in place on inputs
// 0/1). Sizes repeat, so ties occur; or, as issue 46's bench graphs have them, every size from
// 1 kB to 100 kB (4-byte steps), so few repeat and the live outputs leave holes of every size.
//
//   build/arena_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdint>
#include <optional>
#include <random>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/arena/arena_planner_reference.h"
#include "libanalysis/model/graph.h"

namespace tfa {
namespace {

// `keep_live_every`: every k-th output is a graph output (0: only the last one).
// `spread_sizes`: sizes from 1 kB to 100 kB instead of a few repeated ones.
Subgraph ChainWithSkips(int64_t tensor_count, int64_t keep_live_every, bool spread_sizes) {
  std::mt19937_64 random(42);
  constexpr uint64_t kSizes[] = {1024, 4096, 4096, 16384, 65536, 150528};
  auto add_tensor = [&](Subgraph& subgraph) {
    Tensor tensor;
    tensor.bytes = spread_sizes ? 4 * (256 + random() % 25345)
                                : kSizes[random() % std::size(kSizes)] +
                                      (random() % 4 == 0 ? random() % 999 : 0);
    subgraph.tensors.push_back(tensor);
    return static_cast<int32_t>(subgraph.tensors.size() - 1);
  };
  Subgraph subgraph;
  subgraph.inputs.push_back(add_tensor(subgraph));
  std::vector<int32_t> outputs = {subgraph.inputs[0]};
  for (int32_t n = 0; static_cast<int64_t>(subgraph.tensors.size()) < tensor_count; ++n) {
    Node node;
    node.op = "ADD";
    node.inputs.push_back(outputs.back());
    if (outputs.size() > 4 && n % 3 == 0) node.inputs.push_back(outputs[outputs.size() - 4]);
    node.outputs.push_back(add_tensor(subgraph));
    if (n % 5 == 0) node.temporaries.push_back(add_tensor(subgraph));
    if (n % 7 == 0) node.inplace = kInplaceInput0Shared | kInplaceInput1Shared;
    if (keep_live_every > 0 && n % keep_live_every == 0) {
      subgraph.outputs.push_back(node.outputs[0]);
    }
    outputs.push_back(node.outputs[0]);
    subgraph.nodes.push_back(node);
  }
  subgraph.outputs.push_back(outputs.back());
  subgraph.execution_plan = IdentityExecutionPlan(subgraph);
  return subgraph;
}

// CPU time, so the ratio holds on a machine shared with other work.
double CpuSeconds() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

constexpr int64_t kLargestReferenceRun = 100000;  // the reference is quadratic

// Times PlanArena; up to kLargestReferenceRun tensors also runs PlanArenaReference once, checks
// it gives the same plan and reports its CPU time and the ratio.
void BM_PlanArena(benchmark::State& state) {
  const Subgraph subgraph = ChainWithSkips(state.range(0), state.range(1), state.range(2) != 0);
  uint64_t arena_size = 0;
  double fast_seconds = 0;
  int64_t runs = 0;
  std::optional<ArenaPlan> fast_plan;
  for (auto _ : state) {
    const double start = CpuSeconds();
    auto plan = PlanArena(subgraph, ArenaPlannerOptions{});
    fast_seconds += CpuSeconds() - start;
    ++runs;
    if (!plan.ok()) {
      state.SkipWithError(plan.status().message().c_str());
      return;
    }
    arena_size = plan->arena_size;
    benchmark::DoNotOptimize(arena_size);
    if (!fast_plan) fast_plan = std::move(*plan);
  }
  state.counters["tensors"] = static_cast<double>(subgraph.tensors.size());
  state.counters["arena_bytes"] = static_cast<double>(arena_size);
  state.counters["fast_cpu_ms"] = fast_seconds / static_cast<double>(runs) * 1e3;
  if (state.range(0) > kLargestReferenceRun) return;
  const double start = CpuSeconds();
  auto reference = PlanArenaReference(subgraph, ArenaPlannerOptions{});
  const double reference_seconds = CpuSeconds() - start;
  if (!reference.ok() || !(*reference == *fast_plan)) {
    state.SkipWithError("PlanArena and PlanArenaReference disagree");
    return;
  }
  state.counters["reference_cpu_ms"] = reference_seconds * 1e3;
  state.counters["speedup"] = reference_seconds * static_cast<double>(runs) / fast_seconds;
}

// Arguments: tensors, keep_live_every, spread_sizes.
BENCHMARK(BM_PlanArena)
    ->Name("PlanArena")
    ->ArgsProduct({{1000, 10000, 100000, 1000000}, {0, 10}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tfa

BENCHMARK_MAIN();
