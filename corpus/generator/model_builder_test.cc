#include "corpus/generator/model_builder.h"

#include <gtest/gtest.h>

#include <cstring>

namespace tfa {
namespace {

uint16_t Half(float v) {
  const std::vector<uint8_t> bytes = Float16Bytes({v});
  uint16_t h;
  std::memcpy(&h, bytes.data(), 2);
  return h;
}

TEST(Float16Bytes, RoundsToNearestEven) {
  EXPECT_EQ(Half(0.0f), 0x0000);
  EXPECT_EQ(Half(-0.0f), 0x8000);
  EXPECT_EQ(Half(1.0f), 0x3c00);
  EXPECT_EQ(Half(-2.0f), 0xc000);
  EXPECT_EQ(Half(0.1f), 0x2e66);
  EXPECT_EQ(Half(65504.0f), 0x7bff);
  EXPECT_EQ(Half(65520.0f), 0x7c00);                  // rounds up past the largest half: infinity
  EXPECT_EQ(Half(1.0f + 1.0f / 2048), 0x3c00);        // tie to even
  EXPECT_EQ(Half(1.0f + 3.0f / 2048), 0x3c02);        // tie to even, upwards
  EXPECT_EQ(Half(6.103515625e-05f), 0x0400);          // smallest normal
  EXPECT_EQ(Half(5.960464477539063e-08f), 0x0001);    // smallest subnormal
  EXPECT_EQ(Half(2.98023223876953125e-08f), 0x0000);  // half of it: tie to even zero
}

TEST(ModelBuilder, DerivesWhatTheLoaderDerives) {
  ModelBuilder b("m.tflite", "d");
  const int32_t sg = b.AddSubgraph("main");
  const int32_t x = b.AddTensor(sg, "x", TensorType::kInt16, {2, 3}, {}, {-1, 3});
  const int32_t v = b.AddVariable(sg, "v", TensorType::kFloat32, {4});
  const int32_t c = b.AddConstant(sg, "c", TensorType::kInt32, {2}, Int32Bytes({1, 2}));
  const int32_t s = b.AddConstant(sg, "s", TensorType::kString, {1}, {1, 0, 0, 0, 9, 9});
  const int32_t r = b.AddTensor(sg, "r", TensorType::kResource, {});
  const int32_t y = b.AddTensor(sg, "y", TensorType::kInt16, {2, 3});
  b.AddNode(sg, "RESHAPE", {x, c}, {y});
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {y});
  const SyntheticModel m = std::move(b).Finish();
  const Subgraph& g = m.model.subgraphs[0];
  EXPECT_EQ(g.tensors[x].bytes, 12u);
  EXPECT_EQ(g.tensors[x].allocation, AllocationType::kArenaRw);
  EXPECT_EQ(g.tensors[v].allocation, AllocationType::kArenaRwPersistent);
  EXPECT_EQ(g.tensors[c].allocation, AllocationType::kMmapRo);
  EXPECT_EQ(g.tensors[c].buffer, 1);
  EXPECT_EQ(g.tensors[s].buffer, 2);
  EXPECT_EQ(g.tensors[s].bytes, 6u);  // strings: the buffer is the data
  EXPECT_EQ(g.tensors[r].allocation, AllocationType::kDynamic);
  EXPECT_FALSE(g.tensors[r].bytes.has_value());
  EXPECT_EQ(g.variables, std::vector<int32_t>{v});
  EXPECT_EQ(g.execution_plan, std::vector<int32_t>{0});
  EXPECT_EQ(g.nodes[0].builtin_code, 22);
  EXPECT_EQ(g.nodes[0].inplace, uint32_t{kInplaceOpDataUnmodified | kInplaceInput0Shared});
  EXPECT_EQ(m.model.constant_bytes, 8u + 6u);
  EXPECT_EQ(m.data.buffers.at(1), Int32Bytes({1, 2}));
  EXPECT_EQ(m.model.format, "tflite");
  EXPECT_EQ(m.model.schema_version, 3u);
}

}  // namespace
}  // namespace tfa
