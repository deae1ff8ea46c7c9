#include "runtime/kernels/cpu/batch_matmul.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]].
TEST(BatchMatMulTest, PlainProduct) {
  KernelRunner k("BATCH_MATMUL");
  k.AddFloatInput({1, 2, 2}, {1, 2, 3, 4});
  k.AddFloatInput({1, 2, 2}, {5, 6, 7, 8});
  k.AddOutput(TensorType::kFloat32, {1, 2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{19, 22, 43, 50}));
}

// adj_y: rhs stored transposed, [[5, 7], [6, 8]] read as [[5, 6], [7, 8]]; the result is the
// same. adj_x: lhs [[1, 3], [2, 4]] read as [[1, 2], [3, 4]].
TEST(BatchMatMulTest, AdjointsTransposeTheLastTwoDimensions) {
  KernelRunner k("BATCH_MATMUL");
  k.options().adj_x = true;
  k.options().adj_y = true;
  k.AddFloatInput({2, 2}, {1, 3, 2, 4});
  k.AddFloatInput({2, 2}, {5, 7, 6, 8});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{19, 22, 43, 50}));
}

// One lhs matrix [1, 2] against two rhs batches: [[1], [1]] and [[2], [3]].
TEST(BatchMatMulTest, BroadcastsBatchDimensions) {
  KernelRunner k("BATCH_MATMUL");
  k.AddFloatInput({1, 1, 2}, {1, 2});
  k.AddFloatInput({2, 2, 1}, {1, 1, 2, 3});
  k.AddOutput(TensorType::kFloat32, {2, 1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{3, 8}));
}

TEST(BatchMatMulTest, RefusesMismatchedDepth) {
  KernelRunner k("BATCH_MATMUL");
  k.AddFloatInput({1, 3}, {1, 2, 3});
  k.AddFloatInput({2, 1}, {1, 1});
  k.AddOutput(TensorType::kFloat32, {1, 1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
