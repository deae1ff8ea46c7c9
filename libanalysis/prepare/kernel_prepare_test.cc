#include "libanalysis/prepare/kernel_prepare.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddNode;
using testing::AddTensor;

// input [1,8,8,3] -> CONV_2D 3x3 stride 2 (fp16 weights through DEQUANTIZE) -> [1,4,4,16].
Subgraph Fp16Conv() {
  Subgraph g;
  g.name = "main";
  const int32_t input = AddTensor(g, TensorType::kFloat32, {1, 8, 8, 3});
  const int32_t w16 = AddTensor(g, TensorType::kFloat16, {16, 3, 3, 3}, AllocationType::kMmapRo);
  const int32_t bias = AddTensor(g, TensorType::kFloat32, {16}, AllocationType::kMmapRo);
  const int32_t w = AddTensor(g, TensorType::kFloat32, {16, 3, 3, 3});
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 4, 4, 16});
  AddNode(g, "DEQUANTIZE", {w16}, {w});
  Node& conv = AddNode(g, "CONV_2D", {input, w, bias}, {out});
  conv.options.Mutable().stride_w = conv.options.Mutable().stride_h = 2;
  conv.options.Mutable().padding = Padding::kSame;
  g.inputs = {input};
  g.outputs = {out};
  return g;
}

TEST(KernelPrepareTest, ConvAddsIm2colAndConstantDequantizeBecomesPersistent) {
  auto prepared = ReplayKernelPrepare(Fp16Conv());
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& g = prepared->subgraph;
  EXPECT_EQ(prepared->model_tensor_count, 5);
  ASSERT_EQ(g.tensors.size(), 6u);
  EXPECT_EQ(g.nodes[1].temporaries, std::vector<int32_t>{5});
  EXPECT_EQ(g.tensors[5].shape, (std::vector<int32_t>{1, 4, 4, 27}));
  EXPECT_EQ(g.tensors[5].bytes, 4u * 4 * 27 * 4);
  EXPECT_EQ(g.tensors[5].allocation, AllocationType::kArenaRw);
  EXPECT_EQ(g.tensors[3].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_TRUE(prepared->assumptions.empty());
}

TEST(KernelPrepareTest, PointwiseConvHasNoIm2col) {
  Subgraph g = Fp16Conv();
  g.nodes[1].options.Mutable().stride_w = g.nodes[1].options.Mutable().stride_h = 1;
  g.tensors[1].shape = g.tensors[3].shape = {16, 1, 1, 3};
  g.tensors[4].shape = {1, 8, 8, 16};
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok());
  EXPECT_EQ(prepared->subgraph.tensors.size(), 5u);
  EXPECT_TRUE(prepared->subgraph.nodes[1].temporaries.empty());
}

TEST(KernelPrepareTest, FloatFullyConnectedAddsSixSpareTensors) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 32});
  const int32_t w = AddTensor(g, TensorType::kFloat32, {10, 32}, AllocationType::kMmapRo);
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 10});
  AddNode(g, "FULLY_CONNECTED", {in, w, -1}, {out});
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok());
  ASSERT_EQ(prepared->subgraph.tensors.size(), 9u);
  EXPECT_TRUE(prepared->subgraph.nodes[0].temporaries.empty());
  EXPECT_EQ(prepared->subgraph.tensors[8].bytes, 0u);
}

TEST(KernelPrepareTest, HybridFullyConnectedUsesFiveOfItsSixTensors) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {4, 32});
  const int32_t w = AddTensor(g, TensorType::kInt8, {10, 32}, AllocationType::kMmapRo);
  const int32_t out = AddTensor(g, TensorType::kFloat32, {4, 10});
  AddNode(g, "FULLY_CONNECTED", {in, w}, {out});
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok());
  const Subgraph& p = prepared->subgraph;
  ASSERT_EQ(p.tensors.size(), 9u);
  EXPECT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{3, 4, 5, 6, 7}));
  EXPECT_EQ(p.tensors[3].bytes, 4u * 32);      // quantized input
  EXPECT_EQ(p.tensors[4].bytes, 4u * 4);       // scaling factors, one per batch
  EXPECT_EQ(p.tensors[5].bytes, 10u * 4 * 4);  // int32 accumulators
  EXPECT_EQ(p.tensors[6].bytes, 4u * 4);       // input offsets
  EXPECT_EQ(p.tensors[7].allocation, AllocationType::kArenaRwPersistent);  // row sums
  EXPECT_EQ(p.tensors[7].bytes, 10u * 4);
}

TEST(KernelPrepareTest, MeanAddsFourTemporariesWithDynamicNormalizedDims) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kFloat32, {1, 7, 7, 32});
  const int32_t axis = AddTensor(g, TensorType::kInt32, {2}, AllocationType::kMmapRo);
  const int32_t out = AddTensor(g, TensorType::kFloat32, {1, 1, 1, 32});
  AddNode(g, "MEAN", {in, axis}, {out});
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok());
  const Subgraph& p = prepared->subgraph;
  EXPECT_EQ(p.nodes[0].temporaries, (std::vector<int32_t>{3, 4, 5, 6}));
  EXPECT_EQ(p.tensors[3].bytes, 16u);
  EXPECT_EQ(p.tensors[4].bytes, 8u);
  EXPECT_EQ(p.tensors[5].bytes, 128u);
  EXPECT_EQ(p.tensors[6].allocation, AllocationType::kDynamic);
}

// Node 1 (the conv) delegated: kernel 2 replaces it.
Subgraph DelegatedFp16Conv() {
  Subgraph g = Fp16Conv();
  Node kernel;
  kernel.kind = NodeKind::kDelegateKernel;
  kernel.op = "xnnpack";
  kernel.inputs = {0, 2, 3};
  kernel.outputs = {4};
  kernel.replaces = {1};
  g.nodes.push_back(kernel);
  g.execution_plan = {0, 2};
  return g;
}

TEST(KernelPrepareTest, DelegatedNodesArePreparedBeforeDelegation) {
  auto prepared = ReplayKernelPrepare(DelegatedFp16Conv());
  ASSERT_TRUE(prepared.ok());
  // The conv's im2col exists (upstream keeps it) although the conv no longer runs.
  EXPECT_EQ(prepared->subgraph.tensors.size(), 6u);
  EXPECT_EQ(prepared->subgraph.nodes[1].temporaries, std::vector<int32_t>{5});
  EXPECT_TRUE(prepared->subgraph.nodes[2].temporaries.empty());
}

TEST(KernelPrepareTest, DelegateAllowingDynamicTensorsSkipsThePrepareBeforeDelegation) {
  Subgraph g = DelegatedFp16Conv();
  // The delegate also takes the DEQUANTIZE: it never prepares, its output stays in the arena.
  g.nodes[2].inputs = {0, 1, 2};
  g.nodes[2].replaces = {0, 1};
  g.execution_plan = {2};
  PrepareOptions options;
  options.prepare_before_delegation = false;
  auto prepared = ReplayKernelPrepare(g, options);
  ASSERT_TRUE(prepared.ok());
  EXPECT_EQ(prepared->subgraph.tensors.size(), 5u);
  EXPECT_EQ(prepared->subgraph.tensors[3].allocation, AllocationType::kArenaRw);
}

TEST(KernelPrepareTest, GpuKernelAddsFloatTwinsAndListsItsBoundaryOnesAsTemporaries) {
  Subgraph g;
  const int32_t in = AddTensor(g, TensorType::kInt8, {1, 4, 4, 8});
  const int32_t mid = AddTensor(g, TensorType::kInt8, {1, 4, 4, 8});
  const int32_t out = AddTensor(g, TensorType::kInt8, {1, 4, 4, 8});
  AddNode(g, "RELU", {in}, {mid});
  AddNode(g, "RELU", {mid}, {out});
  Node kernel;
  kernel.kind = NodeKind::kDelegateKernel;
  kernel.op = "gpu";
  kernel.inputs = {in};
  kernel.outputs = {out};
  kernel.replaces = {0, 1};
  g.nodes.push_back(kernel);
  g.execution_plan = {2};
  PrepareOptions options;
  options.delegate_kernels["gpu"] = DelegateKernelKind::kGpu;
  auto prepared = ReplayKernelPrepare(g, options);
  ASSERT_TRUE(prepared.ok());
  const Subgraph& p = prepared->subgraph;
  ASSERT_EQ(p.tensors.size(), 6u);  // twins of in, out, then mid
  EXPECT_EQ(p.nodes[2].temporaries, (std::vector<int32_t>{3, 4}));
  EXPECT_EQ(p.tensors[3].type, TensorType::kFloat32);
  EXPECT_EQ(p.tensors[3].bytes, 128u * 4);

  options.gpu_allow_quant_ops = false;
  auto no_quant = ReplayKernelPrepare(g, options);
  ASSERT_TRUE(no_quant.ok());
  EXPECT_EQ(no_quant->subgraph.tensors.size(), 3u);
}

TEST(KernelPrepareTest, UnmodelledKernelsAreNamedInAssumptions) {
  Subgraph g;
  const int32_t a = AddTensor(g, TensorType::kFloat32, {1, 4});
  const int32_t b = AddTensor(g, TensorType::kFloat32, {1, 4});
  const int32_t c = AddTensor(g, TensorType::kFloat32, {1, 4});
  const int32_t sparse = AddTensor(g, TensorType::kInt8, {4, 4}, AllocationType::kMmapRo);
  g.tensors[static_cast<size_t>(sparse)].is_sparse = true;
  AddNode(g, "FULLY_CONNECTED", {a, sparse}, {b});
  AddNode(g, "MyCustomOp", {b}, {c}, NodeKind::kCustom);
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok());
  EXPECT_EQ(prepared->assumptions,
            (std::vector<std::string>{
                "estimate: FULLY_CONNECTED #0 temporaries not modelled",
                "estimate: custom op MyCustomOp #1 Prepare not modelled (no temporaries, output "
                "shapes as in the model)"}));
}

TEST(KernelPrepareTest, MalformedNodeIsAnErrorNamingIt) {
  Subgraph g = Fp16Conv();
  g.tensors[0].shape = {8, 8, 3};
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.status().message(), "node 1: CONV_2D: input, filter and output must be 4-D");
}

// A TF1-converted resize: SHAPE -> STRIDED_SLICE (height, width) -> MUL by 2 -> size of
// RESIZE_NEAREST_NEIGHBOR, whose output and the CONV_2D after it the file leaves as [] (rank 0).
// `pack_size`: the size goes through PACK first, which upstream never folds.
Subgraph ResizeBySliceOfShape(bool pack_size) {
  Subgraph g;
  g.name = "main";
  const int32_t input = AddTensor(g, TensorType::kFloat32, {1, 8, 8, 3});
  const int32_t shape = AddTensor(g, TensorType::kInt32, {4});
  const int32_t begin = testing::AddConstant(g, TensorType::kInt32, {1});
  const int32_t end = testing::AddConstant(g, TensorType::kInt32, {1});
  const int32_t strides = testing::AddConstant(g, TensorType::kInt32, {1});
  const int32_t two = testing::AddConstant(g, TensorType::kInt32, {1});
  g.tensors[static_cast<size_t>(begin)].int_values = {1};
  g.tensors[static_cast<size_t>(end)].int_values = {3};
  g.tensors[static_cast<size_t>(strides)].int_values = {1};
  g.tensors[static_cast<size_t>(two)].int_values = {2};
  const int32_t hw = AddTensor(g, TensorType::kInt32, {2});
  const int32_t size = AddTensor(g, TensorType::kInt32, {2});
  const int32_t resized = AddTensor(g, TensorType::kFloat32, {});
  const int32_t filter = AddTensor(g, TensorType::kFloat32, {4, 1, 1, 3}, AllocationType::kMmapRo);
  const int32_t bias = AddTensor(g, TensorType::kFloat32, {4}, AllocationType::kMmapRo);
  const int32_t out = AddTensor(g, TensorType::kFloat32, {});
  AddNode(g, "SHAPE", {input}, {shape});
  AddNode(g, "STRIDED_SLICE", {shape, begin, end, strides}, {hw});
  int32_t size_for_resize = size;
  AddNode(g, "MUL", {hw, two}, {size});
  if (pack_size) {
    size_for_resize = AddTensor(g, TensorType::kInt32, {1, 2});
    AddNode(g, "PACK", {size}, {size_for_resize});
  }
  AddNode(g, "RESIZE_NEAREST_NEIGHBOR", {input, size_for_resize}, {resized});
  Node& conv = AddNode(g, "CONV_2D", {resized, filter, bias}, {out});
  conv.options.Mutable().padding = Padding::kValid;
  g.inputs = {input};
  g.outputs = {out};
  return g;
}

TEST(KernelPrepareTest, ShapesFoldedInPrepareSizeTheTensorsTheFileLeavesEmpty) {
  auto prepared = ReplayKernelPrepare(ResizeBySliceOfShape(false));
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& g = prepared->subgraph;
  EXPECT_EQ(g.tensors[1].allocation, AllocationType::kPersistentRo);    // SHAPE
  EXPECT_EQ(g.tensors[6].allocation, AllocationType::kPersistentRo);    // STRIDED_SLICE
  EXPECT_EQ(g.tensors[7].allocation, AllocationType::kPersistentRo);    // MUL
  EXPECT_EQ(g.tensors[8].shape, (std::vector<int32_t>{1, 16, 16, 3}));  // RESIZE
  EXPECT_EQ(g.tensors[8].bytes, 16u * 16 * 3 * 4);
  EXPECT_EQ(g.tensors[11].shape, (std::vector<int32_t>{1, 16, 16, 4}));  // CONV_2D
  EXPECT_EQ(g.tensors[11].bytes, 16u * 16 * 4 * 4);
}

// PACK computes its output at Eval, so RESIZE's size is unknown at Prepare: its output is dynamic
// and upstream prepares nothing after it until Invoke (the CONV_2D's [] input is never checked).
TEST(KernelPrepareTest, ASizeUnknownAtPrepareMakesTheOutputDynamicAndStopsThere) {
  auto prepared = ReplayKernelPrepare(ResizeBySliceOfShape(true));
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  const Subgraph& g = prepared->subgraph;
  EXPECT_EQ(g.tensors[12].allocation, AllocationType::kArenaRw);  // PACK: computed at Eval
  EXPECT_EQ(g.tensors[8].allocation, AllocationType::kDynamic);   // RESIZE
  EXPECT_TRUE(g.nodes[5].temporaries.empty());                    // CONV_2D not prepared
}

// Before a delegate that needs static shapes is applied, upstream prepares the plan up to the
// first dynamic output, as AllocateTensors does: the CONV_2D after it is not checked then either.
TEST(KernelPrepareTest, PreparingBeforeDelegationAlsoStopsAtTheFirstDynamicOutput) {
  Subgraph g = ResizeBySliceOfShape(true);
  Node kernel;
  kernel.op = "gpu";
  kernel.kind = NodeKind::kDelegateKernel;
  g.nodes.push_back(kernel);
  auto prepared = ReplayKernelPrepare(g);
  ASSERT_TRUE(prepared.ok()) << prepared.status().message();
  EXPECT_EQ(prepared->subgraph.tensors[8].allocation, AllocationType::kDynamic);
}

}  // namespace
}  // namespace tfa
