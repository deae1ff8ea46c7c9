#include "runtime/kernels/cpu/elementwise.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ElementwiseTest, AddBroadcastsAPerChannelOperand) {
  KernelRunner k("ADD");
  k.AddFloatInput({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  k.AddFloatInput({2}, {10, 20});
  k.AddOutput(TensorType::kFloat32, {1, 2, 2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{11, 22, 13, 24, 15, 26, 17, 28}));
}

TEST(ElementwiseTest, MulBroadcastsBothOperands) {
  KernelRunner k("MUL");
  k.AddFloatInput({2, 1}, {2, 3});
  k.AddFloatInput({1, 3}, {1, 10, 100});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{2, 20, 200, 3, 30, 300}));
}

TEST(ElementwiseTest, SubAppliesTheFusedRelu) {
  KernelRunner k("SUB");
  k.options().fused_activation = Activation::kRelu;
  k.AddFloatInput({3}, {1, 5, 2});
  k.AddFloatInput({3}, {2, 1, 2});
  k.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 4, 0}));
}

TEST(ElementwiseTest, DivByScalar) {
  KernelRunner k("DIV");
  k.AddFloatInput({2, 2}, {2, 4, 6, 8});
  k.AddFloatInput({}, {2});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ElementwiseTest, IncompatibleShapesAreAnError) {
  KernelRunner k("ADD");
  k.AddFloatInput({3}, {1, 2, 3});
  k.AddFloatInput({2}, {1, 2});
  k.AddOutput(TensorType::kFloat32, {3});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "shapes [3] and [2] do not broadcast");
}

}  // namespace
}  // namespace tfa::runtime
