#include "libanalysis/prepare/fake_quant_prepare.h"

#include <gtest/gtest.h>

#include <vector>

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "libanalysis/prepare/shape_inference.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

Subgraph FakeQuant(bool narrow_range) {
  Subgraph g;
  const int32_t in = testing::AddTensor(g, TensorType::kFloat32, {3, 1, 2});
  const int32_t out = testing::AddTensor(g, TensorType::kFloat32, {1});
  Node& node = testing::AddNode(g, "FAKE_QUANT", {in}, {out});
  node.options.Mutable().custom_options = EncodeFakeQuantParameters({0.0f, 1.0f, 8, narrow_range});
  return g;
}

TEST(FakeQuantPrepareTest, OutputHasTheInputShapeAndNoTemporaries) {
  const Subgraph g = FakeQuant(false);
  auto shapes = InferOutputShapes(g, g.nodes[0]);
  ASSERT_TRUE(shapes.ok()) << shapes.status().message();
  EXPECT_EQ(*shapes, (std::vector<Shape>{{3, 1, 2}}));
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  EXPECT_TRUE(effect->modelled);
  EXPECT_TRUE(effect->added.empty());
  EXPECT_TRUE(effect->reallocated.empty());
}

// fake_quant.cc Prepare: "narrow_range FakeQuant is not currently supported at runtime".
TEST(FakeQuantPrepareTest, NarrowRangeFailsPrepareAsUpstreams) {
  const Subgraph g = FakeQuant(true);
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_FALSE(effect.ok());
  EXPECT_NE(effect.status().message().find("narrow_range FakeQuant is not supported at runtime"),
            std::string::npos)
      << effect.status().message();
}

}  // namespace
}  // namespace tfa
