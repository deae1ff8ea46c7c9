// NON_MAX_SUPPRESSION_V4 / V5 and UNIQUE: which outputs their Prepare sizes and which it leaves
// to Eval (non_max_suppression.cc, unique.cc), and what the arena plan does with them.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/prepare/kernel_prepare.h"
#include "libanalysis/prepare/shape_inference.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

struct NmsGraph {
  Subgraph graph;
  int32_t max_output_size = -1, indices = -1, scores = -1, count = -1;
};

// boxes [6,4], scores [6] -> NMS -> indices [5], (soft: scores [5]), count []. A constant
// max_output_size holds 5.
NmsGraph Nms(bool soft, bool constant_max_output_size) {
  NmsGraph n;
  Subgraph& g = n.graph;
  g.name = "main";
  const int32_t boxes = AddTensor(g, TensorType::kFloat32, {6, 4});
  const int32_t scores = AddTensor(g, TensorType::kFloat32, {6});
  if (constant_max_output_size) {
    n.max_output_size = AddConstant(g, TensorType::kInt32, {});
    g.tensors[static_cast<size_t>(n.max_output_size)].int_values = std::vector<int64_t>{5};
  } else {
    n.max_output_size = AddTensor(g, TensorType::kInt32, {});
  }
  const int32_t iou = AddConstant(g, TensorType::kFloat32, {});
  const int32_t threshold = AddTensor(g, TensorType::kFloat32, {});
  std::vector<int32_t> inputs = {boxes, scores, n.max_output_size, iou, threshold};
  n.indices = AddTensor(g, TensorType::kInt32, {5});
  std::vector<int32_t> outputs = {n.indices};
  if (soft) {
    inputs.push_back(AddConstant(g, TensorType::kFloat32, {}));
    n.scores = AddTensor(g, TensorType::kFloat32, {5});
    outputs.push_back(n.scores);
  }
  n.count = AddTensor(g, TensorType::kInt32, {});
  outputs.push_back(n.count);
  AddNode(g, soft ? "NON_MAX_SUPPRESSION_V5" : "NON_MAX_SUPPRESSION_V4", inputs, outputs);
  g.inputs = {boxes, scores, threshold};
  if (!constant_max_output_size) g.inputs.push_back(n.max_output_size);
  g.outputs = outputs;
  return n;
}

TEST(SelectionShapeRulesTest, ConstantMaxOutputSizeSizesEveryNmsOutput) {
  for (bool soft : {false, true}) {
    NmsGraph n = Nms(soft, true);
    auto inferred = InferOutputShapesOrDynamic(n.graph, n.graph.nodes[0]);
    ASSERT_TRUE(inferred.ok()) << inferred.status().message();
    EXPECT_FALSE(inferred->dynamic);
    const std::vector<Shape> expected =
        soft ? std::vector<Shape>{{5}, {5}, {}} : std::vector<Shape>{{5}, {}};
    EXPECT_EQ(inferred->shapes, expected);
  }
}

// SetTensorToDynamic on the indices (and scores) only: the count is still resized to a scalar.
TEST(SelectionShapeRulesTest, MaxOutputSizeKnownAtEvalOnlyLeavesTheSelectionsToEval) {
  for (bool soft : {false, true}) {
    NmsGraph n = Nms(soft, false);
    auto inferred = InferOutputShapesOrDynamic(n.graph, n.graph.nodes[0]);
    ASSERT_TRUE(inferred.ok()) << inferred.status().message();
    EXPECT_TRUE(inferred->dynamic);
    EXPECT_TRUE(inferred->IsDynamicOutput(0));
    EXPECT_EQ(inferred->IsDynamicOutput(1), soft);
    const size_t count = soft ? 2 : 1;
    EXPECT_FALSE(inferred->IsDynamicOutput(count));
    EXPECT_EQ(inferred->shapes[count], Shape{});
    // At Eval the value is known: [3].
    auto at_eval = InferOutputShapes(n.graph, n.graph.nodes[0], [](int32_t) {
      return std::optional<std::vector<int64_t>>(std::vector<int64_t>{3});
    });
    ASSERT_TRUE(at_eval.ok()) << at_eval.status().message();
    EXPECT_EQ(at_eval->at(0), Shape{3});
  }
}

TEST(SelectionShapeRulesTest, MalformedNmsIsRefusedAsUpstreamsPrepareDoes) {
  NmsGraph n = Nms(false, true);
  n.graph.tensors[static_cast<size_t>(n.max_output_size)].int_values = std::vector<int64_t>{-1};
  EXPECT_EQ(InferOutputShapes(n.graph, n.graph.nodes[0]).status().message(),
            "NON_MAX_SUPPRESSION_V4: max_output_size -1 is negative");
  NmsGraph wrong_boxes = Nms(false, true);
  wrong_boxes.graph.tensors[0].shape = {6, 3};
  EXPECT_EQ(InferOutputShapes(wrong_boxes.graph, wrong_boxes.graph.nodes[0]).status().message(),
            "NON_MAX_SUPPRESSION_V4: boxes [6,3] are not [num_boxes, 4]");
  NmsGraph four_outputs = Nms(false, true);
  four_outputs.graph.nodes[0].outputs.push_back(four_outputs.count);
  EXPECT_FALSE(InferOutputShapes(four_outputs.graph, four_outputs.graph.nodes[0]).ok());
}

// The Prepare replay marks only the outputs upstream's Prepare makes dynamic; the planner leaves
// them out of the arena (ArenaPlanner skips kTfLiteDynamic tensors) and places the count.
TEST(SelectionShapeRulesTest, OnlyTheDynamicNmsOutputsLeaveTheArena) {
  NmsGraph n = Nms(true, false);
  auto prepared = ReplayKernelPrepare(n.graph);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& g = prepared->subgraph;
  EXPECT_EQ(g.tensors[static_cast<size_t>(n.indices)].allocation, AllocationType::kDynamic);
  EXPECT_EQ(g.tensors[static_cast<size_t>(n.scores)].allocation, AllocationType::kDynamic);
  EXPECT_EQ(g.tensors[static_cast<size_t>(n.count)].allocation, AllocationType::kArenaRw);
  auto plan = PlanArena(g);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->tensors[static_cast<size_t>(n.indices)].arena, ArenaKind::kNone);
  EXPECT_EQ(plan->tensors[static_cast<size_t>(n.scores)].arena, ArenaKind::kNone);
  EXPECT_EQ(plan->tensors[static_cast<size_t>(n.count)].arena, ArenaKind::kRw);

  NmsGraph constant = Nms(true, true);
  auto sized = ReplayKernelPrepare(constant.graph);
  ASSERT_TRUE(sized.ok()) << sized.status().message();
  EXPECT_EQ(sized->subgraph.tensors[static_cast<size_t>(constant.indices)].allocation,
            AllocationType::kArenaRw);
}

struct UniqueGraph {
  Subgraph graph;
  int32_t input = -1, values = -1, index = -1;
};

UniqueGraph Unique(std::vector<int32_t> input_shape) {
  UniqueGraph u;
  Subgraph& g = u.graph;
  g.name = "main";
  u.input = AddConstant(g, TensorType::kFloat32, input_shape);
  u.values = AddTensor(g, TensorType::kFloat32, {1});
  u.index = AddTensor(g, TensorType::kInt32, {1});
  AddNode(g, "UNIQUE", {u.input}, {u.values, u.index});
  g.outputs = {u.values, u.index};
  return u;
}

// unique.cc: the unique values are dynamic even for a constant input; the index output takes the
// input's shape at Prepare and stays in the arena.
TEST(SelectionShapeRulesTest, UniqueValuesAreAlwaysDynamicAndItsIndexIsShapedLikeItsInput) {
  UniqueGraph u = Unique({7});
  auto prepared = ReplayKernelPrepare(u.graph);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& g = prepared->subgraph;
  EXPECT_EQ(g.tensors[static_cast<size_t>(u.values)].allocation, AllocationType::kDynamic);
  EXPECT_EQ(g.tensors[static_cast<size_t>(u.index)].allocation, AllocationType::kArenaRw);
  EXPECT_EQ(g.tensors[static_cast<size_t>(u.index)].shape, (std::vector<int32_t>{7}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(u.index)].bytes, 7u * 4);
  auto plan = PlanArena(g);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->tensors[static_cast<size_t>(u.values)].arena, ArenaKind::kNone);
  EXPECT_EQ(plan->tensors[static_cast<size_t>(u.index)].arena, ArenaKind::kRw);

  // Propagating a new input shape resizes the index and leaves the values to Eval.
  u.graph.tensors[static_cast<size_t>(u.input)].shape = {9};
  auto dynamic = PropagateShapesAllowingDynamic(u.graph);
  ASSERT_TRUE(dynamic.ok()) << dynamic.status().message();
  EXPECT_EQ(*dynamic, std::vector<int32_t>{0});
  EXPECT_EQ(u.graph.tensors[static_cast<size_t>(u.index)].shape, (std::vector<int32_t>{9}));
}

TEST(SelectionShapeRulesTest, UniqueTakesOnlyA1DInput) {
  UniqueGraph u = Unique({2, 3});
  EXPECT_EQ(InferOutputShapesOrDynamic(u.graph, u.graph.nodes[0]).status().message(),
            "UNIQUE: input [2,3] is not 1-D");
}

}  // namespace
}  // namespace tfa
