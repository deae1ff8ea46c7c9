// Expected values: the by-hand cases are worked out in their comments; the others come from a
// standalone transcription of upstream's reference_integer_ops::TransposeConv,
// reference_ops::TransposeConv (uint8), PopulateConvolutionQuantizationParams, QuantizeMultiplier
// and both MultiplyByQuantizedMultiplier forms, compiled apart from this project.
#include "runtime/kernels/cpu/quantized_transpose_conv.h"

#include <gtest/gtest.h>

#include <deque>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// A TRANSPOSE_CONV runner that keeps its tensors' quantizations alive.
class TransposeConvRunner {
 public:
  TransposeConvRunner(Padding padding, int32_t stride, Activation activation) {
    k_.options().padding = padding;
    k_.options().stride_h = k_.options().stride_w = stride;
    k_.options().fused_activation = activation;
  }

  template <typename T>
  void AddInput(TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
                Quantization q) {
    k_.AddInput(type, std::move(shape), values).quantization = &quantizations_.emplace_back(q);
  }
  void AddOutputShape(const std::vector<int32_t>& shape) {
    k_.AddInt32Input({static_cast<int32_t>(shape.size())}, shape);
  }
  void AddOutput(TensorType type, std::vector<int32_t> shape, Quantization q) {
    k_.AddOutput(type, std::move(shape)).quantization = &quantizations_.emplace_back(q);
  }
  KernelRunner& runner() { return k_; }

 private:
  KernelRunner k_{"TRANSPOSE_CONV"};
  std::deque<Quantization> quantizations_;
};

Quantization Scales(std::vector<float> scales, int64_t zero_point = 0) {
  Quantization q;
  q.zero_point.assign(scales.size(), zero_point);
  q.scale = std::move(scales);
  q.quantized_dimension = 0;
  return q;
}

// Input [3, -1] at scale 0.5, zero point 1: x - zp = [2, -2]. Two 1x2 filters, channel 0 [1, 2]
// at 0.5 and channel 1 [3, -1] at 0.25; bias [4, -8]; output scale 0.5: multipliers 0.5 and
// 0.25. Stride 1 VALID: output width 3.
//   channel 0: 2*1 + 4 = 6, 2*2 - 2*1 + 4 = 6, -2*2 + 4 = 0; halved: 3, 3, 0.
//   channel 1: 2*3 - 8 = -2, 2*-1 - 2*3 - 8 = -16, -2*-1 - 8 = -6; quartered with halves away
//   from zero: -1, -4, -2.
void AddHandCase(TransposeConvRunner& r) {
  r.AddOutputShape({1, 1, 3, 2});
  r.AddInput(TensorType::kInt8, {2, 1, 2, 1}, std::vector<int8_t>{1, 2, 3, -1},
             Scales({0.5f, 0.25f}));
  r.AddInput(TensorType::kInt8, {1, 1, 2, 1}, std::vector<int8_t>{3, -1}, Scales({0.5f}, 1));
  r.AddInput(TensorType::kInt32, {2}, std::vector<int32_t>{4, -8}, Scales({0.25f, 0.125f}));
  r.AddOutput(TensorType::kInt8, {1, 1, 3, 2}, Scales({0.5f}));
}

TEST(QuantizedTransposeConvTest, Int8PerChannelByHand) {
  TransposeConvRunner r(Padding::kValid, 1, Activation::kNone);
  AddHandCase(r);
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<int8_t>(), (std::vector<int8_t>{3, -1, 3, -4, 0, -2}));
}

TEST(QuantizedTransposeConvTest, FusedReluClampsAtTheOutputZeroPoint) {
  TransposeConvRunner r(Padding::kValid, 1, Activation::kRelu);
  AddHandCase(r);
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<int8_t>(), (std::vector<int8_t>{3, 0, 3, 0, 0, 0}));
}

// SAME, stride 2, 3x3 filters: neighbouring input pixels overlap on the output's odd rows and
// columns; SAME pads nothing before (total padding 1 goes after). Input scale 0.5, zero point 3;
// weight scales 0.25 and 0.125; output scale 1, zero point -5; bias [10, -40].
// By hand, output (0, 0) sees input (0, 0) (x - zp = 4) through tap (0, 0) only:
//   channel 0: (4*1 + 10) * 0.125 = 1.75 -> 2 - 5 = -3;
//   channel 1: (4*-3 - 40) * 0.0625 = -3.25 -> -3 - 5 = -8, which RELU raises to -5.
void AddSameStrideTwoCase(TransposeConvRunner& r) {
  r.AddOutputShape({1, 4, 4, 2});
  r.AddInput(TensorType::kInt8, {2, 3, 3, 1},
             std::vector<int8_t>{1, 2, 1, 2, 4, 2, 1, 2, 1, -3, 0, 5, 7, -1, 2, 0, 4, -6},
             Scales({0.25f, 0.125f}));
  r.AddInput(TensorType::kInt8, {1, 2, 2, 1}, std::vector<int8_t>{7, -5, 13, 3}, Scales({0.5f}, 3));
  r.AddInput(TensorType::kInt32, {2}, std::vector<int32_t>{10, -40}, Scales({0.125f, 0.0625f}));
  r.AddOutput(TensorType::kInt8, {1, 4, 4, 2}, Scales({1.0f}, -5));
}

TEST(QuantizedTransposeConvTest, Int8SameStrideTwoOverlappingTaps) {
  TransposeConvRunner r(Padding::kSame, 2, Activation::kNone);
  AddSameStrideTwoCase(r);
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(
      r.runner().Output<int8_t>(),
      (std::vector<int8_t>{-3, -8, -3, -8, -4, -5, -6, -8,  -3, -6, -2, -8, -5, -11, -8, -7,
                           -2, -9, 0,  -7, -3, -6, -6, -10, -1, -3, 1,  -8, -1, -6,  -4, -8}));
}

TEST(QuantizedTransposeConvTest, Int8SameStrideTwoWithRelu) {
  TransposeConvRunner r(Padding::kSame, 2, Activation::kRelu);
  AddSameStrideTwoCase(r);
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<int8_t>(),
            (std::vector<int8_t>{-3, -5, -3, -5, -4, -5, -5, -5, -3, -5, -2, -5, -5, -5, -5, -5,
                                 -2, -5, 0,  -5, -3, -5, -5, -5, -1, -3, 1,  -5, -1, -5, -4, -5}));
}

// Scales that no power of two gives (0.0473 in, 0.0031/0.0077/0.0123 weights, 0.0291 out), two
// images, two input channels, no bias, RELU6: stored bounds [11, 127] (6 / 0.0291 + 11 > 127).
TEST(QuantizedTransposeConvTest, Int8AwkwardScalesBatchesAndRelu6) {
  TransposeConvRunner r(Padding::kValid, 2, Activation::kRelu6);
  r.AddOutputShape({2, 4, 4, 3});
  r.AddInput(TensorType::kInt8, {3, 2, 2, 2},
             std::vector<int8_t>{127,  -127, 55, 3,   -20, 99, 0,   -64, 18, 33,  -1,  127,
                                 -128, 7,    81, -90, 60,  60, -60, 44,  2,  -33, 120, -77},
             Scales({0.0031f, 0.0077f, 0.0123f}));
  r.AddInput(
      TensorType::kInt8, {2, 2, 2, 2},
      std::vector<int8_t>{100, -128, 37, 127, -50, 0, 64, -3, 5, 90, -100, 45, 127, 127, -128, 12},
      Scales({0.0473f}, -7));
  r.AddOutput(TensorType::kInt8, {2, 4, 4, 3}, Scales({0.0291f}, 11));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<int8_t>(),
            (std::vector<int8_t>{127, 11, 11,  39,  11,  11,  11,  76,  127, 25, 127, 76,  11, 11,
                                 95,  50, 127, 127, 73,  11,  11,  11,  11,  11, 11,  11,  11, 11,
                                 23,  69, 54,  29,  101, 31,  16,  11,  19,  81, 11,  11,  11, 11,
                                 11,  11, 11,  11,  78,  127, 11,  54,  127, 16, 127, 82,  11, 12,
                                 11,  11, 95,  127, 58,  11,  11,  11,  11,  11, 46,  127, 11, 11,
                                 11,  11, 11,  97,  127, 50,  127, 11,  11,  11, 11,  11,  43, 127,
                                 64,  11, 11,  11,  11,  126, 33,  127, 11,  11, 11,  11}));
}

// 16x8: int16 input at 0.01, weights per channel at 0.02 / 0.03 / 0.05, int64 bias, output
// 0.05; the int64 accumulator and the 64-bit rescale (multiplier cut to 16 bits).
void Add16x8Case(TransposeConvRunner& r) {
  r.AddOutputShape({1, 4, 4, 3});
  r.AddInput(TensorType::kInt8, {3, 2, 2, 2},
             std::vector<int8_t>{10,   -20, 30, 40, -50, 60,  70, -80, 90, 100, -110, 120,
                                 -127, 127, 1,  -1, 64,  -64, 32, 16,  8,  4,   2,    1},
             Scales({0.02f, 0.03f, 0.05f}));
  r.AddInput(TensorType::kInt16, {1, 2, 2, 2},
             std::vector<int16_t>{1000, -2000, 3000, 500, -1500, 2500, 100, -100}, Scales({0.01f}));
  r.AddInput(TensorType::kInt64, {3}, std::vector<int64_t>{100000, -50000, 7}, Scales({0.0f}));
  r.AddOutput(TensorType::kInt16, {1, 4, 4, 3}, Scales({0.05f}));
}

TEST(QuantizedTransposeConvTest, Int16x8PerChannelWithInt64Bias) {
  TransposeConvRunner r(Padding::kValid, 2, Activation::kNone);
  Add16x8Case(r);
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<int16_t>(),
            (std::vector<int16_t>{600,   -960, 1920, 200,   -2400, 0,    480,   1620, 1600, 840,
                                  -1920, 1040, -280, -2586, 0,     1320, -282,  0,    -80,  -2205,
                                  260,   1080, -285, 65,    140,   390,  -2560, 620,  2490, -80,
                                  412,   -306, 128,  396,   -438,  16,   1300,  2748, -20,  -820,
                                  -324,  -5,   356,  -452,  4,     460,  -299,  1}));
}

TEST(QuantizedTransposeConvTest, Int16x8FusedReluClampsAtZero) {
  TransposeConvRunner r(Padding::kValid, 2, Activation::kRelu);
  Add16x8Case(r);
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<int16_t>(),
            (std::vector<int16_t>{600,  0,    1920, 200,  0,    0, 480, 1620, 1600, 840,  0, 1040,
                                  0,    0,    0,    1320, 0,    0, 0,   0,    260,  1080, 0, 65,
                                  140,  390,  0,    620,  2490, 0, 412, 0,    128,  396,  0, 16,
                                  1300, 2748, 0,    0,    0,    0, 356, 0,    4,    460,  0, 1}));
}

// One tap: 31496 * 127 + 28 = 4000020, rescaled by 1/130 (30769.38). With an int32 bias (what
// upstream runs when quantized_bias_type is INT32) the 32-bit multiplier 2114445438 / 2^38 gives
// 30769; with an int64 bias the multiplier cut to 16 bits, 32264 / 2^22, gives 30769.502: 30770.
TEST(QuantizedTransposeConvTest, Int16x8BiasTypePicksTheRescale) {
  for (const bool int64_bias : {false, true}) {
    TransposeConvRunner r(Padding::kValid, 1, Activation::kNone);
    r.AddOutputShape({1, 1, 1, 1});
    r.AddInput(TensorType::kInt8, {1, 1, 1, 1}, std::vector<int8_t>{127}, Scales({1.0f}));
    r.AddInput(TensorType::kInt16, {1, 1, 1, 1}, std::vector<int16_t>{31496}, Scales({1.0f}));
    if (int64_bias) {
      r.AddInput(TensorType::kInt64, {1}, std::vector<int64_t>{28}, Scales({1.0f}));
    } else {
      r.AddInput(TensorType::kInt32, {1}, std::vector<int32_t>{28}, Scales({1.0f}));
    }
    r.AddOutput(TensorType::kInt16, {1, 1, 1, 1}, Scales({130.0f}));
    ASSERT_TRUE(r.runner().Run().ok());
    EXPECT_EQ(r.runner().Output<int16_t>(),
              (std::vector<int16_t>{int64_bias ? int16_t{30770} : int16_t{30769}}));
  }
}

// uint8 with zero points on input (128), weights (120) and output (100); SAME stride 1 over a
// 2x3 image with 3x3 filters; bias scale input_scale * weight_scale.
TEST(QuantizedTransposeConvTest, Uint8WithWeightZeroPoint) {
  TransposeConvRunner r(Padding::kSame, 1, Activation::kNone);
  r.AddOutputShape({1, 2, 3, 2});
  r.AddInput(TensorType::kUInt8, {2, 3, 3, 1},
             std::vector<uint8_t>{120, 121, 122, 123, 124, 125, 126, 127, 128, 200, 100, 120, 120,
                                  255, 0, 130, 110, 120},
             Scales({0.02f}, 120));
  r.AddInput(TensorType::kUInt8, {1, 2, 3, 1}, std::vector<uint8_t>{128, 138, 118, 200, 60, 130},
             Scales({0.1f}, 128));
  r.AddInput(TensorType::kInt32, {2}, std::vector<int32_t>{50, -25}, Scales({0.1f * 0.02f}));
  r.AddOutput(TensorType::kUInt8, {1, 2, 3, 2}, Scales({0.05f}, 100));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.runner().Output<uint8_t>(),
            (std::vector<uint8_t>{106, 0, 105, 214, 97, 0, 108, 255, 106, 0, 89, 255}));
}

TEST(QuantizedTransposeConvTest, Int16WithNonzeroZeroPointIsRefused) {
  TransposeConvRunner r(Padding::kValid, 1, Activation::kNone);
  r.AddOutputShape({1, 1, 1, 1});
  r.AddInput(TensorType::kInt8, {1, 1, 1, 1}, std::vector<int8_t>{1}, Scales({1.0f}));
  r.AddInput(TensorType::kInt16, {1, 1, 1, 1}, std::vector<int16_t>{1}, Scales({1.0f}, 4));
  r.AddOutput(TensorType::kInt16, {1, 1, 1, 1}, Scales({1.0f}));
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "int16 activations must have zero point 0");
}

TEST(QuantizedTransposeConvTest, PlannedOutputShapeMustMatchTheShapeInput) {
  TransposeConvRunner r(Padding::kValid, 2, Activation::kNone);
  r.AddOutputShape({1, 4, 4, 1});
  r.AddInput(TensorType::kInt8, {1, 2, 2, 1}, std::vector<int8_t>{1, 1, 1, 1}, Scales({1.0f}));
  r.AddInput(TensorType::kInt8, {1, 2, 2, 1}, std::vector<int8_t>{1, 2, 3, 4}, Scales({1.0f}));
  r.AddOutput(TensorType::kInt8, {1, 3, 3, 1}, Scales({1.0f}));
  EXPECT_FALSE(r.runner().Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
