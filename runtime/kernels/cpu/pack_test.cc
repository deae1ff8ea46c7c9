#include "runtime/kernels/cpu/pack.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(PackTest, StacksAlongANewFirstAxis) {
  KernelRunner k("PACK");
  k.AddFloatInput({2}, {1, 2});
  k.AddFloatInput({2}, {3, 4});
  k.AddFloatInput({2}, {5, 6});
  k.AddOutput(TensorType::kFloat32, {3, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(PackTest, NegativeAxisStacksAlongTheLast) {
  KernelRunner k("PACK");
  k.options().axis = -1;
  k.AddInput<int64_t>(TensorType::kInt64, {2}, {1, 2});
  k.AddInput<int64_t>(TensorType::kInt64, {2}, {3, 4});
  k.AddOutput(TensorType::kInt64, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(), (std::vector<int64_t>{1, 3, 2, 4}));
}

TEST(PackTest, InputsOfDifferentShapesAreAnError) {
  KernelRunner k("PACK");
  k.AddFloatInput({2}, {1, 2});
  k.AddFloatInput({3}, {3, 4, 5});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  EXPECT_FALSE(k.Run().ok());
}

// Upstream's pack.cc has no bool in its type list.
TEST(PackTest, BoolIsAnError) {
  KernelRunner k("PACK");
  k.AddInput<uint8_t>(TensorType::kBool, {1}, {1});
  k.AddOutput(TensorType::kBool, {1, 1});
  EXPECT_FALSE(k.Run().ok());
}

TEST(UnpackTest, CutsAlongTheMiddleAxis) {
  KernelRunner k("UNPACK");
  k.options().axis = 1;
  k.AddInt32Input({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  k.AddOutput(TensorType::kInt32, {2, 2});
  k.AddOutput(TensorType::kInt32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(0), (std::vector<int32_t>{1, 2, 5, 6}));
  EXPECT_EQ(k.Output<int32_t>(1), (std::vector<int32_t>{3, 4, 7, 8}));
}

TEST(UnpackTest, OutputCountOtherThanTheAxisExtentIsAnError) {
  KernelRunner k("UNPACK");
  k.AddFloatInput({3, 1}, {1, 2, 3});
  k.AddOutput(TensorType::kFloat32, {1});
  k.AddOutput(TensorType::kFloat32, {1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
