#include "runtime/kernels/cpu/int16x8_conv.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// The 64-bit rescale: the multiplier is rounded to 16 bits first (2^30 -> 2^14), then one
// rounding shift. 0.5 * 2^(shift 0): 40 -> 20, 41 -> 21 (20.5 rounds up), -41 -> -20.
TEST(Int16x8ConvTest, SixtyFourBitRescale) {
  const QuantizedMultiplier half{1 << 30, 0};
  EXPECT_EQ(MultiplyByQuantizedMultiplierInt64(40, half), 20);
  EXPECT_EQ(MultiplyByQuantizedMultiplierInt64(41, half), 21);
  EXPECT_EQ(MultiplyByQuantizedMultiplierInt64(-41, half), -20);
}

// int16 input [100, -50] at scale 0.5, weights [[1, 2]] at 0.25, int64 bias 40, output scale 1:
// acc = 100 - 100 + 40 = 40, times 0.125 = 5.
TEST(Int16x8ConvTest, FullyConnectedWithInt64Bias) {
  KernelRunner k("FULLY_CONNECTED");
  Quantization input_q{{0.5f}, {0}, 0}, weight_q{{0.25f}, {0}, 0}, output_q{{1.0f}, {0}, 0};
  k.AddInput(TensorType::kInt16, {1, 2}, std::vector<int16_t>{100, -50}).quantization = &input_q;
  k.AddInput(TensorType::kInt8, {1, 2}, std::vector<int8_t>{1, 2}).quantization = &weight_q;
  k.AddInput(TensorType::kInt64, {1}, std::vector<int64_t>{40});
  k.AddOutput(TensorType::kInt16, {1, 1}).quantization = &output_q;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{5}));
}

// 1x1 convolution, two output channels with their own scales (0.25 and 0.5): input 80 at 0.5
// -> 80 * 1 * 0.125 = 10 and 80 * -1 * 0.25 = -20; RELU clamps the second to 0.
TEST(Int16x8ConvTest, PerChannelConvWithRelu) {
  KernelRunner k("CONV_2D");
  k.options().padding = Padding::kValid;
  k.options().fused_activation = Activation::kRelu;
  Quantization input_q{{0.5f}, {0}, 0}, weight_q{{0.25f, 0.5f}, {0, 0}, 0},
      output_q{{1.0f}, {0}, 0};
  k.AddInput(TensorType::kInt16, {1, 1, 1, 1}, std::vector<int16_t>{80}).quantization = &input_q;
  k.AddInput(TensorType::kInt8, {2, 1, 1, 1}, std::vector<int8_t>{1, -1}).quantization = &weight_q;
  k.AddOutput(TensorType::kInt16, {1, 1, 1, 2}).quantization = &output_q;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{10, 0}));
}

// Depthwise 1x2 window over [10, 20] with weights [3, 1], scales 1 x 1 / 1: 30 + 20 = 50.
TEST(Int16x8ConvTest, Depthwise) {
  KernelRunner k("DEPTHWISE_CONV_2D");
  k.options().padding = Padding::kValid;
  Quantization unit{{1.0f}, {0}, 0}, weight_q{{1.0f}, {0}, 3};
  k.AddInput(TensorType::kInt16, {1, 1, 2, 1}, std::vector<int16_t>{10, 20}).quantization = &unit;
  k.AddInput(TensorType::kInt8, {1, 1, 2, 1}, std::vector<int8_t>{3, 1}).quantization = &weight_q;
  k.AddOutput(TensorType::kInt16, {1, 1, 1, 1}).quantization = &unit;
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int16_t>(), (std::vector<int16_t>{50}));
}

TEST(Int16x8ConvTest, RefusesNonZeroActivationZeroPoint) {
  KernelRunner k("FULLY_CONNECTED");
  Quantization input_q{{0.5f}, {3}, 0}, weight_q{{0.25f}, {0}, 0}, output_q{{1.0f}, {0}, 0};
  k.AddInput(TensorType::kInt16, {1, 1}, std::vector<int16_t>{1}).quantization = &input_q;
  k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{1}).quantization = &weight_q;
  k.AddOutput(TensorType::kInt16, {1, 1}).quantization = &output_q;
  EXPECT_FALSE(k.Run().ok());
}

// depthwise_conv.cc takes only an int64 bias with int16 input; CONV_2D and FULLY_CONNECTED
// also take int32.
TEST(Int16x8ConvTest, DepthwiseRefusesAnInt32Bias) {
  KernelRunner k("DEPTHWISE_CONV_2D");
  k.options().padding = Padding::kValid;
  Quantization unit{{1.0f}, {0}, 0}, weight_q{{1.0f}, {0}, 3};
  k.AddInput(TensorType::kInt16, {1, 1, 2, 1}, std::vector<int16_t>{10, 20}).quantization = &unit;
  k.AddInput(TensorType::kInt8, {1, 1, 2, 1}, std::vector<int8_t>{3, 1}).quantization = &weight_q;
  k.AddInput(TensorType::kInt32, {1}, std::vector<int32_t>{5});
  k.AddOutput(TensorType::kInt16, {1, 1, 1, 1}).quantization = &unit;
  EXPECT_EQ(k.Run().message(),
            "the bias of an int16 input must be int64, as upstream's requires, got int32");
}

}  // namespace
}  // namespace tfa::runtime
