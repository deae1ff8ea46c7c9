#include "libanalysis/prepare/folded_values.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;
using Values = std::vector<int64_t>;

int32_t IntConstant(Subgraph& g, Values values) {
  const int32_t t = AddConstant(g, TensorType::kInt32, {static_cast<int32_t>(values.size())});
  g.tensors[static_cast<size_t>(t)].int_values = std::move(values);
  return t;
}

TEST(FoldedValues, ShapeRankAndSizeReadTheInputsShape) {
  Subgraph g;
  const int32_t x = AddTensor(g, TensorType::kFloat32, {1, 8, 6, 3});
  const int32_t out = AddTensor(g, TensorType::kInt32, {4});
  for (const char* op : {"SHAPE", "RANK", "SIZE"}) AddNode(g, op, {x}, {out});
  EXPECT_EQ(FoldedOutputValues(g, g.nodes[0], {}), (Values{1, 8, 6, 3}));
  EXPECT_EQ(FoldedOutputValues(g, g.nodes[1], {}), (Values{4}));
  EXPECT_EQ(FoldedOutputValues(g, g.nodes[2], {}), (Values{144}));
}

// shape[1:3], shape[-1] (shrink), shape[::-2] and an offset slice of the folded values of a SHAPE.
TEST(FoldedValues, StridedSliceOfAShape) {
  Subgraph g;
  const int32_t shape = AddTensor(g, TensorType::kInt32, {4});
  const int32_t out = AddTensor(g, TensorType::kInt32, {2});
  const IntValuesOf values = [shape](int32_t t) -> std::optional<Values> {
    if (t == shape) return Values{1, 8, 6, 3};
    return std::nullopt;
  };
  const auto slice = [&](Values begin, Values end, Values strides) -> Node& {
    return AddNode(g, "STRIDED_SLICE",
                   {shape, IntConstant(g, begin), IntConstant(g, end), IntConstant(g, strides)},
                   {out});
  };
  EXPECT_EQ(FoldedOutputValues(g, slice({1}, {3}, {1}), values), (Values{8, 6}));
  Node& last = slice({-1}, {0}, {1});
  last.options.Mutable().shrink_axis_mask = 1;
  EXPECT_EQ(FoldedOutputValues(g, last, values), (Values{3}));
  Node& reversed = slice({0}, {0}, {-2});
  reversed.options.Mutable().begin_mask = reversed.options.Mutable().end_mask = 1;
  EXPECT_EQ(FoldedOutputValues(g, reversed, values), (Values{3, 8}));
  Node& offset = slice({1}, {2}, {1});
  offset.options.Mutable().offset = true;
  EXPECT_EQ(FoldedOutputValues(g, offset, values), (Values{8, 6}));
  // The input's values unknown: nothing to say.
  EXPECT_EQ(FoldedOutputValues(g, g.nodes[0], {}), std::nullopt);
}

TEST(FoldedValues, ArithmeticGatherConcatenationRangeAndProduct) {
  Subgraph g;
  const int32_t hw = IntConstant(g, {8, 6});
  const int32_t two = IntConstant(g, {2});
  const int32_t out = AddTensor(g, TensorType::kInt32, {2});
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "MUL", {hw, two}, {out}), {}), (Values{16, 12}));
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "GATHER", {hw, IntConstant(g, {1, 0, 1})}, {out}), {}),
            (Values{6, 8, 6}));
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "CONCATENATION", {two, hw}, {out}), {}),
            (Values{2, 8, 6}));
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "RANGE", {IntConstant(g, {0}), hw, two}, {out}), {}),
            std::nullopt)
      << "a two-element limit is no scalar";
  EXPECT_EQ(FoldedOutputValues(
                g, AddNode(g, "RANGE", {IntConstant(g, {1}), IntConstant(g, {7}), two}, {out}), {}),
            (Values{1, 3, 5}));
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "REDUCE_PROD", {hw, IntConstant(g, {0})}, {out}), {}),
            (Values{48}));
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "GATHER", {hw, IntConstant(g, {2})}, {out}), {}),
            std::nullopt)
      << "an index out of range";
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "ADD", {hw, two}, {out}), {}), std::nullopt)
      << "ADD does not fold in Prepare";
}

// A malformed model's constants may overflow int64: the fold then says nothing, never wraps.
TEST(FoldedValues, OverflowingValuesFoldToNothing) {
  Subgraph g;
  const int32_t big = IntConstant(g, {INT64_MAX / 2});
  const int32_t three = IntConstant(g, {3});
  const int32_t out = AddTensor(g, TensorType::kInt64, {1});
  EXPECT_EQ(FoldedOutputValues(g, AddNode(g, "MUL", {big, three}, {out}), {}), std::nullopt);
  const int32_t pair = IntConstant(g, {INT64_MAX / 2, 3});
  EXPECT_EQ(
      FoldedOutputValues(g, AddNode(g, "REDUCE_PROD", {pair, IntConstant(g, {0})}, {out}), {}),
      std::nullopt);
  EXPECT_EQ(FoldedOutputValues(g,
                               AddNode(g, "RANGE",
                                       {IntConstant(g, {INT64_MAX - 1}),
                                        IntConstant(g, {INT64_MAX}), IntConstant(g, {INT64_MAX})},
                                       {out}),
                               {}),
            (Values{INT64_MAX - 1}));
}

}  // namespace
}  // namespace tfa
