#include "libanalysis/report/gpu_task_fusion.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace tfa {
namespace {

GpuTask Task(std::vector<int32_t> inputs, std::vector<int32_t> outputs, bool linkable,
             int32_t node) {
  const uint32_t elementwise = linkable ? static_cast<uint32_t>(inputs.size()) : 0;
  return {std::move(inputs), std::move(outputs), linkable, elementwise, {node}};
}

std::vector<GpuTask> BothAgree(const GpuTaskGraph& graph) {
  const std::vector<GpuTask> fast = FuseGpuTasks(graph);
  EXPECT_EQ(fast, FuseGpuTasksReference(graph));
  return fast;
}

// conv -> add(conv, skip) -> relu: the ADD reads the convolution's output first and the skip
// connection is written already, so both elementwise tasks fuse into the convolution.
TEST(GpuTaskFusionTest, ElementwiseTasksFuseIntoTheirProducer) {
  GpuTaskGraph graph;
  graph.inputs = {0};
  graph.outputs = {4};
  graph.tasks = {Task({0}, {1}, false, 0), Task({1}, {2}, false, 1), Task({2, 1}, {3}, true, 2),
                 Task({3}, {4}, true, 3)};
  const std::vector<GpuTask> fused = BothAgree(graph);
  ASSERT_EQ(fused.size(), 2u);
  EXPECT_EQ(fused[1].inputs, (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(fused[1].outputs, (std::vector<int32_t>{4}));
  EXPECT_EQ(fused[1].nodes, (std::vector<int32_t>{1, 2, 3}));
}

// A task that writes a graph output keeps it; a value read twice is no link.
TEST(GpuTaskFusionTest, GraphOutputsAndSharedValuesStop) {
  GpuTaskGraph graph;
  graph.inputs = {0};
  graph.outputs = {1, 4};
  graph.tasks = {Task({0}, {1}, false, 0), Task({1}, {2}, true, 1), Task({2}, {3}, false, 2),
                 Task({2}, {4}, true, 3)};
  EXPECT_EQ(BothAgree(graph).size(), 4u);
}

// TYPE_1: x * sigmoid(x) after a convolution: the MUL and the sigmoid become one task reading x,
// which then fuses into the convolution.
TEST(GpuTaskFusionTest, SwishFusesWhole) {
  GpuTaskGraph graph;
  graph.inputs = {0};
  graph.outputs = {3};
  graph.tasks = {Task({0}, {1}, false, 0), Task({1}, {2}, true, 1), Task({2, 1}, {3}, true, 2)};
  const std::vector<GpuTask> fused = BothAgree(graph);
  ASSERT_EQ(fused.size(), 1u);
  EXPECT_EQ(fused[0].outputs, (std::vector<int32_t>{3}));
  EXPECT_EQ(fused[0].nodes, (std::vector<int32_t>{0, 1, 2}));
}

// TYPE_3: relu(x) + tanh(x) from one producer.
TEST(GpuTaskFusionTest, TwoElementwiseBranchesFuse) {
  GpuTaskGraph graph;
  graph.inputs = {0};
  graph.outputs = {4};
  graph.tasks = {Task({0}, {1}, false, 0), Task({1}, {2}, true, 1), Task({1}, {3}, true, 2),
                 Task({2, 3}, {4}, true, 3)};
  const std::vector<GpuTask> fused = BothAgree(graph);
  ASSERT_EQ(fused.size(), 1u);
  EXPECT_EQ(fused[0].nodes, (std::vector<int32_t>{0, 1, 2, 3}));
}

// Random task graphs: each task reads one to three earlier values (or graph inputs, some twice),
// writes one or two new ones; some values are graph outputs.
RC_GTEST_PROP(GpuTaskFusionProperty, FastAgreesWithTheReference, ()) {
  GpuTaskGraph graph;
  const int graph_inputs = *rc::gen::inRange(1, 4);
  std::vector<int32_t> values;
  for (int i = 0; i < graph_inputs; ++i) {
    graph.inputs.insert(i);
    values.push_back(i);
  }
  const int tasks = *rc::gen::inRange(0, 40);
  for (int t = 0; t < tasks; ++t) {
    GpuTask task;
    const int reads = *rc::gen::inRange(1, 4);
    for (int r = 0; r < reads; ++r) {
      // Mostly the latest values, so that chains form.
      const int back = *rc::gen::inRange(0, std::min<int>(4, static_cast<int>(values.size())));
      task.inputs.push_back(values[values.size() - 1 - static_cast<size_t>(back)]);
    }
    const int writes = *rc::gen::weightedElement<int>({{9, 1}, {1, 2}});
    for (int w = 0; w < writes; ++w) {
      const auto value = static_cast<int32_t>(values.size());
      task.outputs.push_back(value);
      values.push_back(value);
      if (*rc::gen::weightedElement<int>({{6, 0}, {1, 1}})) graph.outputs.insert(value);
    }
    task.linkable = *rc::gen::arbitrary<bool>();
    task.elementwise_inputs = task.linkable ? static_cast<uint32_t>(task.inputs.size()) : 0;
    task.nodes = {t};
    graph.tasks.push_back(std::move(task));
  }
  const std::vector<GpuTask> fast = FuseGpuTasks(graph);
  RC_ASSERT(fast == FuseGpuTasksReference(graph));
  // Every graph node stays in exactly one task.
  std::vector<int> seen(static_cast<size_t>(tasks), 0);
  for (const GpuTask& task : fast) {
    for (int32_t node : task.nodes) ++seen[static_cast<size_t>(node)];
  }
  for (int count : seen) RC_ASSERT(count == 1);
}

}  // namespace
}  // namespace tfa
