#include "runtime/kernels/cpu/softmax.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(SoftmaxTest, RowsSumToOneWithBeta) {
  KernelRunner k("SOFTMAX");
  k.options().beta = 2.0f;
  k.AddFloatInput({2, 2}, {0, 1, 5, 5});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  const std::vector<float> y = k.Output();
  EXPECT_FLOAT_EQ(y[0], 1.0f / (1.0f + std::exp(2.0f)));
  EXPECT_FLOAT_EQ(y[1], std::exp(2.0f) / (1.0f + std::exp(2.0f)));
  EXPECT_FLOAT_EQ(y[2], 0.5f);
  EXPECT_FLOAT_EQ(y[3], 0.5f);
}

}  // namespace
}  // namespace tfa::runtime
