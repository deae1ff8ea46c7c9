#include "libanalysis/report/xnnpack_operator_memory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tfa {
namespace {

class Graph {
 public:
  int32_t Tensor(std::vector<int32_t> shape, bool constant = false) {
    tfa::Tensor t;
    t.shape = std::move(shape);
    if (constant) t.allocation = AllocationType::kMmapRo;
    subgraph.tensors.push_back(std::move(t));
    return static_cast<int32_t>(subgraph.tensors.size() - 1);
  }
  OpOptions& Op(const std::string& op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    Node node;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = std::move(outputs);
    subgraph.nodes.push_back(std::move(node));
    replaced.push_back(static_cast<int32_t>(subgraph.nodes.size() - 1));
    return subgraph.nodes.back().options.Mutable();
  }
  // The plan after a delegate named xnnpack took every node.
  const Subgraph& Delegated() {
    Node kernel;
    kernel.op = "xnnpack";
    kernel.kind = NodeKind::kDelegateKernel;
    kernel.replaces = replaced;
    subgraph.nodes.push_back(std::move(kernel));
    subgraph.execution_plan = {static_cast<int32_t>(subgraph.nodes.size() - 1)};
    return subgraph;
  }

  Subgraph subgraph;
  std::vector<int32_t> replaced;
};

TEST(XnnpackOperatorMemoryTest, PackedWeightsAndIndirectionBuffersByOperatorPath) {
  Graph g;
  // CONV_2D 3x3, 3 -> 5 channels on 8x8: IGEMM. Packed: (9 taps x 3 channels + 1 bias) x 4 bytes
  // for each of 16 (5 rounded up to nr) output channels = 1,792; indirection: 9 pointers for each
  // of 70 (64 rounded up to mr = 7) output pixels = 5,040.
  const int32_t in = g.Tensor({1, 8, 8, 3});
  const int32_t conv = g.Tensor({1, 8, 8, 5});
  g.Op("CONV_2D", {in, g.Tensor({5, 3, 3, 3}, true), g.Tensor({5}, true)}, {conv});
  // DEPTHWISE_CONV_2D 3x3 over 5 channels: the 9-tap unipass kernel, 16-channel tile. Packed:
  // (9 + 1) x 4 x 16 = 640; indirection: 8 rows of 9 + 7 x 3 pointers = 1,920.
  const int32_t dw = g.Tensor({1, 8, 8, 5});
  g.Op("DEPTHWISE_CONV_2D", {conv, g.Tensor({1, 3, 3, 5}, true), g.Tensor({5}, true)}, {dw});
  // CONV_2D 1x1, unit stride: a GEMM on the input itself, no indirection. Packed:
  // (5 + 1) x 4 x 32 = 768.
  const int32_t pointwise = g.Tensor({1, 8, 8, 20});
  g.Op("CONV_2D", {dw, g.Tensor({20, 1, 1, 5}, true), g.Tensor({20}, true)}, {pointwise});
  // MAX_POOL_2D 2x2 stride 2 to 4x4: 4 rows of 4 + 3 x 2 x 2 pointers, plus the 9-tap kernel's
  // 8 of overread = 576.
  OpOptions& pool = g.Op("MAX_POOL_2D", {pointwise}, {g.Tensor({1, 4, 4, 20})});
  pool.filter_h = pool.filter_w = 2;
  pool.stride_h = pool.stride_w = 2;

  auto memory = EstimateXnnpackOperatorMemory(g.Delegated(), "xnnpack");
  ASSERT_TRUE(memory.ok()) << memory.status().message();
  EXPECT_EQ(memory->packed_weights, 1792u + 640u + 768u);
  EXPECT_EQ(memory->indirection_buffers, 5040u + 1920u + 576u);
}

TEST(XnnpackOperatorMemoryTest, OtherDelegatesKernelsAreNotCounted) {
  Graph g;
  g.Op("CONV_2D", {g.Tensor({1, 8, 8, 3}), g.Tensor({5, 3, 3, 3}, true)}, {g.Tensor({1, 8, 8, 5})});
  auto memory = EstimateXnnpackOperatorMemory(g.Delegated(), "gpu");
  ASSERT_TRUE(memory.ok());
  EXPECT_EQ(memory->packed_weights, 0u);
  EXPECT_EQ(memory->indirection_buffers, 0u);
}

}  // namespace
}  // namespace tfa
