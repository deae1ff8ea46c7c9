#include "runtime/kernels/cpu/dequantize.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(DequantizeTest, HalfToFloatCoversEveryClass) {
  EXPECT_EQ(HalfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xc000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(HalfToFloat(0x0200), std::ldexp(1.0f, -15));
  EXPECT_EQ(HalfToFloat(0x8000), -0.0f);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7c00)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7e00)));
}

TEST(DequantizeTest, Float16Tensor) {
  KernelRunner k("DEQUANTIZE");
  k.AddInput<uint16_t>(TensorType::kFloat16, {3}, {0x3c00, 0x3800, 0xc400});
  k.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 0.5f, -4}));
}

TEST(DequantizeTest, Int8PerChannel) {
  KernelRunner k("DEQUANTIZE");
  RuntimeTensor& in = k.AddInput<int8_t>(TensorType::kInt8, {2, 2}, {1, 2, -3, 4});
  Quantization q;
  q.scale = {0.5f, 2.0f};
  q.zero_point = {0, 1};
  q.quantized_dimension = 0;
  in.quantization = &q;
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0.5f, 1, -8, 6}));
}

// Packed int4 (two per byte, low nibble first, sign-extended): upstream's dequantize_test.cc Int4
// case, scale 0.5 and zero point -1 over 7, 6, -7, -8, 0, 1, 2, 3, 4, 5; uint4 and int2 likewise.
TEST(DequantizeTest, PackedSubByteTypes) {
  Quantization q;
  q.scale = {0.5f};
  q.zero_point = {-1};
  KernelRunner int4("DEQUANTIZE");
  // Nibbles 7, 6 | -7 (0x9), -8 (0x8) | 0, 1 | 2, 3 | 4, 5.
  int4.AddInput<uint8_t>(TensorType::kInt4, {2, 5}, {0x67, 0x89, 0x10, 0x32, 0x54}).quantization =
      &q;
  int4.AddOutput(TensorType::kFloat32, {2, 5});
  ASSERT_TRUE(int4.Run().ok());
  EXPECT_EQ(int4.Output<float>(),
            (std::vector<float>{4, 3.5f, -3, -3.5f, 0.5f, 1, 1.5f, 2, 2.5f, 3}));

  KernelRunner uint4("DEQUANTIZE");
  uint4.AddInput<uint8_t>(TensorType::kUInt4, {3}, {0xf9, 0x01}).quantization = &q;
  uint4.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(uint4.Run().ok());
  EXPECT_EQ(uint4.Output<float>(), (std::vector<float>{5, 8, 1}));

  KernelRunner int2("DEQUANTIZE");
  // Two-bit fields 1, 0, -1 (0b11), -2 (0b10), lowest first.
  int2.AddInput<uint8_t>(TensorType::kInt2, {4}, {0b10110001}).quantization = &q;
  int2.AddOutput(TensorType::kFloat32, {4});
  ASSERT_TRUE(int2.Run().ok());
  EXPECT_EQ(int2.Output<float>(), (std::vector<float>{1, 0.5f, 0, -0.5f}));
}

}  // namespace
}  // namespace tfa::runtime
