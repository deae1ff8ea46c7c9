#include "runtime/kernels/cpu/quantized_activations.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;

std::vector<int32_t> AllInt8() {
  std::vector<int32_t> v;
  for (int32_t i = -128; i <= 127; ++i) v.push_back(i);
  return v;
}

TEST(QuantizedActivationsTest, LogisticTableIsRoundedFloatSigmoid) {
  QuantizedRunner r("LOGISTIC");
  const float in_scale = 0.0625f;
  r.AddInput({TensorType::kInt8, {256}, AllInt8(), PerTensor(in_scale, -10)});
  r.AddOutput(TensorType::kInt8, {256}, PerTensor(1.0f / 256, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto out = r.Output(TensorType::kInt8);
  for (int32_t v = -128; v <= 127; ++v) {
    const float x = in_scale * static_cast<float>(v + 10);
    const float y = 1.0f / (1.0f + std::exp(-x));
    const auto expected = std::min(127, static_cast<int32_t>(std::round(y * 256.0f)) - 128);
    EXPECT_EQ(out[static_cast<size_t>(v + 128)], expected) << v;
  }
  EXPECT_EQ(out[118], 0);    // stored -10 is x = 0: sigmoid 0.5 -> 128 - 128
  EXPECT_EQ(out[255], 127);  // saturates
}

TEST(QuantizedActivationsTest, TanhOfZeroIsTheOutputZeroPoint) {
  QuantizedRunner r("TANH");
  r.AddInput({TensorType::kUInt8, {3}, {100, 0, 255}, PerTensor(0.05f, 100)});
  r.AddOutput(TensorType::kUInt8, {3}, PerTensor(1.0f / 128, 128));
  ASSERT_TRUE(r.runner().Run().ok());
  // tanh(0) = 0; tanh(-5) = -0.99991 -> 128 - 128 = 0; tanh(7.75) -> 128 + 128 clamps to 255.
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{128, 0, 255}));
}

// exp.cc's int8 table by hand (input scale 0.05, output scale 1/16, zero point -128):
// exp(0) = 1 -> 16 - 128; exp(1) = 2.718 -> 43 - 128; exp(2) = 7.389 -> 118 - 128; exp(-6.4)
// rounds to 0 -> -128; exp(6.35) saturates.
TEST(QuantizedActivationsTest, ExpOfInt8IsTheRoundedFloatExponential) {
  QuantizedRunner r("EXP");
  r.AddInput({TensorType::kInt8, {5}, {0, 20, 40, -128, 127}, PerTensor(0.05f, 0)});
  r.AddOutput(TensorType::kInt8, {5}, PerTensor(1.0f / 16, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{-112, -85, -10, -128, 127}));
}

// exp_test.cc ExpSymmetricInt16: input over [-1.3, 1.3], output over [-3.01, 3.01], both
// symmetric int16; upstream's figures within its tolerance for the 513-entry table.
TEST(QuantizedActivationsTest, ExpOfInt16AsUpstreamsTest) {
  const float in_scale = 1.3f / 32767, out_scale = 3.01f / 32767;
  const Quantization in = PerTensor(in_scale, 0), out = PerTensor(out_scale, 0);
  const std::vector<float> x{-1.3f, -1.0f, -0.3f, 0, 0.1f, 0.5f, 1.0f, 1.1f};
  std::vector<int16_t> stored;
  for (float v : x) stored.push_back(static_cast<int16_t>(std::lround(v / in_scale)));
  testing::KernelRunner k("EXP");
  k.AddInput(TensorType::kInt16, {1, 2, 2, 2}, stored).quantization = &in;
  k.AddOutput(TensorType::kInt16, {1, 2, 2, 2}).quantization = &out;
  ASSERT_TRUE(k.Run().ok());
  const std::vector<float> expected{0.2725f, 0.3679f, 0.7408f, 1.0f,
                                    1.1052f, 1.6487f, 2.7183f, 3.0042f};
  const float tolerance = 6.2f / 65535 + 6.2f / 512;
  const auto result = k.Output<int16_t>();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(static_cast<float>(result[i]) * out_scale, expected[i], tolerance) << i;
}

TEST(QuantizedActivationsTest, ExpOfUint8IsRefusedAsUpstreamsEvalRefusesIt) {
  QuantizedRunner r("EXP");
  r.AddInput({TensorType::kUInt8, {1}, {0}, PerTensor(0.05f, 0)});
  r.AddOutput(TensorType::kUInt8, {1}, PerTensor(1.0f / 16, 0));
  EXPECT_FALSE(r.runner().Run().ok());
}

TEST(QuantizedActivationsTest, Relu6RescalesThenClamps) {
  QuantizedRunner r("RELU6");
  // Input scale 0.1 zp 0 -> output scale 0.05 zp -100: x = -1, 0.5, 3, 7.
  r.AddInput({TensorType::kInt8, {4}, {-10, 5, 30, 70}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kInt8, {4}, PerTensor(0.05f, -100));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{-100, -90, -40, 20}));
}

TEST(QuantizedActivationsTest, PreluScalesNegativesByQuantizedAlphaPerChannel) {
  QuantizedRunner r("PRELU");
  // Input [1, 2, 2] at scale 0.5 zp 0; alpha [2] (0.25, 0.5) at scale 0.125 zp 0; output 0.25.
  r.AddInput({TensorType::kInt8, {1, 2, 2}, {4, -4, -8, 6}, PerTensor(0.5f, 0)});
  r.AddInput({TensorType::kInt8, {1, 1, 2}, {2, 4}, PerTensor(0.125f, 0)});
  r.AddOutput(TensorType::kInt8, {1, 2, 2}, PerTensor(0.25f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // 2.0 -> 8; -2.0 * 0.5 = -1.0 -> -4; -4.0 * 0.25 = -1.0 -> -4; 3.0 -> 12.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{8, -4, -4, 12}));
}

TEST(QuantizedActivationsTest, ReluOfInt8MatchesFloatOverEveryValue) {
  QuantizedRunner r("RELU");
  r.AddInput({TensorType::kInt8, {256}, AllInt8(), PerTensor(0.03f, 20)});
  r.AddOutput(TensorType::kInt8, {256}, PerTensor(0.02f, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto out = r.Output(TensorType::kInt8);
  for (int32_t v = -128; v <= 127; ++v) {
    const float y = std::max(0.0f, 0.03f * static_cast<float>(v - 20));
    const int32_t expected = std::min(127, static_cast<int32_t>(std::lround(y / 0.02f)) - 128);
    EXPECT_LE(std::abs(out[static_cast<size_t>(v + 128)] - expected), 1) << v;
  }
}

// upstream's activations_test.cc EluInt8: range [-8, 8) at 1/16, inputs {0, -6, 2, -4, 3, -2,
// 6, -0.1}, expected {0, -1, 2, -1, 3, -0.875, 6, -0.125}: stored values exactly.
TEST(QuantizedActivationsTest, EluOfInt8MatchesUpstream) {
  QuantizedRunner r("ELU");
  r.AddInput({TensorType::kInt8, {8}, {0, -96, 32, -64, 48, -32, 96, -2}, PerTensor(0.0625f, 0)});
  r.AddOutput(TensorType::kInt8, {8}, PerTensor(0.0625f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{0, -16, 32, -16, 48, -14, 96, -2}));
}

TEST(QuantizedActivationsTest, EluOfUint8IsRefusedAsUpstreamsEvalRefusesIt) {
  QuantizedRunner r("ELU");
  r.AddInput({TensorType::kUInt8, {1}, {0}, PerTensor(0.0625f, 128)});
  r.AddOutput(TensorType::kUInt8, {1}, PerTensor(0.0625f, 128));
  EXPECT_FALSE(r.runner().Run().ok());
}

// GELU's 8-bit table: gelu(-3, -2, -1, 0, 1, 2, 3) = -0.00405, -0.0455, -0.158655, 0, 0.841345,
// 1.9545, 2.99595, stored at 1/32 with zero point 0 (int8) or 128 (uint8), the exact form and
// the tanh approximation agreeing to within that step here.
TEST(QuantizedActivationsTest, GeluOfInt8AndUint8IsTheRoundedFloatGelu) {
  for (const bool approximate : {false, true}) {
    QuantizedRunner r("GELU");
    r.runner().node_data().gelu_approximate = approximate;
    r.AddInput({TensorType::kInt8, {7}, {-96, -64, -32, 0, 32, 64, 96}, PerTensor(1.0f / 32, 0)});
    r.AddOutput(TensorType::kInt8, {7}, PerTensor(1.0f / 32, 0));
    ASSERT_TRUE(r.runner().Run().ok());
    EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{0, -1, -5, 0, 27, 63, 96}));

    QuantizedRunner u("GELU");
    u.runner().node_data().gelu_approximate = approximate;
    u.AddInput({TensorType::kUInt8, {3}, {96, 128, 160}, PerTensor(1.0f / 32, 128)});
    u.AddOutput(TensorType::kUInt8, {3}, PerTensor(1.0f / 32, 128));
    ASSERT_TRUE(u.runner().Run().ok());
    EXPECT_EQ(u.Output(TensorType::kUInt8), (std::vector<int32_t>{123, 128, 155}));
  }
}

// SigmoidPrepare (kGenericOptimized) refuses an 8-bit output scale other than 1/256.
TEST(QuantizedActivationsTest, LogisticRefusesAnOutputScaleOtherThanOne256th) {
  QuantizedRunner r("LOGISTIC");
  r.AddInput({TensorType::kInt8, {1}, {0}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kInt8, {1}, PerTensor(1.0f / 128, 0));
  EXPECT_EQ(r.runner().Run().message(), "8-bit output scale must be 1/256, got 0.0078125");
}

// RELU_0_TO_1 on int8: clamp to [0, round(1 / scale)].
TEST(QuantizedActivationsTest, Relu0To1OfInt8ClampsToTheUnitInterval) {
  QuantizedRunner r("RELU_0_TO_1");
  r.AddInput({TensorType::kInt8, {4}, {-10, 0, 10, 100}, PerTensor(0.02f, 0)});
  r.AddOutput(TensorType::kInt8, {4}, PerTensor(0.02f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{0, 0, 10, 50}));
}

}  // namespace
}  // namespace tfa::runtime
