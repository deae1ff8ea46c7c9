#include "libanalysis/report/gpu_device_memory.h"

#include <gtest/gtest.h>

#include <vector>

#include "libanalysis/profiles/delegate_selection.h"
#include "libanalysis/report/gpu_fused_memory.h"

namespace tfa {
namespace {

class Partition {
 public:
  int32_t Tensor(TensorType type, std::vector<int32_t> shape, bool constant = false) {
    tfa::Tensor t;
    t.type = type;
    t.shape = std::move(shape);
    if (constant) t.allocation = AllocationType::kMmapRo;
    if (type == TensorType::kInt8) t.quantization = Quantization{{0.5f}, {0}, 0};
    subgraph.tensors.push_back(std::move(t));
    return static_cast<int32_t>(subgraph.tensors.size() - 1);
  }
  void Op(const std::string& op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    Node node;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = std::move(outputs);
    subgraph.nodes.push_back(std::move(node));
    nodes.push_back(static_cast<int32_t>(subgraph.nodes.size() - 1));
  }
  GpuPartitionMemory Plan(const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs,
                          const GpuMemoryOptions& options = {}) const {
    auto memory = PlanGpuPartitionMemory(subgraph, nodes, inputs, outputs, options);
    EXPECT_TRUE(memory.ok()) << memory.status().message();
    return memory.ok() ? *memory : GpuPartitionMemory{};
  }

  Subgraph subgraph;
  std::vector<int32_t> nodes;
};

TEST(GpuDeviceMemoryTest, ShapesAreReadAsBhwcWithChannelsPaddedToFour) {
  Partition p;
  // Rank 1 is a batch of one-channel pixels; rank 2 (b, c); rank 3 (b, w, c).
  const int32_t a = p.Tensor(TensorType::kFloat32, {5});
  const int32_t b = p.Tensor(TensorType::kFloat32, {2, 5});
  const int32_t c = p.Tensor(TensorType::kFloat32, {2, 3, 6});
  p.Op("ADD", {a, b}, {c});
  const GpuPartitionMemory memory = p.Plan({a, b}, {c});
  ASSERT_EQ(memory.records.size(), 3u);
  EXPECT_EQ(memory.records[0].bytes, 5u * 4 * 4);
  EXPECT_EQ(memory.records[1].bytes, 2u * 8 * 4);
  EXPECT_EQ(memory.records[2].bytes, 2u * 3 * 8 * 4);
  // Inputs from task 0, the output to task 1 (one GPU node).
  EXPECT_EQ(memory.records[2].first_task, 0u);
  EXPECT_EQ(memory.records[2].last_task, 1u);
  EXPECT_EQ(memory.staging_bytes, (80u + 64u) + 192u);
}

// CONV_2D -> RELU -> CONV_2D: upstream fuses the RELU into the first convolution, so the tensor
// between them gets no device memory and the records run over two tasks; this project's runtime
// runs three nodes and allocates all four tensors.
TEST(GpuDeviceMemoryTest, ElementwiseOpsFusedIntoTheirProducerHaveNoTensor) {
  Partition p;
  const int32_t a = p.Tensor(TensorType::kFloat32, {1, 4, 4, 4});
  const int32_t w = p.Tensor(TensorType::kFloat32, {4, 1, 1, 4}, true);
  const int32_t b = p.Tensor(TensorType::kFloat32, {1, 4, 4, 4});
  const int32_t c = p.Tensor(TensorType::kFloat32, {1, 4, 4, 4});
  const int32_t d = p.Tensor(TensorType::kFloat32, {1, 4, 4, 4});
  p.Op("CONV_2D", {a, w}, {b});
  p.Op("RELU", {b}, {c});
  p.Op("CONV_2D", {c, w}, {d});
  auto fused = PlanFusedGpuPartitionMemory(p.subgraph, p.nodes, {a}, {d}, {});
  ASSERT_TRUE(fused.ok()) << fused.status().message();
  auto tasks = CountFusedGpuTasks(p.subgraph, p.nodes, {a}, {d});
  ASSERT_TRUE(tasks.ok());
  EXPECT_EQ(*tasks, 2u);
  EXPECT_EQ(fused->runtime_tensors, (std::vector<int32_t>{a, c, d}));
  EXPECT_EQ(fused->records[1].first_task, 0u);  // c: written by the fused task 0
  EXPECT_EQ(fused->records[1].last_task, 1u);
  // a and d never live together: two 256-byte places.
  EXPECT_EQ(fused->shared.total_bytes, 512u);
  const GpuPartitionMemory unfused = p.Plan({a}, {d});
  EXPECT_EQ(unfused.runtime_tensors, (std::vector<int32_t>{a, b, c, d}));
  EXPECT_EQ(unfused.records[3].last_task, 3u);  // d: the output, after three tasks
}

TEST(GpuDeviceMemoryTest, PrecisionLossAllowedStoresTensorsAndWeightsAsFp16) {
  Partition p;
  const int32_t in = p.Tensor(TensorType::kFloat32, {1, 2, 2, 4});
  const int32_t weights = p.Tensor(TensorType::kFloat32, {4, 1, 1, 4}, true);
  const int32_t out = p.Tensor(TensorType::kFloat32, {1, 2, 2, 4});
  p.Op("CONV_2D", {in, weights}, {out});
  auto profile = ResolveDelegateProfile("gpu");
  ASSERT_TRUE(profile.ok());
  EXPECT_EQ(GpuMemoryOptionsFor(*profile).float_bytes, 4u);
  ASSERT_TRUE(profile->SetOption("is_precision_loss_allowed", "1").ok());
  const GpuMemoryOptions fp16 = GpuMemoryOptionsFor(*profile);
  EXPECT_EQ(fp16.float_bytes, 2u);
  const GpuPartitionMemory memory = p.Plan({in}, {out}, fp16);
  EXPECT_EQ(memory.records[0].bytes, 16u * 2);
  EXPECT_EQ(memory.constant_bytes, 16u * 2);
  // The staging buffers hold TFLite's float32 tensors whatever the device stores.
  EXPECT_EQ(memory.staging_bytes, 2u * 16 * 4);
}

TEST(GpuDeviceMemoryTest, FoldedWeightsAreConstantsAndInt8ActivationsAreFloat) {
  Partition p;
  const int32_t in = p.Tensor(TensorType::kInt8, {1, 2, 2, 4});
  const int32_t fp16 = p.Tensor(TensorType::kFloat16, {4, 1, 1, 4}, true);
  const int32_t weights = p.Tensor(TensorType::kFloat32, {4, 1, 1, 4});
  const int32_t out = p.Tensor(TensorType::kInt8, {1, 2, 2, 4});
  p.Op("DEQUANTIZE", {fp16}, {weights});
  p.Op("CONV_2D", {in, weights, -1}, {out});
  const GpuPartitionMemory memory = p.Plan({in}, {out});
  // The DEQUANTIZE is folded: the CONV_2D is task 0 and its weights an uploaded constant.
  ASSERT_EQ(memory.records.size(), 2u);
  EXPECT_EQ(memory.records[0].bytes, 16u * 4);
  EXPECT_EQ(memory.records[1].last_task, 1u);
  EXPECT_EQ(memory.constants, std::vector<int32_t>{weights});
  EXPECT_EQ(memory.constant_bytes, 16u * 4);
  // In fp16 the device halves tensors and weights; the staging buffers stay float32.
  const GpuPartitionMemory half = p.Plan({in}, {out}, {.float_bytes = 2});
  EXPECT_EQ(half.records[0].bytes, 16u * 2);
  EXPECT_EQ(half.constant_bytes, 16u * 2);
  EXPECT_EQ(half.staging_bytes, memory.staging_bytes);
}

TEST(GpuDeviceMemoryTest, AnUnknownShapeIsAnErrorNamingTheTensor) {
  Partition p;
  const int32_t in = p.Tensor(TensorType::kFloat32, {1, -1, 4});
  const int32_t out = p.Tensor(TensorType::kFloat32, {1, 2, 4});
  p.Op("RELU", {in}, {out});
  auto memory = PlanGpuPartitionMemory(p.subgraph, p.nodes, {in}, {out}, {});
  ASSERT_FALSE(memory.ok());
  EXPECT_NE(memory.status().message().find("tensor 0"), std::string::npos);
}

}  // namespace
}  // namespace tfa
