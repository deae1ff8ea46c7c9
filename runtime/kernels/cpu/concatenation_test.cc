#include "runtime/kernels/cpu/concatenation.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ConcatenationTest, InnerAxisInterleavesRows) {
  KernelRunner k("CONCATENATION");
  k.options().axis = -1;
  k.AddFloatInput({2, 1}, {1, 2});
  k.AddFloatInput({2, 2}, {3, 4, 5, 6});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
}

TEST(ConcatenationTest, OuterAxisAppends) {
  KernelRunner k("CONCATENATION");
  k.options().axis = 0;
  k.AddInt32Input({1, 2}, {1, 2});
  k.AddInt32Input({1, 2}, {3, 4});
  k.AddOutput(TensorType::kInt32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace tfa::runtime
