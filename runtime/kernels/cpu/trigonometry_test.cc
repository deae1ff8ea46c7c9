#include "runtime/kernels/cpu/trigonometry.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(TrigonometryTest, SinOfEachElement) {
  KernelRunner k("SIN");
  k.AddFloatInput({2, 2}, {0.0f, 1.0f, -2.5f, 3.0f});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(),
            (std::vector<float>{std::sin(0.0f), std::sin(1.0f), std::sin(-2.5f), std::sin(3.0f)}));
}

TEST(TrigonometryTest, CosOfEachElement) {
  KernelRunner k("COS");
  k.AddFloatInput({3}, {0.0f, 1.0f, -2.5f});
  k.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1.0f, std::cos(1.0f), std::cos(-2.5f)}));
}

// Upstream's GenericPrepare accepts float32 only for SIN and COS.
TEST(TrigonometryTest, Int32InputIsAnError) {
  KernelRunner k("SIN");
  k.AddInt32Input({2}, {0, 1});
  k.AddOutput(TensorType::kInt32, {2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
