#include "runtime/kernels/cpu/split.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(SplitTest, EqualPartsAlongTheLastAxis) {
  KernelRunner k("SPLIT");
  k.AddInt32Input({}, {1});
  k.AddFloatInput({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(0), (std::vector<float>{1, 2, 5, 6}));
  EXPECT_EQ(k.Output(1), (std::vector<float>{3, 4, 7, 8}));
}

TEST(SplitTest, SplitVInfersTheMinusOnePart) {
  KernelRunner k("SPLIT_V");
  k.AddFloatInput({4}, {1, 2, 3, 4});
  k.AddInt32Input({2}, {1, -1});
  k.AddInt32Input({}, {0});
  k.AddOutput(TensorType::kFloat32, {1});
  k.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(0), (std::vector<float>{1}));
  EXPECT_EQ(k.Output(1), (std::vector<float>{2, 3, 4}));
}

}  // namespace
}  // namespace tfa::runtime
