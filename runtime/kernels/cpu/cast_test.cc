#include "runtime/kernels/cpu/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(CastTest, FloatToInt32TruncatesTowardZero) {
  KernelRunner k("CAST");
  k.AddFloatInput({5}, {-2.75f, -0.5f, 0.5f, 2.75f, 1e6f});
  k.AddOutput(TensorType::kInt32, {5});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{-2, 0, 0, 2, 1000000}));
}

TEST(CastTest, FloatOutsideInt32GivesTheLowestInt32) {
  KernelRunner k("CAST");
  k.AddFloatInput({3}, {3e9f, -3e9f, std::nanf("")});
  k.AddOutput(TensorType::kInt32, {3});
  ASSERT_TRUE(k.Run().ok());
  const int32_t lowest = std::numeric_limits<int32_t>::lowest();
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{lowest, lowest, lowest}));
}

TEST(CastTest, Int32ToFloatAndBool) {
  KernelRunner to_float("CAST");
  to_float.AddInt32Input({3}, {-7, 0, 16777217});
  to_float.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(to_float.Run().ok());
  EXPECT_EQ(to_float.Output(), (std::vector<float>{-7, 0, 16777216}));

  KernelRunner to_bool("CAST");
  to_bool.AddInt32Input({3}, {-7, 0, 2});
  to_bool.AddOutput(TensorType::kBool, {3});
  ASSERT_TRUE(to_bool.Run().ok());
  EXPECT_EQ(to_bool.Output<uint8_t>(), (std::vector<uint8_t>{1, 0, 1}));
}

TEST(CastTest, StringIsRefused) {
  KernelRunner k("CAST");
  k.AddInput<uint8_t>(TensorType::kString, {1}, {0});
  k.AddOutput(TensorType::kInt32, {1});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot cast string to int32");
}

}  // namespace
}  // namespace tfa::runtime
