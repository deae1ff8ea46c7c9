#include "runtime/kernels/cpu/slice.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(SliceTest, BeginAndSizeWithMinusOne) {
  KernelRunner k("SLICE");
  k.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({2}, {1, 1});
  k.AddInt32Input({2}, {1, -1});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{5, 6}));
}

TEST(StridedSliceTest, MasksNegativeIndicesAndShrink) {
  KernelRunner k("STRIDED_SLICE");
  k.options().begin_mask = 2;        // dimension 1 starts at 0
  k.options().shrink_axis_mask = 1;  // dimension 0 is dropped
  k.AddFloatInput({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  k.AddInt32Input({2}, {-1, 3});
  k.AddInt32Input({2}, {0, 4});
  k.AddInt32Input({2}, {1, 2});
  k.AddOutput(TensorType::kFloat32, {2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{5, 7}));
}

TEST(StridedSliceTest, NegativeStrideWithEndMask) {
  KernelRunner k("STRIDED_SLICE");
  k.options().end_mask = 1;
  k.AddFloatInput({4}, {1, 2, 3, 4});
  k.AddInt32Input({1}, {-2});
  k.AddInt32Input({1}, {0});
  k.AddInt32Input({1}, {-1});
  k.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{3, 2, 1}));
}

}  // namespace
}  // namespace tfa::runtime
