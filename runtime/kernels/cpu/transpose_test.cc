#include "runtime/kernels/cpu/transpose.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(TransposeTest, ThreeDimensions) {
  KernelRunner k("TRANSPOSE");
  k.AddFloatInput({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({3}, {2, 0, 1});
  k.AddOutput(TensorType::kFloat32, {3, 2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

}  // namespace
}  // namespace tfa::runtime
