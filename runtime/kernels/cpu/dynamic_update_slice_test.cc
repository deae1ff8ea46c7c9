#include "runtime/kernels/cpu/dynamic_update_slice.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(DynamicUpdateSliceTest, WritesTheUpdateAtTheStart) {
  KernelRunner k("DYNAMIC_UPDATE_SLICE");
  k.AddFloatInput({3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0});
  k.AddFloatInput({2, 1}, {1, 2});
  k.AddInt32Input({2}, {1, 2});
  k.AddOutput(TensorType::kFloat32, {3, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 0, 0, 0, 0, 1, 0, 0, 2}));
}

// Starts are clamped so the update fits: (5, -1) becomes (1, 0).
TEST(DynamicUpdateSliceTest, ClampsTheStart) {
  KernelRunner k("DYNAMIC_UPDATE_SLICE");
  k.AddFloatInput({3, 2}, {9, 9, 9, 9, 9, 9});
  k.AddFloatInput({2, 2}, {1, 2, 3, 4});
  k.AddInput(TensorType::kInt64, {2}, std::vector<int64_t>{5, -1});
  k.AddOutput(TensorType::kFloat32, {3, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{9, 9, 1, 2, 3, 4}));
}

TEST(DynamicUpdateSliceTest, RefusesAnUpdateLargerThanTheOperand) {
  KernelRunner k("DYNAMIC_UPDATE_SLICE");
  k.AddFloatInput({1, 2}, {0, 0});
  k.AddFloatInput({1, 3}, {1, 2, 3});
  k.AddInt32Input({2}, {0, 0});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
