#include "runtime/kernels/cpu/select.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

RuntimeTensor& AddBoolInput(KernelRunner& k, std::vector<int32_t> shape,
                            const std::vector<uint8_t>& values) {
  return k.AddInput<uint8_t>(TensorType::kBool, std::move(shape), values);
}

TEST(SelectTest, ElementwiseOfOneShape) {
  KernelRunner k("SELECT");
  AddBoolInput(k, {4}, {1, 0, 0, 1});
  k.AddFloatInput({4}, {1, 2, 3, 4});
  k.AddFloatInput({4}, {-1, -2, -3, -4});
  k.AddOutput(TensorType::kFloat32, {4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, -2, -3, 4}));
}

TEST(SelectTest, RankOneConditionPicksRows) {
  KernelRunner k("SELECT");
  AddBoolInput(k, {2}, {0, 1});
  k.AddInt32Input({2, 2}, {1, 2, 3, 4});
  k.AddInt32Input({2, 2}, {5, 6, 7, 8});
  k.AddOutput(TensorType::kInt32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{5, 6, 3, 4}));
}

// Version one does not broadcast: a condition per column is an error.
TEST(SelectTest, VersionOneRejectsAColumnCondition) {
  KernelRunner k("SELECT");
  AddBoolInput(k, {3}, {0, 1, 0});
  k.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  EXPECT_FALSE(k.Run().ok());
}

TEST(SelectV2Test, BroadcastsAllThree) {
  KernelRunner k("SELECT_V2");
  AddBoolInput(k, {1, 3}, {1, 0, 1});
  k.AddInput<int64_t>(TensorType::kInt64, {2, 1}, {10, 20});
  k.AddInput<int64_t>(TensorType::kInt64, {}, {-1});
  k.AddOutput(TensorType::kInt64, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(), (std::vector<int64_t>{10, -1, 10, 20, -1, 20}));
}

TEST(SelectV2Test, MixedOneElementShapesKeepThePlannedOutput) {
  KernelRunner k("SELECT_V2");
  AddBoolInput(k, {}, {0});
  k.AddInput<int8_t>(TensorType::kInt8, {1}, {3});
  k.AddInput<int8_t>(TensorType::kInt8, {1, 1}, {4});
  k.AddOutput(TensorType::kInt8, {1, 1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{4}));
}

TEST(SelectV2Test, ShapesThatDoNotBroadcastAreAnError) {
  KernelRunner k("SELECT_V2");
  AddBoolInput(k, {2}, {1, 0});
  k.AddFloatInput({3}, {1, 2, 3});
  k.AddFloatInput({3}, {1, 2, 3});
  k.AddOutput(TensorType::kFloat32, {3});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
