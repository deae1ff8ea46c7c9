#include "runtime/kernels/cpu/conv3d.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Depth 2 input [1, 2] against a depth-2 filter [1, 10], VALID: 1 + 20, plus bias 0.5.
TEST(Conv3DTest, ValidAlongDepth) {
  KernelRunner k("CONV_3D");
  k.options().padding = Padding::kValid;
  k.AddFloatInput({1, 2, 1, 1, 1}, {1, 2});
  k.AddFloatInput({2, 1, 1, 1, 1}, {1, 10});
  k.AddFloatInput({1}, {0.5f});
  k.AddOutput(TensorType::kFloat32, {1, 1, 1, 1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{21.5f}));
}

// SAME with stride 1 pads one zero after: outputs 1 + 20 and 2 + 0; RELU keeps both.
TEST(Conv3DTest, SamePaddingAndActivation) {
  KernelRunner k("CONV_3D");
  k.options().padding = Padding::kSame;
  k.options().fused_activation = Activation::kRelu;
  k.AddFloatInput({1, 2, 1, 1, 1}, {1, 2});
  k.AddFloatInput({2, 1, 1, 1, 1}, {1, 10});
  k.AddOutput(TensorType::kFloat32, {1, 2, 1, 1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{21, 2}));
}

// The transpose scatters input 3 through the filter [1, 10]: [3, 30].
TEST(Conv3DTest, TransposeScattersThroughTheFilter) {
  KernelRunner k("CONV_3D_TRANSPOSE");
  k.options().padding = Padding::kValid;
  k.AddInt32Input({5}, {1, 2, 1, 1, 1});
  k.AddFloatInput({2, 1, 1, 1, 1}, {1, 10});
  k.AddFloatInput({1, 1, 1, 1, 1}, {3});
  k.AddOutput(TensorType::kFloat32, {1, 2, 1, 1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{3, 30}));
}

TEST(Conv3DTest, RefusesAnOutputShapeTheWindowDoesNotGive) {
  KernelRunner k("CONV_3D");
  k.options().padding = Padding::kValid;
  k.AddFloatInput({1, 2, 1, 1, 1}, {1, 2});
  k.AddFloatInput({2, 1, 1, 1, 1}, {1, 10});
  k.AddOutput(TensorType::kFloat32, {1, 2, 1, 1, 1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
