#include "runtime/kernels/cpu/fill.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(FillTest, EveryElementTakesTheValue) {
  KernelRunner k("FILL");
  k.AddInt32Input({2}, {2, 3}).is_constant = true;
  k.AddFloatInput({}, {1.5f});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>(6, 1.5f)));
}

TEST(FillTest, ConstantDimsMustBeThePlannedShape) {
  KernelRunner k("FILL");
  k.AddInt32Input({2}, {2, 4}).is_constant = true;
  k.AddFloatInput({}, {1.5f});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  EXPECT_FALSE(k.Run().ok());
}

// Figures of upstream's zeros_like_test.cc: zeros of the input's shape, whatever its values.
TEST(ZerosLikeTest, FloatAndInt64) {
  KernelRunner f("ZEROS_LIKE");
  f.AddFloatInput({1, 2, 2, 1}, {-2.0f, -1.0f, 0.0f, 3.0f});
  f.AddOutput(TensorType::kFloat32, {1, 2, 2, 1});
  ASSERT_TRUE(f.Run().ok());
  EXPECT_EQ(f.Output(), (std::vector<float>{0, 0, 0, 0}));
  KernelRunner i("ZEROS_LIKE");
  i.AddInput<int64_t>(TensorType::kInt64, {1, 2, 2, 1}, {-2, -1, 0, 3});
  i.AddOutput(TensorType::kInt64, {1, 2, 2, 1});
  ASSERT_TRUE(i.Run().ok());
  EXPECT_EQ(i.Output<int64_t>(), (std::vector<int64_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace tfa::runtime
