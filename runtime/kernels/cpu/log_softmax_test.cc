#include "runtime/kernels/cpu/log_softmax.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;
using testing::QuantizedRunner;

// Expected 8-bit values not derived by hand below come from a standalone transcription of
// upstream's x86-64 path (optimized_ops.h PopulateSoftmaxLookupTable and LogSoftmax<T>, LiteRT
// 007168de), compiled apart from this kernel; the hand derivations agree with them.

TEST(LogSoftmaxTest, FloatRows) {
  KernelRunner k("LOG_SOFTMAX");
  k.AddFloatInput({2, 3}, {1, 2, 3, 5, 5, 5});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  const std::vector<float> y = k.Output();
  // log(e^-2 + e^-1 + 1) = 0.40760596; log 3 = 1.09861229.
  const std::vector<float> expected{-2.40760596f, -1.40760596f, -0.40760596f,
                                    -1.09861229f, -1.09861229f, -1.09861229f};
  ASSERT_EQ(y.size(), expected.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-6f) << i;
}

TEST(LogSoftmaxTest, FloatLargeInputsDoNotOverflow) {
  KernelRunner k("LOG_SOFTMAX");
  k.AddFloatInput({1, 2}, {1000, 0});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  ASSERT_TRUE(k.Run().ok());
  const std::vector<float> y = k.Output();
  EXPECT_EQ(y[0], 0.0f);  // log(1 + e^-1000) is 0 in float
  EXPECT_EQ(y[1], -1000.0f);
}

TEST(LogSoftmaxTest, EqualInt8InputsShareTheLogProbability) {
  QuantizedRunner r("LOG_SOFTMAX");
  r.AddInput({TensorType::kInt8, {1, 4}, {9, 9, 9, 9}, PerTensor(0.25f, 0)});
  r.AddOutput(TensorType::kInt8, {1, 4}, PerTensor(16.0f / 256, 127));
  ASSERT_TRUE(r.runner().Run().ok());
  // log(1/4) / (16/256) = -22.18 -> -22, stored -22 + 127.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{105, 105, 105, 105}));
}

TEST(LogSoftmaxTest, Int8RowsClampAtTheLowestValue) {
  QuantizedRunner r("LOG_SOFTMAX");
  r.AddInput({TensorType::kInt8, {2, 4}, {-128, -50, 0, 10, 20, 20, 21, 127}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kInt8, {2, 4}, PerTensor(16.0f / 256, 127));
  ASSERT_TRUE(r.runner().Run().ok());
  // Row 0: x = {-12.8, -5, 0, 1}, log-sum-exp 1.3150: {-14.115, -6.315, -1.315, -0.315} * 16 =
  // {-225.8, -101.0, -21.0, -5.0} -> {-226 (clamps), -101, -21, -5} + 127.
  EXPECT_EQ(r.Output(TensorType::kInt8),
            (std::vector<int32_t>{-99, 26, 106, 122, -44, -44, -43, 127}));
}

TEST(LogSoftmaxTest, LogProbabilityBelowMinusSixteenSaturates) {
  QuantizedRunner r("LOG_SOFTMAX");
  r.AddInput({TensorType::kInt8, {1, 2}, {127, -128}, PerTensor(1.0f, 0)});
  r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(16.0f / 256, 127));
  ASSERT_TRUE(r.runner().Run().ok());
  // {0, -255}: the second is -4080 units, far below -128.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{127, -128}));
}

TEST(LogSoftmaxTest, Uint8Rows) {
  QuantizedRunner r("LOG_SOFTMAX");
  r.AddInput({TensorType::kUInt8, {2, 3}, {0, 16, 32, 200, 190, 255}, PerTensor(0.0625f, 10)});
  r.AddOutput(TensorType::kUInt8, {2, 3}, PerTensor(16.0f / 256, 255));
  ASSERT_TRUE(r.runner().Run().ok());
  // Row 0: x = {0, 1, 2} (the zero point cancels): {-2.408, -1.408, -0.408} * 16 =
  // {-38.5, -22.5, -6.5} -> {-39, -23, -7} + 255.
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{216, 232, 248, 199, 189, 254}));
}

TEST(LogSoftmaxTest, OutputQuantizationIsFixed) {
  {
    QuantizedRunner r("LOG_SOFTMAX");
    r.AddInput({TensorType::kUInt8, {1, 2}, {0, 0}, PerTensor(0.1f, 0)});
    r.AddOutput(TensorType::kUInt8, {1, 2}, PerTensor(16.0f / 256, 127));
    const Status s = r.runner().Run();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(),
              "uint8 output must have zero point 255 (upstream's fixed log_softmax quantization), "
              "got 127");
  }
  {
    QuantizedRunner r("LOG_SOFTMAX");
    r.AddInput({TensorType::kInt8, {1, 2}, {0, 0}, PerTensor(0.1f, 0)});
    r.AddOutput(TensorType::kInt8, {1, 2}, PerTensor(1.0f / 256, 127));
    const Status s = r.runner().Run();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(),
              "output must have scale 16/256 (upstream's fixed log_softmax quantization), got "
              "0.00390625");
  }
  {
    QuantizedRunner r("LOG_SOFTMAX");
    r.AddInput({TensorType::kInt8, {1, 2}, {0, 0}, PerTensor(0.1f, 0)});
    r.AddOutput(TensorType::kUInt8, {1, 2}, PerTensor(16.0f / 256, 255));
    EXPECT_FALSE(r.runner().Run().ok());  // input and output types must match
  }
}

}  // namespace
}  // namespace tfa::runtime
