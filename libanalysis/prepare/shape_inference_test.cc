#include "libanalysis/prepare/shape_inference.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

// The while_dynamic body: the loop state grows by concatenation, and the shapes flow on.
TEST(ShapeInferenceTest, PropagatesAGrowingConcatenationThroughBroadcasts) {
  Subgraph g;
  const int32_t acc = AddTensor(g, TensorType::kFloat32, {4, 256});
  const int32_t row = AddConstant(g, TensorType::kFloat32, {1, 256});
  const int32_t cat = AddTensor(g, TensorType::kFloat32, {5, 256});
  const int32_t half = AddConstant(g, TensorType::kFloat32, {});
  const int32_t scaled = AddTensor(g, TensorType::kFloat32, {5, 256});
  AddNode(g, "CONCATENATION", {acc, row}, {cat}).options.axis = -2;
  AddNode(g, "MUL", {cat, half}, {scaled});
  g.tensors[static_cast<size_t>(acc)].shape = {9, 256};
  ASSERT_TRUE(PropagateShapes(g).ok());
  EXPECT_EQ(g.tensors[static_cast<size_t>(cat)].shape, (Shape{10, 256}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(scaled)].shape, (Shape{10, 256}));
  EXPECT_EQ(g.tensors[static_cast<size_t>(scaled)].bytes, 10u * 256u * 4u);
}

TEST(ShapeInferenceTest, BroadcastAlignsTheLastDimensions) {
  Subgraph g;
  const int32_t a = AddTensor(g, TensorType::kFloat32, {2, 1, 3});
  const int32_t b = AddTensor(g, TensorType::kFloat32, {4, 1});
  const int32_t c = AddTensor(g, TensorType::kBool, {});
  AddNode(g, "LESS", {a, b}, {c});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{2, 4, 3}));
}

TEST(ShapeInferenceTest, IncompatibleShapesAndUnknownOpsAreErrorsNamingTheNode) {
  Subgraph g;
  const int32_t a = AddTensor(g, TensorType::kFloat32, {2, 3});
  const int32_t b = AddTensor(g, TensorType::kFloat32, {4});
  const int32_t c = AddTensor(g, TensorType::kFloat32, {2, 3});
  AddNode(g, "ADD", {a, b}, {c});
  AddNode(g, "MY_CUSTOM_THING", {a}, {c});
  const Status broadcast = PropagateShapes(g);
  EXPECT_EQ(broadcast.message(), "node 0: ADD: shapes [2,3] and [4] do not broadcast");
  EXPECT_EQ(InferOutputShapes(g, g.nodes[1]).status().message(), "MY_CUSTOM_THING: no shape rule");
}

}  // namespace
}  // namespace tfa
