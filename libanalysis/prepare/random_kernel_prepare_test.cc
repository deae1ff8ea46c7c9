#include "libanalysis/prepare/random_kernel_prepare.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "libanalysis/prepare/shape_inference.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

// random_ops.cc Prepare: the output takes the shape input's values, dynamic when they are not
// a constant.
TEST(RandomKernelPrepareTest, RandomOutputTakesTheShapeValues) {
  Subgraph g;
  const int32_t shape = AddConstant(g, TensorType::kInt32, {3});
  g.tensors[static_cast<size_t>(shape)].int_values = {100, 50, 5};
  const int32_t computed = AddTensor(g, TensorType::kInt32, {3});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1});
  AddNode(g, "RANDOM_UNIFORM", {shape}, {out});
  AddNode(g, "RANDOM_STANDARD_NORMAL", {computed}, {out});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{100, 50, 5}));
  auto later = InferOutputShapesOrDynamic(g, g.nodes[1]);
  ASSERT_TRUE(later.ok());
  EXPECT_TRUE(later->dynamic);
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  EXPECT_TRUE(effect->added.empty());
}

TEST(RandomKernelPrepareTest, RandomShapeMustBeOneDimensionalInt32) {
  Subgraph g;
  const int32_t shape = AddTensor(g, TensorType::kInt64, {3});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1});
  AddNode(g, "RANDOM_UNIFORM", {shape}, {out});
  EXPECT_EQ(PrepareBuiltinKernel(g, g.nodes[0]).status().message(),
            "RANDOM_UNIFORM: the shape input is not a 1-D int32 tensor");
}

// PrepareMultinomial: [batch, num_samples], dynamic unless logits and num_samples are both
// constant or persistent.
TEST(RandomKernelPrepareTest, MultinomialIsDynamicUnlessBothInputsAreConstant) {
  Subgraph g;
  const int32_t constant_logits = AddConstant(g, TensorType::kFloat32, {3, 4});
  const int32_t logits = AddTensor(g, TensorType::kFloat32, {3, 4});
  const int32_t samples = AddConstant(g, TensorType::kInt32, {});
  g.tensors[static_cast<size_t>(samples)].int_values = {10};
  const int32_t out = AddTensor(g, TensorType::kInt64, {1});
  AddNode(g, "MULTINOMIAL", {constant_logits, samples}, {out});
  AddNode(g, "MULTINOMIAL", {logits, samples}, {out});
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(shapes->at(0), (Shape{3, 10}));
  auto constant = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(constant.ok()) << constant.status().message();
  EXPECT_TRUE(constant->reallocated.empty());
  auto computed = PrepareBuiltinKernel(g, g.nodes[1]);
  ASSERT_TRUE(computed.ok()) << computed.status().message();
  EXPECT_EQ(computed->reallocated,
            (std::vector<std::pair<int32_t, AllocationType>>{{out, AllocationType::kDynamic}}));
}

}  // namespace
}  // namespace tfa
