#include "runtime/kernels/cpu/where.h"

#include <gtest/gtest.h>

#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(WhereTest, CoordinatesOfTrueElementsInRowMajorOrder) {
  KernelRunner k("WHERE");
  k.AddInput<uint8_t>(TensorType::kBool, {2, 3}, {0, 1, 0, 1, 0, 1});
  k.AddOutput(TensorType::kInt64, {3, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(), (std::vector<int64_t>{0, 1, 1, 0, 1, 2}));
}

// NaN is nonzero, -0.0 is zero (the comparison with T(0) upstream makes).
TEST(WhereTest, FloatNanCountsAndNegativeZeroDoesNot) {
  KernelRunner k("WHERE");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  k.AddFloatInput({4}, {-0.0f, nan, 0.0f, 2.0f}).is_constant = true;
  k.AddOutput(TensorType::kInt64, {2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(), (std::vector<int64_t>{1, 3}));
}

// The count is known at Eval only: another planned row count is an error there.
TEST(WhereTest, CountOtherThanThePlannedRowsIsAnError) {
  KernelRunner k("WHERE");
  k.AddInt32Input({3}, {1, 0, 1});
  k.AddOutput(TensorType::kInt64, {3, 1});
  EXPECT_FALSE(k.Run().ok());
}

// Upstream: "Where op requires condition w/ rank > 0".
TEST(WhereTest, ScalarConditionIsAnError) {
  KernelRunner k("WHERE");
  k.AddInt32Input({}, {1});
  k.AddOutput(TensorType::kInt64, {1, 0});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
