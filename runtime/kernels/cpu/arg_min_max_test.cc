#include "runtime/kernels/cpu/arg_min_max.h"

#include <gtest/gtest.h>

#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ArgMinMaxTest, ArgMaxAlongTheLastAxisTakesTheFirstOfTies) {
  KernelRunner k("ARG_MAX");
  k.AddFloatInput({2, 4}, {1, 5, 5, 2, -1, -3, -1, -2});
  k.AddInt32Input({}, {-1}).is_constant = true;
  k.AddOutput(TensorType::kInt32, {2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{1, 0}));
}

TEST(ArgMinMaxTest, ArgMinAlongTheFirstAxisIntoInt64) {
  KernelRunner k("ARG_MIN");
  k.AddInput<int8_t>(TensorType::kInt8, {3, 2}, {4, -7, 1, 3, 1, -7});
  k.AddInput<int64_t>(TensorType::kInt64, {1}, {0}).is_constant = true;
  k.AddOutput(TensorType::kInt64, {2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(), (std::vector<int64_t>{1, 0}));
}

TEST(ArgMinMaxTest, MiddleAxisOfUint8) {
  KernelRunner k("ARG_MAX");
  k.AddInput<uint8_t>(TensorType::kUInt8, {1, 3, 2}, {0, 200, 255, 7, 9, 200});
  k.AddInt32Input({}, {1}).is_constant = true;
  k.AddOutput(TensorType::kInt32, {1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{1, 0}));
}

// With elements after the axis, upstream's reference comparator never picks a NaN; without
// (inner size 1, optimized_ops' last-axis scan), the strict scan keeps a leading NaN.
TEST(ArgMinMaxTest, NanFollowsUpstreamsTwoPaths) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  KernelRunner column("ARG_MAX");
  column.AddFloatInput({3, 2}, {nan, 1, 2, 0, 3, 1});
  column.AddInt32Input({}, {0}).is_constant = true;
  column.AddOutput(TensorType::kInt32, {2});
  ASSERT_TRUE(column.Run().ok());
  EXPECT_EQ(column.Output<int32_t>(), (std::vector<int32_t>{2, 0}));

  KernelRunner row("ARG_MAX");
  row.AddFloatInput({1, 3}, {nan, 2, 3});
  row.AddInt32Input({}, {1}).is_constant = true;
  row.AddOutput(TensorType::kInt32, {1});
  ASSERT_TRUE(row.Run().ok());
  EXPECT_EQ(row.Output<int32_t>(), (std::vector<int32_t>{0}));
}

// A non-constant axis is read at Eval; a planned shape it does not give is an error there.
TEST(ArgMinMaxTest, AxisKnownAtEvalMustGiveThePlannedShape) {
  KernelRunner k("ARG_MAX");
  k.AddInt32Input({2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({}, {0});
  k.AddOutput(TensorType::kInt32, {2});
  EXPECT_FALSE(k.Run().ok());
}

TEST(ArgMinMaxTest, AxisOutOfRangeIsAnError) {
  KernelRunner k("ARG_MIN");
  k.AddFloatInput({2, 2}, {1, 2, 3, 4});
  k.AddInt32Input({}, {2}).is_constant = true;
  k.AddOutput(TensorType::kInt32, {2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
