#include "runtime/kernels/cpu/pooling.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

void ThreeByThreeStrideTwo(KernelRunner& k) {
  k.options().padding = Padding::kSame;
  k.options().filter_h = k.options().filter_w = 2;
  k.options().stride_h = k.options().stride_w = 2;
  k.AddFloatInput({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  k.AddOutput(TensorType::kFloat32, {1, 2, 2, 1});
}

TEST(PoolingTest, AverageCountsOnlyPixelsInsideTheImage) {
  KernelRunner k("AVERAGE_POOL_2D");
  ThreeByThreeStrideTwo(k);
  ASSERT_TRUE(k.Run().ok());
  // SAME 3 -> 2 with a 2x2 window pads one pixel after: the right/bottom windows are clipped.
  EXPECT_EQ(k.Output(), (std::vector<float>{3, 4.5f, 7.5f, 9}));
}

TEST(PoolingTest, MaxIgnoresPadding) {
  KernelRunner k("MAX_POOL_2D");
  ThreeByThreeStrideTwo(k);
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{5, 6, 8, 9}));
}

}  // namespace
}  // namespace tfa::runtime
