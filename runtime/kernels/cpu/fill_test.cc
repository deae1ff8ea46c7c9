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

}  // namespace
}  // namespace tfa::runtime
