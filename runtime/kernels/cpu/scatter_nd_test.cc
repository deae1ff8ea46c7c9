#include "runtime/kernels/cpu/scatter_nd.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(ScatterNdTest, ScalarsIntoAVectorDuplicatesAdd) {
  KernelRunner k("SCATTER_ND");
  k.AddInt32Input({4, 1}, {4, 3, 1, 4});
  k.AddFloatInput({4}, {9, 10, 11, 12});
  k.AddInt32Input({1}, {6}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {6});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 11, 0, 10, 21, 0}));
}

TEST(ScatterNdTest, RowsIntoAMatrix) {
  KernelRunner k("SCATTER_ND");
  k.AddInt32Input({2, 1}, {2, 0});
  k.AddInput<int64_t>(TensorType::kInt64, {2, 2}, {1, 2, 3, 4});
  k.AddInt32Input({2}, {3, 2});
  k.AddOutput(TensorType::kInt64, {3, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int64_t>(), (std::vector<int64_t>{3, 4, 0, 0, 1, 2}));
}

TEST(ScatterNdTest, Int8SumsWrap) {
  KernelRunner k("SCATTER_ND");
  k.AddInt32Input({2, 2}, {0, 1, 0, 1});
  k.AddInput<int8_t>(TensorType::kInt8, {2}, {100, 100});
  k.AddInt32Input({2}, {1, 2}).is_constant = true;
  k.AddOutput(TensorType::kInt8, {1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{0, -56}));
}

// Upstream checks each coordinate against its dimension, not only the flat position.
TEST(ScatterNdTest, CoordinateOutsideItsDimensionIsAnError) {
  KernelRunner k("SCATTER_ND");
  k.AddInt32Input({1, 2}, {0, 3});
  k.AddFloatInput({1}, {1});
  k.AddInt32Input({2}, {2, 3}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {2, 3});
  EXPECT_FALSE(k.Run().ok());
}

// Upstream's scatter_nd.cc evaluates int32 indices only.
TEST(ScatterNdTest, Int64IndicesAreAnError) {
  KernelRunner k("SCATTER_ND");
  k.AddInput<int64_t>(TensorType::kInt64, {1, 1}, {0});
  k.AddFloatInput({1}, {1});
  k.AddInput<int64_t>(TensorType::kInt64, {1}, {2}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
