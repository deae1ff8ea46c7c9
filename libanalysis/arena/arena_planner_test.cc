// The fast planner against the reference on random graphs, and the invariants every plan keeps.
#include "libanalysis/arena/arena_planner.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/arena/arena_planner_reference.h"
#include "libanalysis/model/graph_json.h"
#include "tests/support/random_graph.h"

namespace tfa {
namespace {

using testing::GenRandomSubgraph;
using testing::RandomGraphOptions;

// Plans that stress the tie rules and the gap search: many equal sizes, many graph outputs kept
// live (holes between long-lived buffers), plans out of dependency order.
RandomGraphOptions AdversarialOptions() {
  RandomGraphOptions options;
  options.max_nodes = 60;
  options.max_graph_inputs = 4;
  options.graph_output_probability = 0.3;
  options.input_as_output_probability = 0.3;
  options.shuffled_plan_probability = 0.2;
  options.unplanned_node_probability = 0.05;
  options.back_edge_probability = 0.05;
  return options;
}

void CheckInvariants(const ArenaPlan& plan, uint64_t alignment) {
  auto check_arena = [&](const std::vector<ArenaBlock>& blocks, uint64_t arena_size) {
    uint64_t high_water = 0;
    for (const ArenaBlock& block : blocks) {
      RC_ASSERT(block.offset % alignment == 0);
      RC_ASSERT(block.first_step <= block.last_step);
      high_water = std::max(high_water, block.offset + block.size);
    }
    RC_ASSERT(high_water == arena_size);
    for (size_t i = 0; i < blocks.size(); ++i) {
      for (size_t j = i + 1; j < blocks.size(); ++j) {
        const ArenaBlock& a = blocks[i];
        const ArenaBlock& b = blocks[j];
        const bool live_together = a.first_step <= b.last_step && b.first_step <= a.last_step;
        const bool bytes_overlap = a.offset < b.offset + b.size && b.offset < a.offset + a.size;
        RC_ASSERT(!(live_together && bytes_overlap));
      }
    }
    RC_ASSERT(arena_size >= LowerBound(blocks, plan.num_steps, alignment).bytes);
  };
  check_arena(plan.rw_blocks, plan.arena_size);
  check_arena(plan.persistent_blocks, plan.persistent_arena_size);
  for (const TensorPlacement& placement : plan.tensors) {
    if (placement.arena == ArenaKind::kNone) continue;
    RC_ASSERT(placement.offset % alignment == 0);
    if (placement.shares_buffer_of == -1) continue;
    // An alias with bytes uses its owner's buffer.
    const TensorPlacement& owner = plan.tensors[placement.shares_buffer_of];
    RC_ASSERT(owner.arena == placement.arena);
    RC_ASSERT(owner.offset == placement.offset);
  }
}

// Names the first field where two plans differ, for the failure log.
std::string FirstDifference(const ArenaPlan& a, const ArenaPlan& b) {
  for (size_t i = 0; i < std::min(a.tensors.size(), b.tensors.size()); ++i) {
    const TensorPlacement& x = a.tensors[i];
    const TensorPlacement& y = b.tensors[i];
    if (x == y) continue;
    return "tensor " + std::to_string(i) + ": arena " + ArenaKindName(x.arena) + "/" +
           ArenaKindName(y.arena) + " offset " + std::to_string(x.offset) + "/" +
           std::to_string(y.offset) + " steps " + std::to_string(x.first_step) + ".." +
           std::to_string(x.last_step) + "/" + std::to_string(y.first_step) + ".." +
           std::to_string(y.last_step) + " shares " + std::to_string(x.shares_buffer_of) + "/" +
           std::to_string(y.shares_buffer_of);
  }
  return "sizes " + std::to_string(a.arena_size) + "/" + std::to_string(b.arena_size) + " " +
         std::to_string(a.persistent_arena_size) + "/" + std::to_string(b.persistent_arena_size) +
         " blocks " + std::to_string(a.rw_blocks.size()) + "/" + std::to_string(b.rw_blocks.size());
}

void CheckFastEqualsReference(const Subgraph& subgraph, const ArenaPlannerOptions& options) {
  auto reference = PlanArenaReference(subgraph, options);
  auto fast = PlanArena(subgraph, options);
  RC_ASSERT(reference.ok());
  RC_ASSERT(fast.ok());
  if (!(*fast == *reference)) {
    RC_LOG() << SubgraphToGraphJson(subgraph) << "\nplan "
             << ::testing::PrintToString(subgraph.execution_plan)
             << "\nfast/reference: " << FirstDifference(*fast, *reference) << "\n";
  }
  RC_ASSERT(*fast == *reference);
  CheckInvariants(*fast, options.tensor_alignment);
}

RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceOnRandomGraphs, ()) {
  const Subgraph subgraph = *GenRandomSubgraph(RandomGraphOptions{});
  CheckFastEqualsReference(subgraph, {});
}

RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceOnAdversarialGraphs, ()) {
  const Subgraph subgraph = *GenRandomSubgraph(AdversarialOptions());
  CheckFastEqualsReference(subgraph, {});
}

RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceWhenPreservingAllTensors, ()) {
  const Subgraph subgraph = *GenRandomSubgraph(RandomGraphOptions{});
  CheckFastEqualsReference(subgraph, {.preserve_all_tensors = true});
}

// Equal sizes everywhere: every ordering decision falls to the libstdc++ tie rule, and every
// gap fits exactly.
RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceWithEqualSizes, ()) {
  Subgraph subgraph = *GenRandomSubgraph(AdversarialOptions());
  const auto sizes = *rc::gen::container<std::vector<uint64_t>>(
      subgraph.tensors.size(), rc::gen::element<uint64_t>(0, 3, 64, 100, 128));
  for (size_t i = 0; i < subgraph.tensors.size(); ++i) subgraph.tensors[i].bytes = sizes[i];
  CheckFastEqualsReference(subgraph, {});
}

// The best-fit edge cases: many gaps of equal aligned size, left by long-lived buffers whose
// ends are aligned or not (63, 65, 129 bytes), next to zero-byte tensors.
RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceWithEqualGaps, ()) {
  RandomGraphOptions options = AdversarialOptions();
  options.max_nodes = 120;
  options.graph_output_probability = 0.5;
  Subgraph subgraph = *GenRandomSubgraph(options);
  for (Tensor& tensor : subgraph.tensors) {
    tensor.bytes = *rc::gen::element<uint64_t>(0, 1, 63, 64, 65, 128, 129, 192);
  }
  CheckFastEqualsReference(subgraph, {});
}

// Hundreds of steps: deep segment trees, long-lived buffers with many holes between them.
RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceOnLargeGraphs, ()) {
  RandomGraphOptions options = AdversarialOptions();
  options.max_nodes = 400;
  options.shuffled_plan_probability = 0.05;
  Subgraph subgraph = *GenRandomSubgraph(options);
  if (*rc::gen::arbitrary<bool>()) {
    for (Tensor& tensor : subgraph.tensors) {
      tensor.bytes = *rc::gen::element<uint64_t>(0, 64, 100, 128, 1000);
    }
  }
  CheckFastEqualsReference(subgraph, {});
}

// The shape of a graph a delegate cuts into a partition per node (issue 46, bench/gen_scale.py
// --alternating): a chain where each node also reads the output three back at times, writes a
// buffer of its own size, and every tenth output stays live to the end. Enough steps that the
// live outputs pass OccupancyTree::kScannedSkyline and go through SkylineHoles' index, with holes
// between outputs of every size. Alignments from 1 byte up: the index packs a hole's alignment
// flag into the top bit of its start in alignment units.
RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceOnManyPartitionChains, ()) {
  const int nodes = *rc::gen::inRange(100, 1200);
  const int live_every = *rc::gen::element(3, 10);
  Subgraph subgraph;
  subgraph.tensors.resize(static_cast<size_t>(nodes) + 2);
  subgraph.tensors[0].bytes = 4096;
  subgraph.tensors[1].bytes = 4;
  subgraph.tensors[1].allocation = AllocationType::kMmapRo;
  for (int i = 0; i < nodes; ++i) {
    subgraph.tensors[i + 2].bytes = *rc::gen::inRange<uint64_t>(1, 3000);
  }
  subgraph.inputs = {0};
  for (int i = 0; i < nodes; ++i) {
    Node node;
    node.op = i % 2 == 0 ? "ADD" : "MUL";
    node.inplace = 12;
    const bool skip = i >= 3 && *rc::gen::inRange(0, 10) < 3;
    node.inputs = {i == 0 ? 0 : i + 1, skip ? i - 1 : 1};
    node.outputs = {i + 2};
    subgraph.nodes.push_back(node);
    subgraph.execution_plan.push_back(i);
    if ((i + 1) % live_every == 0 || i == nodes - 1) subgraph.outputs.push_back(i + 2);
  }
  ArenaPlannerOptions options;
  options.tensor_alignment = *rc::gen::element<uint64_t>(1, 2, 16, 64);
  CheckFastEqualsReference(subgraph, options);
}

// bench/gen_scale.py --random-dag's shape: each node reads one of the 8 outputs before it and, at
// times, one of the 64 before it, so short-lived buffers last up to 64 steps and their union
// spans many live outputs at once.
RC_GTEST_PROP(ArenaPlannerProperty, FastEqualsReferenceOnRandomLocalDags, ()) {
  const int nodes = *rc::gen::inRange(100, 1000);
  Subgraph subgraph;
  subgraph.tensors.resize(static_cast<size_t>(nodes) + 2);
  subgraph.tensors[0].bytes = 4096;
  subgraph.tensors[1].bytes = 4;
  subgraph.tensors[1].allocation = AllocationType::kMmapRo;
  for (int i = 0; i < nodes; ++i) {
    subgraph.tensors[i + 2].bytes = *rc::gen::inRange<uint64_t>(1, 3000);
  }
  subgraph.inputs = {0};
  // The tensor written by the node `back` steps before node i (the graph input before node 0).
  auto output_before = [](int i, int back) { return i - back < 0 ? 0 : i - back + 2; };
  for (int i = 0; i < nodes; ++i) {
    Node node;
    node.op = *rc::gen::arbitrary<bool>() ? "ADD" : "MUL";
    node.inplace = 12;
    const int near = output_before(i, *rc::gen::inRange(1, 9));
    const bool far = *rc::gen::arbitrary<bool>();
    node.inputs = {near, far ? output_before(i, *rc::gen::inRange(1, 65)) : 1};
    node.outputs = {i + 2};
    subgraph.nodes.push_back(node);
    subgraph.execution_plan.push_back(i);
    if ((i + 1) % 10 == 0 || i == nodes - 1) subgraph.outputs.push_back(i + 2);
  }
  CheckFastEqualsReference(subgraph, {});
}

// A subgraph whose plan runs no node: upstream's CalculateAllocations covers steps 0..-1, so
// nothing is placed (tflite/arena_planner.cc); both planners agree and the fast one's block tree
// and skyline index cope with zero steps.
TEST(ArenaPlannerTest, PlansASubgraphWithNoSteps) {
  Subgraph subgraph;
  subgraph.tensors.resize(3);
  for (Tensor& tensor : subgraph.tensors) tensor.bytes = 100;
  subgraph.inputs = {0, 1};
  subgraph.outputs = {1, 2};
  subgraph.variables = {2};
  auto fast = PlanArena(subgraph);
  auto reference = PlanArenaReference(subgraph);
  ASSERT_TRUE(fast.ok()) << fast.status().message();
  ASSERT_TRUE(reference.ok()) << reference.status().message();
  EXPECT_EQ(*fast, *reference);
  EXPECT_EQ(fast->arena_size, 0u);
}

TEST(ArenaPlannerTest, RejectsOutOfRangeTensor) {
  Subgraph subgraph;
  subgraph.name = "main";
  subgraph.tensors.resize(1);
  subgraph.tensors[0].bytes = 4;
  Node node;
  node.op = "ADD";
  node.inputs = {0};
  node.outputs = {3};
  subgraph.nodes.push_back(node);
  subgraph.execution_plan = {0};
  auto plan = PlanArena(subgraph);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "subgraph 'main': node 0 (ADD) outputs: tensor 3 is out of range (1 tensors)");
}

TEST(ArenaPlannerTest, RejectsArenaTensorOfUnknownSize) {
  Subgraph subgraph;
  subgraph.name = "main";
  subgraph.tensors.resize(1);
  subgraph.tensors[0].name = "x";
  subgraph.inputs = {0};
  auto plan = PlanArena(subgraph);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "subgraph 'main': tensor 0 (x): byte size unknown, cannot plan the arena");
}

}  // namespace
}  // namespace tfa
