#include "libanalysis/model/graph.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

// A million-node graph holds a million of each (issue 18: at most 500 bytes a node through the
// whole report). These sizes hold on the 64-bit targets CI builds; a field added to either
// struct should be weighed against them.
TEST(GraphIrTest, NodesAndTensorsStayCompact) {
  static_assert(sizeof(void*) != 8 || sizeof(Node) <= 136);
  static_assert(sizeof(void*) != 8 || sizeof(Tensor) <= 112);
  Node node;
  node.inputs = {0, 1, 2};
  node.outputs = {3};
  Tensor tensor;
  tensor.shape = {1, 224, 224, 3};
  // Typical lists and shapes live inside the structs: no allocation of their own.
  EXPECT_EQ(node.inputs.capacity(), 3u);
  EXPECT_EQ(tensor.shape.capacity(), 5u);
}

TEST(NodeOptionsTest, ReadsTheDefaultsWhenNothingWasSet) {
  const Node node;
  EXPECT_EQ(*node.options, OpOptions{});
  EXPECT_EQ(node.options->stride_w, 1);
  EXPECT_EQ(node.options->then_subgraph, -1);
}

TEST(NodeOptionsTest, KeepsWhatItIsGiven) {
  OpOptions given;
  given.padding = Padding::kSame;
  given.new_shape = {1, 8};
  Node node;
  node.options = given;
  EXPECT_EQ(*node.options, given);
  node.options.Mutable().axis = 3;
  EXPECT_EQ(node.options->axis, 3);
  EXPECT_EQ(node.options->padding, Padding::kSame);
}

// A copy of a graph shares each node's options until one side changes them; the change never
// shows through the other copy.
TEST(NodeOptionsTest, ACopySharesUntilOneSideChanges) {
  Node original;
  original.options.Mutable().stride_h = 2;
  const Node copy = original;
  EXPECT_EQ(&*copy.options, &*original.options);
  original.options.Mutable().stride_h = 4;
  EXPECT_NE(&*copy.options, &*original.options);
  EXPECT_EQ(copy.options->stride_h, 2);
  EXPECT_EQ(original.options->stride_h, 4);
}

TEST(NodeOptionsTest, ChangingUnsharedOptionsKeepsThemInPlace) {
  Node node;
  OpOptions& first = node.options.Mutable();
  first.dilation_w = 2;
  EXPECT_EQ(&node.options.Mutable(), &first);
  EXPECT_EQ(node.options->dilation_w, 2);
}

// Nodes with the defaults hold no options of their own, so a copy of them costs nothing.
TEST(NodeOptionsTest, DefaultOptionsAreSharedByEveryNode) {
  Node a;
  Node b;
  b.options = OpOptions{};
  EXPECT_EQ(&*a.options, &*b.options);
}

// A tensor's rarely set fields (quantization, shape signature, constant values) hold nothing when
// empty and are shared by the tensor's copies, as node options are.
TEST(TensorTest, QuantizationIsSharedByCopiesUntilOneSideChanges) {
  Tensor tensor;
  EXPECT_TRUE(tensor.quantization->empty());
  tensor.quantization.Mutable().scale = {0.5f};
  const Tensor copy = tensor;
  EXPECT_EQ(&*copy.quantization, &*tensor.quantization);
  tensor.quantization.Mutable().zero_point = {3};
  EXPECT_TRUE(copy.quantization->zero_point.empty());
  EXPECT_EQ(tensor.quantization->scale, std::vector<float>{0.5f});
}

}  // namespace
}  // namespace tfa
