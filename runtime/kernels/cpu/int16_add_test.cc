#include "runtime/kernels/cpu/int16_add.h"

#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::Dequantize;
using testing::KernelRunner;
using testing::PerTensor;
using testing::Quantize;

struct Int16Add {
  KernelRunner runner{"ADD"};
  std::deque<Quantization> quantizations;

  void Input(std::vector<int32_t> shape, const std::vector<int16_t>& values,
             std::optional<Quantization> q) {
    RuntimeTensor& t = runner.AddInput(TensorType::kInt16, std::move(shape), values);
    if (q) t.quantization = &quantizations.emplace_back(*q);
  }
  void Output(std::vector<int32_t> shape, std::optional<Quantization> q) {
    RuntimeTensor& t = runner.AddOutput(TensorType::kInt16, std::move(shape));
    if (q) t.quantization = &quantizations.emplace_back(*q);
  }
};

// 16x8 models (pot_scale_int16 false): the values are upstream's arithmetic worked by hand
// (shift 15, multipliers 0.25, 0.5 and 2^16 * 0.002 / 0.003 as Q31); each is the float sum
// rounded, and the extremes saturate.
TEST(Int16AddTest, GeneralScalesRescaleBothInputsWithFifteenBitsOfHeadroom) {
  Int16Add add;
  add.runner.options().pot_scale_int16 = false;
  add.Input({5}, {1000, -2000, 32767, -32768, 7}, PerTensor(0.001f, 0));
  add.Input({5}, {500, 300, 32767, -32768, -3}, PerTensor(0.002f, 0));
  add.Output({5}, PerTensor(0.003f, 0));
  ASSERT_TRUE(add.runner.Run().ok());
  EXPECT_EQ(add.runner.Output<int16_t>(), (std::vector<int16_t>{667, -467, 32767, -32768, 0}));
}

TEST(Int16AddTest, GeneralScalesBroadcast) {
  Int16Add add;
  add.runner.options().pot_scale_int16 = false;
  add.runner.options().fused_activation = Activation::kRelu;
  add.Input({2, 2}, {1000, -2000, 32767, 7}, PerTensor(0.001f, 0));
  add.Input({2, 1}, {500, -3}, PerTensor(0.002f, 0));
  add.Output({2, 2}, PerTensor(0.003f, 0));
  ASSERT_TRUE(add.runner.Run().ok());
  EXPECT_EQ(add.runner.Output<int16_t>(), (std::vector<int16_t>{667, 0, 10920, 0}));
}

// Power-of-two scales (the schema's default): input 1 at 2^-12 is divided by 4 with rounding
// half away from zero (6 -> 2, -6 -> -2) and the sum saturates.
TEST(Int16AddTest, PowerOfTwoScalesShiftTheFinerInputAndSaturate) {
  Int16Add add;
  add.Input({3}, {100, -100, 32767}, PerTensor(1.0f / 1024, 0));
  add.Input({3}, {6, -6, 400}, PerTensor(1.0f / 4096, 0));
  add.Output({3}, PerTensor(1.0f / 1024, 0));
  ASSERT_TRUE(add.runner.Run().ok());
  EXPECT_EQ(add.runner.Output<int16_t>(), (std::vector<int16_t>{102, -102, 32767}));
}

TEST(Int16AddTest, PowerOfTwoScalesWithTheOutputFinerThanBothAreRefused) {
  Int16Add add;
  add.Input({1}, {1}, PerTensor(1.0f / 1024, 0));
  add.Input({1}, {1}, PerTensor(1.0f / 4096, 0));
  add.Output({1}, PerTensor(1.0f / 8192, 0));
  EXPECT_FALSE(add.runner.Run().ok());
}

TEST(Int16AddTest, ANonZeroZeroPointIsRefused) {
  Int16Add add;
  add.runner.options().pot_scale_int16 = false;
  add.Input({1}, {1}, PerTensor(0.5f, 1));
  add.Input({1}, {1}, PerTensor(0.5f, 0));
  add.Output({1}, PerTensor(0.5f, 0));
  const Status status = add.runner.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "int16 quantization is symmetric: every zero point must be 0");
}

// Without quantization the sum wraps as int16, then clamps to the activation's integer bounds.
TEST(Int16AddTest, UnquantizedSumsWrapThenClamp) {
  Int16Add add;
  add.Input({3}, {30000, -5, 4}, std::nullopt);
  add.Input({3}, {10000, 2, 1}, std::nullopt);
  add.Output({3}, std::nullopt);
  ASSERT_TRUE(add.runner.Run().ok());
  EXPECT_EQ(add.runner.Output<int16_t>(), (std::vector<int16_t>{-25536, -3, 5}));

  Int16Add relu6;
  relu6.runner.options().fused_activation = Activation::kRelu6;
  relu6.Input({3}, {100, -5, 4}, std::nullopt);
  relu6.Input({3}, {23, 2, 1}, std::nullopt);
  relu6.Output({3}, std::nullopt);
  ASSERT_TRUE(relu6.runner.Run().ok());
  EXPECT_EQ(relu6.runner.Output<int16_t>(), (std::vector<int16_t>{6, 0, 5}));
}

// Upstream's sub_test.cc QuantizedTestsNoActivationInt16 (facts copied): symmetric int16 scales
// max / 32767, not powers of two, so the general path; each result within two output steps.
TEST(Int16SubTest, UpstreamGeneralScaleCases) {
  const std::vector<std::vector<float>> inputs1 = {
      {0.7f, 0.6f, 0.6f, 0.5f}, {-0.2f, 0.6f, 0.9f, -0.1f}, {-0.2f, 0.6f, -0.3f, 0.8f}};
  const std::vector<std::vector<float>> inputs2 = {
      {0.6f, 0.4f, 0.3f, 0.1f}, {0.6f, 0.4f, 0.5f, -0.8f}, {0.6f, 0.4f, 0.8f, 0.5f}};
  const std::vector<std::vector<float>> results = {
      {0.1f, 0.2f, 0.3f, 0.4f}, {-0.8f, 0.2f, 0.4f, 0.7f}, {-0.8f, 0.2f, -1.1f, 0.3f}};
  const float s1 = 0.9f / 32767, s2 = 0.8f / 32767, so = 1.1f / 32767;
  const float tolerance = 2 * 2.2f / 65535;
  for (size_t i = 0; i < inputs1.size(); ++i) {
    Int16Add sub;
    sub.runner = KernelRunner("SUB");
    const auto q1 = Quantize(inputs1[i], s1, 0, TensorType::kInt16);
    const auto q2 = Quantize(inputs2[i], s2, 0, TensorType::kInt16);
    sub.Input({1, 2, 2, 1}, std::vector<int16_t>(q1.begin(), q1.end()), PerTensor(s1, 0));
    sub.Input({1, 2, 2, 1}, std::vector<int16_t>(q2.begin(), q2.end()), PerTensor(s2, 0));
    sub.Output({1, 2, 2, 1}, PerTensor(so, 0));
    ASSERT_TRUE(sub.runner.Run().ok());
    const auto out = sub.runner.Output<int16_t>();
    const auto real = Dequantize(std::vector<int32_t>(out.begin(), out.end()), so, 0);
    for (size_t j = 0; j < real.size(); ++j) EXPECT_NEAR(real[j], results[i][j], tolerance);
  }
}

// sub_test.cc QuantizedTestsNoActivationBroadcastInt16: a scalar subtrahend.
TEST(Int16SubTest, UpstreamGeneralScaleBroadcast) {
  Int16Add sub;
  sub.runner = KernelRunner("SUB");
  const float s1 = 0.9f / 32767, s2 = 0.2f / 32767, so = 1.1f / 32767;
  const auto q1 = Quantize({-0.9f, -0.7f, -0.3f, 0.0f, 0.3f, 0.5f}, s1, 0, TensorType::kInt16);
  const auto q2 = Quantize({0.2f}, s2, 0, TensorType::kInt16);
  sub.Input({2, 3}, std::vector<int16_t>(q1.begin(), q1.end()), PerTensor(s1, 0));
  sub.Input({}, std::vector<int16_t>(q2.begin(), q2.end()), PerTensor(s2, 0));
  sub.Output({2, 3}, PerTensor(so, 0));
  ASSERT_TRUE(sub.runner.Run().ok());
  const auto out = sub.runner.Output<int16_t>();
  const auto real = Dequantize(std::vector<int32_t>(out.begin(), out.end()), so, 0);
  const std::vector<float> expected = {-1.1f, -0.9f, -0.5f, -0.2f, 0.1f, 0.3f};
  for (size_t j = 0; j < real.size(); ++j) EXPECT_NEAR(real[j], expected[j], 2 * 2.2f / 65535);
}

// Power-of-two scales: the finer input 1 is divided by 4 with rounding half away from zero
// (6 -> 2, -6 -> -2, 400 -> 100), and unlike ADD the kernel broadcasts (BroadcastSub16POTSlow).
TEST(Int16SubTest, PowerOfTwoScalesBroadcast) {
  Int16Add sub;
  sub.runner = KernelRunner("SUB");
  sub.Input({2, 1}, {100, -100}, PerTensor(1.0f / 1024, 0));
  sub.Input({1, 3}, {6, -6, 400}, PerTensor(1.0f / 4096, 0));
  sub.Output({2, 3}, PerTensor(1.0f / 1024, 0));
  ASSERT_TRUE(sub.runner.Run().ok());
  EXPECT_EQ(sub.runner.Output<int16_t>(), (std::vector<int16_t>{98, 102, 0, -102, -98, -200}));
}

// The general path takes asymmetric int16 (sub.cc PrepareGeneralSubOp): (300 - 100) * 0.5 -
// (7 - 5) * 0.5 = 99, stored 99 / 0.5 + 10.
TEST(Int16SubTest, GeneralScaleTakesZeroPoints) {
  Int16Add sub;
  sub.runner = KernelRunner("SUB");
  sub.runner.options().pot_scale_int16 = false;
  sub.Input({1}, {300}, PerTensor(0.5f, 100));
  sub.Input({1}, {7}, PerTensor(0.5f, 5));
  sub.Output({1}, PerTensor(0.5f, 10));
  ASSERT_TRUE(sub.runner.Run().ok());
  EXPECT_EQ(sub.runner.Output<int16_t>(), (std::vector<int16_t>{208}));
}

// sub.cc has no unquantized int16 path (its multipliers would come from zero scales).
TEST(Int16SubTest, UnquantizedIsRefused) {
  Int16Add sub;
  sub.runner = KernelRunner("SUB");
  sub.Input({1}, {1}, std::nullopt);
  sub.Input({1}, {1}, std::nullopt);
  sub.Output({1}, std::nullopt);
  const Status status = sub.runner.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "an int16 SUB needs quantized tensors");
}

}  // namespace
}  // namespace tfa::runtime
