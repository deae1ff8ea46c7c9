#include "runtime/kernels/cpu/topk.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(TopKTest, LargestFirstTiesByLowerIndex) {
  KernelRunner k("TOPK_V2");
  k.AddFloatInput({2, 5}, {3, 7, 1, 7, 5, -1, -1, -1, -2, 0});
  k.AddInt32Input({}, {3}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {2, 3});
  k.AddOutput(TensorType::kInt32, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(0), (std::vector<float>{7, 7, 5, 0, -1, -1}));
  EXPECT_EQ(k.Output<int32_t>(1), (std::vector<int32_t>{1, 3, 4, 4, 0, 1}));
}

TEST(TopKTest, WholeRowOfInt64IsSorted) {
  KernelRunner k("TOPK_V2");
  k.AddInput<int64_t>(TensorType::kInt64, {4}, {2, 9, 2, 4});
  k.AddInt32Input({}, {4}).is_constant = true;
  k.AddOutput(TensorType::kInt64, {4});
  k.AddOutput(TensorType::kInt32, {4});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(0), (std::vector<int64_t>{9, 4, 2, 2}));
  EXPECT_EQ(k.Output<int32_t>(1), (std::vector<int32_t>{1, 3, 0, 2}));
}

// A graph-input k is read at Eval; it must give the planned last dimension.
TEST(TopKTest, KFromAGraphInput) {
  KernelRunner k("TOPK_V2");
  k.AddInput<int8_t>(TensorType::kInt8, {1, 3}, {-5, 8, 0});
  k.AddInt32Input({}, {1});
  k.AddOutput(TensorType::kInt8, {1, 1});
  k.AddOutput(TensorType::kInt32, {1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(0), (std::vector<int8_t>{8}));
  EXPECT_EQ(k.Output<int32_t>(1), (std::vector<int32_t>{1}));

  KernelRunner other("TOPK_V2");
  other.AddInput<int8_t>(TensorType::kInt8, {1, 3}, {-5, 8, 0});
  other.AddInt32Input({}, {2});
  other.AddOutput(TensorType::kInt8, {1, 1});
  other.AddOutput(TensorType::kInt32, {1, 1});
  EXPECT_FALSE(other.Run().ok());
}

// Upstream: "TopK k is higher than the internal dimension."
TEST(TopKTest, KPastTheRowIsAnError) {
  KernelRunner k("TOPK_V2");
  k.AddFloatInput({2}, {1, 2});
  k.AddInt32Input({}, {3}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {3});
  k.AddOutput(TensorType::kInt32, {3});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
