#include "runtime/delegates/xnnpack/qd8_qb4w_fully_connected.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace tfa::runtime {
namespace {

// fp16 bit patterns.
constexpr uint16_t kHalf = 0x3800;     // 0.5
constexpr uint16_t kQuarter = 0x3400;  // 0.25

RuntimeTensor MakeTensor(TensorType type, std::vector<int32_t> shape, void* data, uint64_t bytes,
                         const Quantization* quantization = nullptr, bool constant = false) {
  RuntimeTensor t;
  t.type = type;
  t.shape = std::move(shape);
  t.data = static_cast<uint8_t*>(data);
  t.bytes = bytes;
  t.quantization = quantization;
  t.is_constant = constant;
  return t;
}

TEST(Qd8Qb4wFullyConnected, RowQuantizationIsXnnpacksNudgedZeroPoint) {
  // [-1, 3]: 255 / 4 = 63.75 steps per unit; the zero point -128 + 63.75 rounds to -64.
  const Qd8RowQuantization row = Qd8QuantizationOf(-1.0f, 3.0f);
  EXPECT_EQ(row.zero_point, -64);
  EXPECT_FLOAT_EQ(row.scale, 1.0f / 63.75f);
  // The range always holds 0; an all-zero row has scale 1 and XNNPACK's zero point 127.
  EXPECT_EQ(Qd8QuantizationOf(2.0f, 4.0f).zero_point, -128);
  const Qd8RowQuantization zeros = Qd8QuantizationOf(0.0f, 0.0f);
  EXPECT_EQ(zeros.zero_point, 127);
  EXPECT_FLOAT_EQ(zeros.scale, 1.0f);
}

TEST(Qd8Qb4wFullyConnected, ScalesAreBfloat16RoundedToNearestEven) {
  EXPECT_EQ(Fp16ScaleAsBf16(kHalf), 0.5f);
  // fp16 1 + 2^-10 is not a bfloat16 (7 fraction bits): it rounds to 1.
  EXPECT_EQ(Fp16ScaleAsBf16(0x3C01), 1.0f);
  // fp16 1 + 3 * 2^-8 lies halfway between bfloat16 1 + 2^-7 and 1 + 2^-6: even is 1 + 2^-6.
  EXPECT_EQ(Fp16ScaleAsBf16(0x3C0C), 1.0f + 1.0f / 64);
}

// One row of 32 inputs, two output channels, one block of 32 each.
TEST(Qd8Qb4wFullyConnected, HandWorkedOutputs) {
  Quantization blockwise;
  blockwise.blockwise = true;
  blockwise.block_size = 32;
  blockwise.block_scales = 3;
  std::vector<RuntimeTensor> tensors(4);
  std::vector<float> input(32, 0.0f), output(2, 0.0f);
  input[0] = 3.0f;
  input[1] = -1.0f;
  input[2] = 1.0f;
  // Row 0 = [1, 1, 1, 0...]; row 1 = [-8, 7, 2, 0...]: two int4 per byte, low nibble first.
  std::vector<uint8_t> weights(32, 0);
  weights[0] = 0x11;
  weights[1] = 0x01;
  weights[16] = 0x78;
  weights[17] = 0x02;
  std::vector<uint16_t> scales = {kHalf, kQuarter};
  tensors[0] = MakeTensor(TensorType::kFloat32, {1, 32}, input.data(), 128);
  tensors[1] = MakeTensor(TensorType::kInt4, {2, 32}, weights.data(), 32, &blockwise, true);
  tensors[2] = MakeTensor(TensorType::kFloat32, {1, 2}, output.data(), 8);
  tensors[3] = MakeTensor(TensorType::kFloat16, {2, 1}, scales.data(), 4, nullptr, true);
  Node node;
  node.op = "FULLY_CONNECTED";
  node.inputs = {0, 1};
  node.outputs = {2};
  ASSERT_TRUE(IsBlockwiseInt4FullyConnected(node, tensors));
  auto kernel = Qd8Qb4wFullyConnected::Create(node, tensors);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  (*kernel)->Run(input.data(), 1, output.data());
  // Quantized with zero point -64 and 63.75 steps per unit: 3 -> 127, -1 -> -128, 1 -> 0,
  // 0 -> -64. Channel 0: int32 sum -1, block scale 0.5, the zero point's share
  // -(1 + 1 + 1) * 0.5 * -64 = 96: (96 - 0.5) / 63.75, close to the exact 1.5.
  EXPECT_FLOAT_EQ(output[0], 95.5f / 63.75f);
  // Channel 1: sum 127 * -8 - 128 * 7 = -1912, x 0.25 = -478; share -(1) * 0.25 * -64 = 16.
  EXPECT_FLOAT_EQ(output[1], -462.0f / 63.75f);
}

TEST(Qd8Qb4wFullyConnected, RefusesWhatUpstreamsDelegateRefuses) {
  Quantization blockwise;
  blockwise.blockwise = true;
  blockwise.block_size = 16;  // not a multiple of 32
  blockwise.block_scales = 3;
  std::vector<uint8_t> weights(16, 0);
  std::vector<uint16_t> scales(4, kHalf);
  std::vector<RuntimeTensor> tensors(4);
  tensors[0] = MakeTensor(TensorType::kFloat32, {1, 16}, nullptr, 64);
  tensors[1] = MakeTensor(TensorType::kInt4, {2, 16}, weights.data(), 16, &blockwise, true);
  tensors[2] = MakeTensor(TensorType::kFloat32, {1, 2}, nullptr, 8);
  tensors[3] = MakeTensor(TensorType::kFloat16, {2, 2}, scales.data(), 8, nullptr, true);
  Node node;
  node.op = "FULLY_CONNECTED";
  node.inputs = {0, 1};
  node.outputs = {2};
  auto kernel = Qd8Qb4wFullyConnected::Create(node, tensors);
  ASSERT_FALSE(kernel.ok());
  EXPECT_NE(kernel.status().message().find("not a multiple of 32"), std::string::npos);
}

}  // namespace
}  // namespace tfa::runtime
