#include "runtime/kernels/cpu/depthwise_conv.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/kernel_thread_pool.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(DepthwiseConv2DTest, SameThreeByThreeOnes) {
  KernelRunner k("DEPTHWISE_CONV_2D");
  k.options().padding = Padding::kSame;
  k.AddFloatInput({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  k.AddFloatInput({1, 3, 3, 1}, std::vector<float>(9, 1));
  k.AddFloatInput({1}, {0.5f});
  k.AddOutput(TensorType::kFloat32, {1, 3, 3, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{12.5, 21.5, 16.5, 27.5, 45.5, 33.5, 24.5, 39.5, 28.5}));
}

TEST(DepthwiseConv2DTest, MultiplierTwoReadsInputChannelOverTwo) {
  KernelRunner k("DEPTHWISE_CONV_2D");
  k.options().padding = Padding::kValid;
  k.options().depth_multiplier = 2;
  k.options().fused_activation = Activation::kRelu6;
  k.AddFloatInput({1, 1, 1, 2}, {1, 2});
  k.AddFloatInput({1, 1, 1, 4}, {1, 2, 3, 4});
  k.AddOutput(TensorType::kFloat32, {1, 1, 1, 4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 6, 6}));
}

TEST(DepthwiseConv2DTest, TwoThreadsSplitTheOutputRows) {
  const KernelThreadPool pool(2);
  KernelRunner k("DEPTHWISE_CONV_2D");
  k.set_thread_pool(&pool);
  k.options().padding = Padding::kSame;
  k.AddFloatInput({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  k.AddFloatInput({1, 3, 3, 1}, std::vector<float>(9, 1));
  k.AddFloatInput({1}, {0.5f});
  k.AddOutput(TensorType::kFloat32, {1, 3, 3, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{12.5, 21.5, 16.5, 27.5, 45.5, 33.5, 24.5, 39.5, 28.5}));
}

}  // namespace
}  // namespace tfa::runtime
