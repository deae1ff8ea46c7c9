#include "runtime/kernels/cpu/reduce.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ReduceTest, MeanOverSpatialAxesKeepingDims) {
  KernelRunner k("MEAN");
  k.options().keep_dims = true;
  k.AddFloatInput({1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40});
  k.AddInt32Input({2}, {1, 2});
  k.AddOutput(TensorType::kFloat32, {1, 1, 1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{2.5f, 25}));
}

TEST(ReduceTest, SumOverTheLastAxisDroppingIt) {
  KernelRunner k("SUM");
  k.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({1}, {-1});
  k.AddOutput(TensorType::kFloat32, {2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{6, 15}));
}

}  // namespace
}  // namespace tfa::runtime
