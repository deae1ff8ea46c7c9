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

}  // namespace
}  // namespace tfa::runtime
