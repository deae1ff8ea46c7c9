// Builtin kernels' Prepare effects one node at a time (PrepareBuiltinKernel), on hand-written
// nodes built from the conditions of upstream's kernels (tflite/kernels/*.cc); sizes follow
// docs/kernel-temporaries.md.
#include "libanalysis/prepare/builtin_kernel_prepare.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/prepare/kernel_prepare.h"
#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

std::vector<uint64_t> AddedBytes(const KernelPrepareEffect& effect) {
  std::vector<uint64_t> bytes;
  for (const AddedTensor& t : effect.added) bytes.push_back(t.bytes);
  return bytes;
}

// FULLY_CONNECTED with float input [3, depth] and constant `weights` [10, depth].
Subgraph FullyConnected(TensorType weights, int32_t depth, bool sparse = false) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {3, depth});
  const int32_t w = AddConstant(g, weights, {10, depth});
  g.tensors[static_cast<size_t>(w)].is_sparse = sparse;
  const int32_t out = AddTensor(g, TensorType::kFloat32, {3, 10});
  AddNode(g, "FULLY_CONNECTED", {in, w}, {out});
  return g;
}

TEST(BuiltinKernelPrepareTest, Int4FullyConnectedTakesThePacked4BitKernel) {
  const Subgraph g = FullyConnected(TensorType::kInt4, 40);
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  EXPECT_TRUE(effect->modelled);
  EXPECT_EQ(effect->temporaries, (std::vector<int32_t>{0, 1, 2, 3, 4}));
  // int8 input [3, 64] (depth rounded up to 32), scaling factors [3], accumulators [3, 12]
  // (units rounded up to 4), offsets [3], an unsized fifth temporary, one spare.
  EXPECT_EQ(AddedBytes(*effect), (std::vector<uint64_t>{192, 12, 144, 12, 0, 0}));
}

TEST(BuiltinKernelPrepareTest, ShallowInt4FullyConnectedUsesTheGenericHybridKernel) {
  const Subgraph g = FullyConnected(TensorType::kInt4, 16);
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_EQ(effect->temporaries, (std::vector<int32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(AddedBytes(*effect), (std::vector<uint64_t>{48, 12, 120, 12, 40, 0}));
  EXPECT_EQ(effect->added[4].allocation, AllocationType::kArenaRwPersistent);
}

TEST(BuiltinKernelPrepareTest, SparseHybridFullyConnectedSizesItsLedger) {
  Subgraph g = FullyConnected(TensorType::kInt8, 16, /*sparse=*/true);
  g.tensors[1].sparse_ledger_bytes = 26;
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_TRUE(effect->modelled);
  EXPECT_EQ(effect->temporaries, (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
  // As the dense hybrid kernel, then the uint8 ledger, persistent: fully_connected.cc sizes it
  // as dim_metadata[1]'s indices + segments - 1, which the loader gives as 26.
  EXPECT_EQ(AddedBytes(*effect), (std::vector<uint64_t>{48, 12, 120, 12, 40, 26}));
  EXPECT_EQ(effect->added[5].allocation, AllocationType::kArenaRwPersistent);
}

TEST(BuiltinKernelPrepareTest, SparseHybridFullyConnectedWithoutSparsityMetadataIsNotModelled) {
  const Subgraph g = FullyConnected(TensorType::kInt8, 16, /*sparse=*/true);
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_FALSE(effect->modelled);
  EXPECT_EQ(effect->temporaries, (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(BuiltinKernelPrepareTest, HybridBatchMatMulWithAdjointLhs) {
  Subgraph g;
  const int32_t lhs = AddTensor(g, TensorType::kFloat32, {2, 6, 4});
  const int32_t rhs = AddConstant(g, TensorType::kInt8, {2, 6, 5});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {2, 4, 5});
  AddNode(g, "BATCH_MATMUL", {lhs, rhs}, {out}).options.Mutable().adj_x = true;
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  EXPECT_EQ(effect->temporaries, (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6}));
  // LHS^T [2,4,6] f32, RHS^T [2,5,6] int8, int8 LHS, scaling factors [8], accumulators [5,4],
  // offsets [8], row sums [10].
  EXPECT_EQ(AddedBytes(*effect), (std::vector<uint64_t>{192, 60, 48, 32, 80, 32, 40}));
  EXPECT_EQ(effect->added[1].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_EQ(effect->added[6].allocation, AllocationType::kArenaRwPersistent);
}

TEST(BuiltinKernelPrepareTest, FloatBatchMatMulTransposesBothOperandsAndKeepsFiveSpares) {
  Subgraph g;
  const int32_t lhs = AddTensor(g, TensorType::kFloat32, {1, 4, 16, 8});
  const int32_t rhs = AddTensor(g, TensorType::kFloat32, {1, 4, 16, 8});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 4, 16, 16});
  AddNode(g, "BATCH_MATMUL", {lhs, rhs}, {out}).options.Mutable().adj_y = true;
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_EQ(effect->temporaries, (std::vector<int32_t>{0, 1}));
  ASSERT_EQ(effect->added.size(), 7u);
  EXPECT_EQ(effect->added[1].shape, (std::vector<int32_t>{1, 4, 8, 16}));
  EXPECT_EQ(effect->added[1].allocation, AllocationType::kArenaRw);
}

TEST(BuiltinKernelPrepareTest, HybridTransposeConvQuantizesItsInputInTheArena) {
  Subgraph g;
  const int32_t shape = AddConstant(g, TensorType::kInt32, {4});
  const int32_t w = AddConstant(g, TensorType::kInt8, {6, 3, 3, 8});
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 4, 4, 8});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 8, 8, 6});
  AddNode(g, "TRANSPOSE_CONV", {shape, w, in}, {out});
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  EXPECT_EQ(effect->temporaries, (std::vector<int32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(effect->added[0].allocation, AllocationType::kDynamic);  // col2im [16, 54]
  EXPECT_EQ(effect->added[0].shape, (std::vector<int32_t>{16, 54}));
  EXPECT_EQ(effect->added[1].shape, (std::vector<int32_t>{3, 3, 6, 8}));  // HWOI weights
  EXPECT_EQ(AddedBytes(*effect), (std::vector<uint64_t>{0, 0, 128, 64, 64}));
}

TEST(BuiltinKernelPrepareTest, TransposeConvWithAnUnknownOutputShapeHasADynamicOutput) {
  Subgraph g;
  const int32_t shape = AddTensor(g, TensorType::kInt32, {4});
  const int32_t w = AddConstant(g, TensorType::kFloat32, {6, 3, 3, 8});
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 4, 4, 8});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 8, 8, 6});
  AddNode(g, "TRANSPOSE_CONV", {shape, w, in}, {out});
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_EQ(effect->reallocated,
            (std::vector<std::pair<int32_t, AllocationType>>{{out, AllocationType::kDynamic}}));
}

TEST(BuiltinKernelPrepareTest, DilatedConv3DTransposeTakesTheReferenceKernel) {
  Subgraph g;
  const int32_t shape = AddConstant(g, TensorType::kInt32, {5});
  const int32_t w = AddConstant(g, TensorType::kFloat32, {3, 3, 3, 4, 8});
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 4, 8, 8, 8});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 8, 16, 16, 4});
  Node& node = AddNode(g, "CONV_3D_TRANSPOSE", {shape, w, in}, {out});
  auto undilated = PrepareBuiltinKernel(g, node);
  ASSERT_TRUE(undilated.ok());
  ASSERT_EQ(undilated->added.size(), 1u);
  EXPECT_EQ(undilated->added[0].shape, (std::vector<int32_t>{256, 108}));
  node.options.Mutable().dilation_d = 2;
  auto dilated = PrepareBuiltinKernel(g, node);
  ASSERT_TRUE(dilated.ok());
  EXPECT_TRUE(dilated->added.empty());
}

TEST(BuiltinKernelPrepareTest, Rfft2DWorkingAreasFollowTheFftLength) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 4, 8});
  const int32_t length = AddConstant(g, TensorType::kInt32, {2});
  const int32_t out = AddTensor(g, TensorType::kComplex64, {1, 4, 5});  // fft_length [4, 8]
  AddNode(g, "RFFT2D", {in, length}, {out});
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  // 2 + sqrt(max(4, 8/2)) int32; max(4, 4)/2 + 8/4 doubles; 4 row pointers; [4, 10] doubles.
  EXPECT_EQ(AddedBytes(*effect), (std::vector<uint64_t>{16, 32, 32, 320}));
}

TEST(BuiltinKernelPrepareTest, ReduceProdOfConstantsIsFoldedInPrepare) {
  Subgraph g;
  const int32_t in = AddConstant(g, TensorType::kInt32, {3, 4});
  const int32_t axis = AddConstant(g, TensorType::kInt32, {1});
  const int32_t out = AddTensor(g, TensorType::kInt32, {3});
  AddNode(g, "REDUCE_PROD", {in, axis}, {out});
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_TRUE(effect->modelled);
  EXPECT_EQ(
      effect->reallocated,
      (std::vector<std::pair<int32_t, AllocationType>>{{out, AllocationType::kPersistentRo}}));
  ASSERT_EQ(effect->added.size(), 4u);
  EXPECT_EQ(effect->added[0].allocation, AllocationType::kArenaRw);
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(effect->added[i].allocation, AllocationType::kDynamic);
}

TEST(BuiltinKernelPrepareTest, ReduceWithAnUnknownAxisHasADynamicOutput) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {3, 4});
  const int32_t axis = AddTensor(g, TensorType::kInt32, {1});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {3});
  AddNode(g, "SUM", {in, axis}, {out});
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_EQ(effect->reallocated,
            (std::vector<std::pair<int32_t, AllocationType>>{{out, AllocationType::kDynamic}}));
}

TEST(BuiltinKernelPrepareTest, EmbeddingLookupSparseOutputIsAlwaysDynamic) {
  Subgraph g;
  std::vector<int32_t> inputs;
  for (std::vector<int32_t> shape : {std::vector<int32_t>{3}, {3, 2}, {2}, {3}}) {
    inputs.push_back(AddTensor(
        g, shape.size() == 1 && inputs.size() == 3 ? TensorType::kFloat32 : TensorType::kInt32,
        shape));
  }
  inputs.push_back(AddConstant(g, TensorType::kFloat32, {10, 4}));
  const int32_t out = AddTensor(g, TensorType::kFloat32, {2, 4});
  AddNode(g, "EMBEDDING_LOOKUP_SPARSE", inputs, {out});
  auto effect = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(effect.ok());
  EXPECT_EQ(effect->reallocated,
            (std::vector<std::pair<int32_t, AllocationType>>{{out, AllocationType::kDynamic}}));
}

// fully_connected_4bit.h GetMaxSupportedRows: with SSSE3 or 64-bit NEON the packed kernel takes
// blocks of up to 4 rows; a batch of 3 packs in blocks of 2, so 4 rows are sized.
TEST(BuiltinKernelPrepareTest, Packed4BitRowsFollowTheBuild) {
  const Subgraph g = FullyConnected(TensorType::kInt4, 40);
  auto build = KernelBuildFor("android-arm64", 1);
  ASSERT_TRUE(build.ok());
  auto effect = PrepareBuiltinKernel(g, g.nodes[0], *build);
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  EXPECT_EQ(AddedBytes(*effect), (std::vector<uint64_t>{256, 16, 192, 16, 0, 0}));
}

// A 3x3 convolution of [1, 512, 512, 128] into 128 channels: its float im2col [1, 512, 512, 1152]
// is 1.2 GB.
Subgraph LargeConv() {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 512, 512, 128});
  const int32_t w = AddConstant(g, TensorType::kFloat32, {128, 3, 3, 128});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 512, 512, 128});
  Node& conv = AddNode(g, "CONV_2D", {in, w}, {out});
  conv.options.Mutable().padding = Padding::kSame;
  return g;
}

// conv.cc: a mobile build (IsMobilePlatform) adds no im2col of 1 GiB or more.
TEST(BuiltinKernelPrepareTest, MobileBuildsDropAnIm2colOfAGibibyteOrMore) {
  const Subgraph g = LargeConv();
  auto desktop = PrepareBuiltinKernel(g, g.nodes[0]);
  ASSERT_TRUE(desktop.ok());
  EXPECT_EQ(AddedBytes(*desktop), (std::vector<uint64_t>{uint64_t{512} * 512 * 1152 * 4}));
  auto android = PrepareBuiltinKernel(g, g.nodes[0], *KernelBuildFor("android-arm64", 1));
  ASSERT_TRUE(android.ok());
  EXPECT_TRUE(android->added.empty());
}

// conv.cc kMultithreadOptimized (builds without ruy) with the thread count left unset: constant
// float weights transposed to [f_h * f_w * in_ch, out_ch] in the persistent arena, no im2col.
TEST(BuiltinKernelPrepareTest, MultithreadedEigenConvKeepsTransposedWeightsInsteadOfIm2col) {
  const Subgraph g = LargeConv();
  auto threaded = PrepareBuiltinKernel(g, g.nodes[0], *KernelBuildFor("x86-64", -1));
  ASSERT_TRUE(threaded.ok());
  ASSERT_EQ(threaded->added.size(), 1u);
  EXPECT_EQ(threaded->added[0].shape, (std::vector<int32_t>{1152, 128}));
  EXPECT_EQ(threaded->added[0].allocation, AllocationType::kArenaRwPersistent);
  // With ruy (ARM builds) the thread count changes nothing.
  auto arm = PrepareBuiltinKernel(g, g.nodes[0], *KernelBuildFor("linux-arm64", 4));
  ASSERT_TRUE(arm.ok());
  ASSERT_EQ(arm->added.size(), 1u);
  EXPECT_EQ(arm->added[0].shape, (std::vector<int32_t>{1, 512, 512, 1152}));
}

}  // namespace
}  // namespace tfa
