#include "runtime/kernels/cpu/gather.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(GatherTest, RowsByIndex) {
  KernelRunner k("GATHER");
  k.AddFloatInput({3, 2}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({2}, {2, 0});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{5, 6, 1, 2}));
}

TEST(GatherTest, IndexOutOfRangeIsAnError) {
  KernelRunner k("GATHER");
  k.options().axis = 1;
  k.AddFloatInput({1, 2}, {1, 2});
  k.AddInt32Input({1}, {2});
  k.AddOutput(TensorType::kFloat32, {1, 1});
  EXPECT_FALSE(k.Run().ok());
}

// batch_dims 1: each batch row picks from its own params slice, as TF's gather with batch_dims.
TEST(GatherTest, BatchDimsGatherWithinEachBatch) {
  KernelRunner k("GATHER");
  k.options().axis = 1;
  k.options().batch_dims = 1;
  k.AddFloatInput({2, 3}, {10, 11, 12, 20, 21, 22});
  k.AddInt32Input({2, 2}, {2, 0, 1, 1});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{12, 10, 21, 21}));
}

}  // namespace
}  // namespace tfa::runtime
