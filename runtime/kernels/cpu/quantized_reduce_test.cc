#include "runtime/kernels/cpu/quantized_reduce.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::PseudoRandomValues;
using testing::QuantizedRunner;

TEST(QuantizedReduceTest, MeanWithoutKeepDimsFoldsTheCountIntoTheMultiplier) {
  QuantizedRunner r("MEAN");
  // Two channels over a 1x3 image: (1, 2, 4) and (-5, -6, -6) around zero point 2.
  r.AddInput({TensorType::kInt8, {1, 1, 3, 2}, {3, -3, 4, -4, 6, -4}, PerTensor(0.5f, 2)});
  r.runner().AddInt32Input({2}, {1, 2});
  r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(0.25f, -1));
  ASSERT_TRUE(r.runner().Run().ok());
  // Means 7/3 * 0.5 = 1.1667 -> 4.67 -> 5 - 1 = 4; -17/3 * 0.5 = -2.83 -> -11.33 -> -11 - 1.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{4, -12}));
}

TEST(QuantizedReduceTest, SpatialMeanWithKeepDimsMatchesFloatWithinOneUnit) {
  for (bool keep_dims : {true, false}) {
    QuantizedRunner r("MEAN");
    r.runner().options().keep_dims = keep_dims;
    const auto values = PseudoRandomValues(7 * 7 * 5, -128, 127, 3);
    r.AddInput({TensorType::kInt8, {1, 7, 7, 5}, values, PerTensor(0.1f, -7)});
    r.runner().AddInt32Input({2}, {1, 2});
    const std::vector<int32_t> shape =
        keep_dims ? std::vector<int32_t>{1, 1, 1, 5} : std::vector<int32_t>{1, 5};
    r.AddOutput(TensorType::kInt8, shape, PerTensor(0.02f, 3));
    ASSERT_TRUE(r.runner().Run().ok());
    const auto out = r.Output(TensorType::kInt8);
    for (int c = 0; c < 5; ++c) {
      double sum = 0;
      for (int p = 0; p < 49; ++p) sum += 0.1 * (values[static_cast<size_t>(p * 5 + c)] + 7);
      const auto expected = static_cast<int32_t>(std::lround(sum / 49 / 0.02)) + 3;
      EXPECT_LE(std::abs(out[static_cast<size_t>(c)] - std::clamp(expected, -128, 127)), 1)
          << c << (keep_dims ? " keep_dims" : "");
    }
  }
}

// Upstream's reduce_test.cc ConstMeanOpTestNonSameScale on int16 (facts copied): symmetric
// scales 1 / 32767 in, 5 / 32767 out, means 0.25 and 0.65 within two output steps.
TEST(QuantizedReduceTest, Int16MeanUpstreamCase) {
  const float in_scale = 1.0f / 32767, out_scale = 5.0f / 32767;
  QuantizedRunner r("MEAN");
  r.AddInput({TensorType::kInt16,
              {1, 1, 2, 4},
              testing::Quantize({0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f}, in_scale, 0,
                                TensorType::kInt16),
              PerTensor(in_scale, 0)});
  r.runner().AddInt32Input({2}, {1, 3});
  r.AddOutput(TensorType::kInt16, {1, 2}, PerTensor(out_scale, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto real = testing::Dequantize(r.Output(TensorType::kInt16), out_scale, 0);
  EXPECT_NEAR(real[0], 0.25f, 2 * 10.0f / 65535);
  EXPECT_NEAR(real[1], 0.65f, 2 * 10.0f / 65535);
}

TEST(QuantizedReduceTest, Int16MeanRefusesZeroPoints) {
  QuantizedRunner r("MEAN");
  r.AddInput({TensorType::kInt16, {2}, {1, 2}, PerTensor(0.5f, 1)});
  r.runner().AddInt32Input({1}, {0});
  r.AddOutput(TensorType::kInt16, {}, PerTensor(0.5f, 0));
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "int16 quantization is symmetric: every zero point must be 0");
}

// Upstream's reduce_test.cc ConstInt8SumOpTest.Rescale and ConstUint8SumOpTest
// NotKeepDimsRescaling (facts copied): sums 1.2 and 0.9 (1.2 and 1.2) within one output step.
TEST(QuantizedReduceTest, SumUpstreamRescaleCases) {
  QuantizedRunner int8("SUM");
  const float in8 = 2.0f / 255, out8 = 10.0f / 255;
  int8.AddInput(
      {TensorType::kInt8,
       {1, 3, 2},
       testing::Quantize({0.4f, 0.2f, 0.3f, 0.4f, 0.5f, 0.3f}, in8, -1, TensorType::kInt8),
       PerTensor(in8, -1)});
  int8.runner().AddInt32Input({1}, {1});
  int8.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(out8, -1));
  ASSERT_TRUE(int8.runner().Run().ok());
  const auto real8 = testing::Dequantize(int8.Output(TensorType::kInt8), out8, -1);
  EXPECT_NEAR(real8[0], 1.2f, out8);
  EXPECT_NEAR(real8[1], 0.9f, out8);

  QuantizedRunner uint8("SUM");
  const float in_u = 1.0f / 255, out_u = 2.0f / 255;
  uint8.AddInput(
      {TensorType::kUInt8,
       {1, 3, 2},
       testing::Quantize({0.4f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f}, in_u, 0, TensorType::kUInt8),
       PerTensor(in_u, 0)});
  uint8.runner().AddInt32Input({1}, {1});
  uint8.AddOutput(TensorType::kUInt8, {1, 2}, PerTensor(out_u, 0));
  ASSERT_TRUE(uint8.runner().Run().ok());
  const auto real_u = testing::Dequantize(uint8.Output(TensorType::kUInt8), out_u, 0);
  EXPECT_NEAR(real_u[0], 1.2f, out_u);
  EXPECT_NEAR(real_u[1], 1.2f, out_u);
}

// optimized_ops::QuantizedMeanOrSum's float rescale by hand: int16 sums 300 and -301 at scale
// ratio 0.5 give 150 and -150.5, rounded half away from zero to -151.
TEST(QuantizedReduceTest, Int16SumRescalesInFloat) {
  QuantizedRunner r("SUM");
  r.AddInput({TensorType::kInt16, {2, 2}, {100, 200, -100, -201}, PerTensor(0.25f, 0)});
  r.runner().AddInt32Input({1}, {1});
  r.AddOutput(TensorType::kInt16, {2}, PerTensor(0.5f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt16), (std::vector<int32_t>{150, -151}));
}

// reduce_test.cc ConstInt16SumOpTest.Rescale and DynamicUint8SumOpTest.NotKeepDims (facts
// copied): symmetric int16 over [-1, 1] summed into [-2, 2]; uint8 over [-5, 2] (scale 7/255,
// zero point 182) summed with the same quantization, the zero point folded out.
TEST(QuantizedReduceTest, SumUpstreamInt16AndSameScaleUint8Cases) {
  const float in16 = 1.0f / 32767, out16 = 2.0f / 32767;
  QuantizedRunner int16("SUM");
  int16.AddInput(
      {TensorType::kInt16,
       {1, 3, 2},
       testing::Quantize({0.4f, 0.2f, 0.3f, 0.4f, 0.5f, 0.3f}, in16, 0, TensorType::kInt16),
       PerTensor(in16, 0)});
  int16.runner().AddInt32Input({1}, {1});
  int16.AddOutput(TensorType::kInt16, {1, 2}, PerTensor(out16, 0));
  ASSERT_TRUE(int16.runner().Run().ok());
  const auto real16 = testing::Dequantize(int16.Output(TensorType::kInt16), out16, 0);
  EXPECT_NEAR(real16[0], 1.2f, 10.0f / 65535);
  EXPECT_NEAR(real16[1], 0.9f, 10.0f / 65535);

  const float scale = 7.0f / 255;
  QuantizedRunner uint8("SUM");
  uint8.AddInput({TensorType::kUInt8,
                  {2, 2},
                  testing::Quantize({1.3f, -4.8f, -3.6f, 0.24f}, scale, 182, TensorType::kUInt8),
                  PerTensor(scale, 182)});
  uint8.runner().AddInt32Input({1}, {1});
  uint8.AddOutput(TensorType::kUInt8, {2}, PerTensor(scale, 182));
  ASSERT_TRUE(uint8.runner().Run().ok());
  const auto real_u = testing::Dequantize(uint8.Output(TensorType::kUInt8), scale, 182);
  EXPECT_NEAR(real_u[0], -3.5f, scale);
  EXPECT_NEAR(real_u[1], -3.36f, scale);
}

}  // namespace
}  // namespace tfa::runtime
