#include "libanalysis/report/delegate_memory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/profiles/delegate_selection.h"

namespace tfa {
namespace {

class Graph {
 public:
  int32_t Tensor(TensorType type, std::vector<int32_t> shape, bool constant = false) {
    tfa::Tensor t;
    t.type = type;
    t.shape = std::move(shape);
    if (constant) {
      t.allocation = AllocationType::kMmapRo;
      t.constant_bytes = 4;
    }
    if (type == TensorType::kInt8) t.quantization = Quantization{{0.5f}, {0}, 0};
    subgraph.tensors.push_back(std::move(t));
    return static_cast<int32_t>(subgraph.tensors.size() - 1);
  }
  Node& Op(const std::string& op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    Node node;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = std::move(outputs);
    node.options.Mutable().padding = Padding::kSame;
    subgraph.nodes.push_back(std::move(node));
    subgraph.execution_plan.push_back(static_cast<int32_t>(subgraph.nodes.size() - 1));
    return subgraph.nodes.back();
  }
  // The plan after the named built-in delegate, and its memory.
  DelegateMemory Memory(const std::string& delegate) const {
    auto profile = ResolveDelegateProfile(delegate);
    EXPECT_TRUE(profile.ok()) << profile.status().message();
    if (!profile.ok()) return {};
    auto selection = SelectDelegateNodes(subgraph, *profile);
    EXPECT_TRUE(selection.ok()) << selection.status().message();
    if (!selection.ok()) return {};
    auto delegated = ApplyDelegateSelection(subgraph, *profile, *selection);
    EXPECT_TRUE(delegated.ok()) << delegated.status().message();
    if (!delegated.ok()) return {};
    auto memory = EstimateDelegateMemory(delegated->subgraph, *profile);
    EXPECT_TRUE(memory.ok()) << memory.status().message();
    if (!memory.ok()) return {};
    return *memory;
  }

  Subgraph subgraph;
};

TEST(DelegateMemoryTest, XnnpackPacksStaticWeightsAndUnpacksQuantizedConstants) {
  Graph g;
  // FULLY_CONNECTED with fp16 weights through DEQUANTIZE: XNNPACK skips that unpack and packs
  // the 4x3 filter and the 4 biases as float32, output channels rounded up to the 16 of its
  // x86-64 GEMM tile: 16 x (3 + 1) x 4 bytes.
  const int32_t fp16 = g.Tensor(TensorType::kFloat16, {4, 3}, true);
  const int32_t weights = g.Tensor(TensorType::kFloat32, {4, 3});
  g.Op("DEQUANTIZE", {fp16}, {weights});
  const int32_t in = g.Tensor(TensorType::kFloat32, {1, 3});
  const int32_t bias = g.Tensor(TensorType::kFloat32, {4}, true);
  const int32_t fc = g.Tensor(TensorType::kFloat32, {1, 4});
  g.Op("FULLY_CONNECTED", {in, weights, bias}, {fc});
  // An int8 constant DEQUANTIZE read by ADD is unpacked: 1x4 float32 = 16 bytes, then a second
  // one of 1x1 (4 bytes) starts at the next multiple of 16.
  const int32_t int8 = g.Tensor(TensorType::kInt8, {1, 4}, true);
  const int32_t addend = g.Tensor(TensorType::kFloat32, {1, 4});
  g.Op("DEQUANTIZE", {int8}, {addend});
  const int32_t sum = g.Tensor(TensorType::kFloat32, {1, 4});
  g.Op("ADD", {fc, addend}, {sum});
  const int32_t int8_scalar = g.Tensor(TensorType::kInt8, {1, 1}, true);
  const int32_t scalar = g.Tensor(TensorType::kFloat32, {1, 1});
  g.Op("DEQUANTIZE", {int8_scalar}, {scalar});
  g.Op("MUL", {sum, scalar}, {g.Tensor(TensorType::kFloat32, {1, 4})});

  const DelegateMemory memory = g.Memory("xnnpack");
  ASSERT_EQ(memory.parts.size(), 4u);
  EXPECT_EQ(memory.parts[0].kind, "unpacked_static_weights");
  EXPECT_EQ(memory.parts[0].bytes, 16u + 4u);
  EXPECT_EQ(memory.parts[1].kind, "packed_weights");
  EXPECT_EQ(memory.parts[1].bytes, 16u * 4u * 4u);
  EXPECT_EQ(memory.parts[2].kind, "indirection_buffers");  // a GEMM reads its input directly
  EXPECT_EQ(memory.parts[2].bytes, 0u);
  // The FULLY_CONNECTED output (16 bytes) is the one internal value planned: the ADD writes over
  // it in place, and nothing reads the MUL's output. A runtime adds 32 bytes.
  EXPECT_EQ(memory.parts[3].kind, "workspace");
  EXPECT_EQ(memory.parts[3].bytes, 16u + 32u);
  EXPECT_EQ(memory.total_bytes, 20u + 256u + 48u);
}

TEST(DelegateMemoryTest, GpuSharesItsTensorsAsUpstreamsInferenceContext) {
  Graph g;
  // CONV_2D 1x4x4x2 -> 1x4x4x3 with a 3x1x1x2 filter and 3 biases, then RELU.
  const int32_t in = g.Tensor(TensorType::kFloat32, {1, 4, 4, 2});
  const int32_t filter = g.Tensor(TensorType::kFloat32, {3, 1, 1, 2}, true);
  const int32_t bias = g.Tensor(TensorType::kFloat32, {3}, true);
  const int32_t conv = g.Tensor(TensorType::kFloat32, {1, 4, 4, 3});
  g.Op("CONV_2D", {in, filter, bias}, {conv});
  g.Op("RELU", {conv}, {g.Tensor(TensorType::kFloat32, {1, 4, 4, 3})});
  g.subgraph.inputs = {in};
  g.subgraph.outputs = {4};

  const DelegateMemory memory = g.Memory("gpu");
  ASSERT_EQ(memory.parts.size(), 3u);
  // 16-pixel tensors of 4 (padded) channels, 256 bytes each. The RELU fuses into the convolution
  // (upstream's MergeNodes), so the convolution's own output has no tensor; the input (task 0)
  // and the output (tasks 0 to 1) live together: 512 bytes.
  EXPECT_EQ(memory.parts[0].kind, "shared_tensors");
  EXPECT_EQ(memory.parts[0].bytes, 512u);
  EXPECT_EQ(memory.parts[0].basis, MemoryBasis::kPredicted);
  EXPECT_EQ(memory.parts[1].kind, "staging_buffers");
  EXPECT_EQ(memory.parts[1].bytes, 256u + 256u);
  EXPECT_EQ(memory.parts[2].kind, "constants");
  EXPECT_EQ(memory.parts[2].bytes, (6u + 3u) * 4u);
  EXPECT_FALSE(memory.has_unknown());
}

TEST(DelegateMemoryTest, NnapiMemoryIsTheDriversAndUnknown) {
  Graph g;
  g.Op("ADD", {g.Tensor(TensorType::kFloat32, {4}), g.Tensor(TensorType::kFloat32, {4})},
       {g.Tensor(TensorType::kFloat32, {4})});
  const DelegateMemory memory = g.Memory("nnapi");
  ASSERT_EQ(memory.parts.size(), 1u);
  EXPECT_EQ(memory.parts[0].basis, MemoryBasis::kUnknown);
  EXPECT_TRUE(memory.has_unknown());
  EXPECT_EQ(memory.total_bytes, 0u);
}

TEST(DelegateMemoryTest, OtherDelegatesHaveNoEstimate) {
  Graph g;
  g.Op("ADD", {g.Tensor(TensorType::kFloat32, {4}), g.Tensor(TensorType::kFloat32, {4})},
       {g.Tensor(TensorType::kFloat32, {4})});
  const DelegateMemory memory = g.Memory("add-sub");
  EXPECT_TRUE(memory.parts.empty());
  EXPECT_EQ(memory.total_bytes, 0u);
}

}  // namespace
}  // namespace tfa
