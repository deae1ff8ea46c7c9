#include "runtime/kernels/cpu/depth_to_space.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(DepthToSpaceTest, OnePixelOfFourChannelsBecomesTwoByTwo) {
  KernelRunner k("DEPTH_TO_SPACE");
  k.node_data().block_size = 2;
  k.AddFloatInput({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  k.AddOutput(TensorType::kFloat32, {1, 2, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 5, 6, 3, 4, 7, 8}));
}

TEST(DepthToSpaceTest, SpaceToDepthInverts) {
  KernelRunner k("SPACE_TO_DEPTH");
  k.node_data().block_size = 2;
  k.AddFloatInput({1, 2, 4, 1}, {1, 2, 5, 6, 3, 4, 7, 8});
  k.AddOutput(TensorType::kFloat32, {1, 1, 2, 4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
}

}  // namespace
}  // namespace tfa::runtime
