#include "runtime/kernels/cpu/quantized_pooling.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;

void Window(OpOptions& o, Padding padding) {
  o.padding = padding;
  o.filter_h = o.filter_w = 2;
  o.stride_h = o.stride_w = 2;
}

TEST(QuantizedPoolingTest, AverageRoundsHalfAwayFromZeroOverInImageTaps) {
  QuantizedRunner r("AVERAGE_POOL_2D");
  Window(r.runner().options(), Padding::kSame);
  // 3x3 image, one channel: windows of 4, 2, 2 and 1 taps.
  r.AddInput({TensorType::kInt8, {1, 3, 3, 1}, {1, 2, -7, 2, 2, -8, 5, 6, 9}, PerTensor(1.0f, 0)});
  r.AddOutput(TensorType::kInt8, {1, 2, 2, 1}, PerTensor(1.0f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // 7/4 = 1.75 -> 2; -15/2 = -7.5 -> -8; 11/2 = 5.5 -> 6; 9.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{2, -8, 6, 9}));
}

TEST(QuantizedPoolingTest, MaxClampsToTheFusedActivation) {
  QuantizedRunner r("MAX_POOL_2D");
  Window(r.runner().options(), Padding::kValid);
  r.runner().options().fused_activation = Activation::kRelu;
  r.AddInput(
      {TensorType::kUInt8, {1, 2, 2, 2}, {10, 200, 30, 40, 20, 60, 5, 90}, PerTensor(0.5f, 50)});
  r.AddOutput(TensorType::kUInt8, {1, 1, 1, 2}, PerTensor(0.5f, 50));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{50, 200}));
}

TEST(QuantizedPoolingTest, RequantizingPoolIsRefused) {
  QuantizedRunner r("MAX_POOL_2D");
  Window(r.runner().options(), Padding::kValid);
  r.AddInput({TensorType::kInt8, {1, 2, 2, 1}, {1, 2, 3, 4}, PerTensor(0.5f, 0)});
  r.AddOutput(TensorType::kInt8, {1, 1, 1, 1}, PerTensor(0.25f, 0));
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "input and output quantization differ");
}

// int16 pools (16x8 models) run the same arithmetic on int16 storage: averages past the int8
// range, rounding half away from zero; RELU6 clamps the maximum at round(6 / scale).
TEST(QuantizedPoolingTest, Int16AverageAndMax) {
  Quantization q{{0.001f}, {0}, 0};
  testing::KernelRunner avg("AVERAGE_POOL_2D");
  Window(avg.options(), Padding::kValid);
  avg.AddInput(TensorType::kInt16, {1, 2, 2, 1}, std::vector<int16_t>{30000, 20001, -1000, -3})
      .quantization = &q;
  avg.AddOutput(TensorType::kInt16, {1, 1, 1, 1}).quantization = &q;
  ASSERT_TRUE(avg.Run().ok());
  // 48998 / 4 = 12249.5 -> 12250.
  EXPECT_EQ(avg.Output<int16_t>(), (std::vector<int16_t>{12250}));

  testing::KernelRunner max("MAX_POOL_2D");
  Window(max.options(), Padding::kValid);
  max.options().fused_activation = Activation::kRelu6;
  max.AddInput(TensorType::kInt16, {1, 2, 2, 1}, std::vector<int16_t>{30000, 20001, -1000, -3})
      .quantization = &q;
  max.AddOutput(TensorType::kInt16, {1, 1, 1, 1}).quantization = &q;
  ASSERT_TRUE(max.Run().ok());
  EXPECT_EQ(max.Output<int16_t>(), (std::vector<int16_t>{6000}));
}

}  // namespace
}  // namespace tfa::runtime
