#include "runtime/kernels/cpu/int16_add.h"

#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;

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

}  // namespace
}  // namespace tfa::runtime
