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

// Integer MEAN sums in int64 and divides with truncation toward zero (reduce.cc MeanGeneral);
// integer SUM wraps in the element type.
TEST(ReduceTest, IntegerMeanTruncatesAndSumWraps) {
  KernelRunner mean("MEAN");
  mean.AddInput<int32_t>(TensorType::kInt32, {2, 3}, {1, 2, 4, -1, -2, -4});
  mean.AddInt32Input({1}, {1});
  mean.AddOutput(TensorType::kInt32, {2});
  ASSERT_TRUE(mean.Run().ok());
  EXPECT_EQ(mean.Output<int32_t>(), (std::vector<int32_t>{2, -2}));

  KernelRunner big("MEAN");
  big.AddInput<int32_t>(TensorType::kInt32, {2}, {2147483647, 2147483647});
  big.AddInt32Input({1}, {0});
  big.AddOutput(TensorType::kInt32, {});
  ASSERT_TRUE(big.Run().ok());
  EXPECT_EQ(big.Output<int32_t>(), (std::vector<int32_t>{2147483647}));

  KernelRunner sum("SUM");
  sum.AddInput<int64_t>(TensorType::kInt64, {2, 2}, {1, 2, 30, 40});
  sum.AddInt32Input({1}, {0});
  sum.AddOutput(TensorType::kInt64, {2});
  ASSERT_TRUE(sum.Run().ok());
  EXPECT_EQ(sum.Output<int64_t>(), (std::vector<int64_t>{31, 42}));

  KernelRunner wraps("SUM");
  wraps.AddInput<int32_t>(TensorType::kInt32, {2}, {2147483647, 1});
  wraps.AddInt32Input({1}, {0});
  wraps.AddOutput(TensorType::kInt32, {});
  ASSERT_TRUE(wraps.Run().ok());
  EXPECT_EQ(wraps.Output<int32_t>(), (std::vector<int32_t>{-2147483647 - 1}));
}

}  // namespace
}  // namespace tfa::runtime
