#include "runtime/kernels/cpu/reshape.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ReshapeTest, CopiesBytesUnderTheNewShape) {
  KernelRunner k("RESHAPE");
  k.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({2}, {3, 2});
  k.AddOutput(TensorType::kFloat32, {3, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ReshapeTest, ElementCountMustMatch) {
  KernelRunner k("SQUEEZE");
  k.AddFloatInput({1, 3}, {1, 2, 3});
  k.AddOutput(TensorType::kFloat32, {2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
