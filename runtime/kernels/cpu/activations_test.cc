#include "runtime/kernels/cpu/activations.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<float> RunUnary(const std::string& op, const std::vector<float>& x, float alpha = 0) {
  KernelRunner k(op);
  k.options().alpha = alpha;
  k.AddFloatInput({static_cast<int32_t>(x.size())}, x);
  k.AddOutput(TensorType::kFloat32, {static_cast<int32_t>(x.size())});
  EXPECT_TRUE(k.Run().ok());
  return k.Output();
}

TEST(ActivationsTest, ClampingFamily) {
  EXPECT_EQ(RunUnary("RELU", {-2, 0, 3}), (std::vector<float>{0, 0, 3}));
  EXPECT_EQ(RunUnary("RELU6", {-2, 3, 7}), (std::vector<float>{0, 3, 6}));
  EXPECT_EQ(RunUnary("RELU_N1_TO_1", {-2, 0.5f, 7}), (std::vector<float>{-1, 0.5f, 1}));
  EXPECT_EQ(RunUnary("LEAKY_RELU", {-2, 4}, 0.25f), (std::vector<float>{-0.5f, 4}));
}

TEST(ActivationsTest, HardSwishIsXTimesRelu6OfXPlusThreeOverSix) {
  EXPECT_EQ(RunUnary("HARD_SWISH", {-4, -3, 0, 1, 3, 5}),
            (std::vector<float>{0, 0, 0, 1 * 4 / 6.0f, 3, 5}));
}

TEST(ActivationsTest, LogisticAndTanh) {
  const std::vector<float> y = RunUnary("LOGISTIC", {0, 2});
  EXPECT_FLOAT_EQ(y[0], 0.5f);
  EXPECT_FLOAT_EQ(y[1], 1.0f / (1.0f + std::exp(-2.0f)));
  EXPECT_FLOAT_EQ(RunUnary("TANH", {0.5f})[0], std::tanh(0.5f));
}

TEST(ActivationsTest, PreluPerChannelAlpha) {
  KernelRunner k("PRELU");
  k.AddFloatInput({1, 2, 1, 2}, {-1, -1, 2, -4});
  k.AddFloatInput({1, 1, 2}, {0.5f, 0.25f});
  k.AddOutput(TensorType::kFloat32, {1, 2, 1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{-0.5f, -0.25f, 2, -1}));
}

TEST(ActivationsTest, PreluGeneralBroadcast) {
  KernelRunner k("PRELU");
  k.AddFloatInput({2, 2}, {-1, -1, -1, 3});
  k.AddFloatInput({2, 1}, {0.5f, 2});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{-0.5f, -0.5f, -2, 3}));
}

}  // namespace
}  // namespace tfa::runtime
