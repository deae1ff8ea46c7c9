#include "libanalysis/report/node_macs.h"

#include <gtest/gtest.h>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

constexpr TensorType kF32 = TensorType::kFloat32;

TEST(NodeMacs, ConvolutionsCountEveryWeightAppliedToEveryOutput) {
  Subgraph g;
  const int32_t in = AddTensor(g, kF32, {1, 16, 16, 8});
  const int32_t conv_out = AddTensor(g, kF32, {1, 8, 8, 32});
  const Node& conv =
      AddNode(g, "CONV_2D", {in, AddConstant(g, kF32, {32, 3, 3, 8}), -1}, {conv_out});
  EXPECT_EQ(NodeMacs(g, conv), uint64_t{8 * 8 * 32} * (3 * 3 * 8));
  const int32_t dw_out = AddTensor(g, kF32, {1, 16, 16, 8});
  const Node& dw =
      AddNode(g, "DEPTHWISE_CONV_2D", {in, AddConstant(g, kF32, {1, 5, 5, 8}), -1}, {dw_out});
  EXPECT_EQ(NodeMacs(g, dw), uint64_t{16 * 16 * 8} * (5 * 5));
  const int32_t up_out = AddTensor(g, kF32, {1, 32, 32, 4});
  const Node& transpose = AddNode(
      g, "TRANSPOSE_CONV",
      {AddConstant(g, TensorType::kInt32, {4}), AddConstant(g, kF32, {4, 2, 2, 8}), in}, {up_out});
  EXPECT_EQ(NodeMacs(g, transpose), uint64_t{16 * 16 * 8} * (4 * 2 * 2));
}

TEST(NodeMacs, MatrixProductsSumTheInnerDimension) {
  Subgraph g;
  const int32_t x = AddTensor(g, kF32, {2, 64});
  const int32_t fc_out = AddTensor(g, kF32, {2, 10});
  const Node& fc = AddNode(g, "FULLY_CONNECTED", {x, AddConstant(g, kF32, {10, 64})}, {fc_out});
  EXPECT_EQ(NodeMacs(g, fc), uint64_t{2 * 10 * 64});
  const int32_t lhs = AddTensor(g, kF32, {3, 5, 7});
  const int32_t rhs = AddTensor(g, kF32, {3, 7, 4});
  const int32_t out = AddTensor(g, kF32, {3, 5, 4});
  Node& bmm = AddNode(g, "BATCH_MATMUL", {lhs, rhs}, {out});
  EXPECT_EQ(NodeMacs(g, bmm), uint64_t{3 * 5 * 4 * 7});
  bmm.options.Mutable().adj_x = true;  // lhs read as [3, 7, 5]: the inner dimension is 5
  EXPECT_EQ(NodeMacs(g, bmm), uint64_t{3 * 5 * 4 * 5});
}

TEST(NodeMacs, NothingForOtherOpsUnknownShapesOrOverflow) {
  Subgraph g;
  const int32_t x = AddTensor(g, kF32, {1, 4});
  const Node& add = AddNode(g, "ADD", {x, x}, {AddTensor(g, kF32, {1, 4})});
  EXPECT_EQ(NodeMacs(g, add), std::nullopt);
  const int32_t dynamic = AddConstant(g, kF32, {1, 4});
  g.tensors[static_cast<size_t>(dynamic)].shape = Dims{-1, 4};
  const Node& unknown = AddNode(g, "FULLY_CONNECTED", {x, dynamic}, {AddTensor(g, kF32, {1, 3})});
  EXPECT_EQ(NodeMacs(g, unknown), std::nullopt);
  const int32_t huge = AddTensor(g, kF32, {1, 1});
  g.tensors[static_cast<size_t>(huge)].shape = Dims{65536, 65536, 65536, 65536};
  const int32_t weights = AddConstant(g, kF32, {1, 1});
  g.tensors[static_cast<size_t>(weights)].shape = Dims{65536, 65536};
  const Node& overflow = AddNode(g, "FULLY_CONNECTED", {x, weights}, {huge});
  EXPECT_EQ(NodeMacs(g, overflow), std::nullopt);
}

}  // namespace
}  // namespace tfa
