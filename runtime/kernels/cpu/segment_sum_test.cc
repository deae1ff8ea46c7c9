#include "runtime/kernels/cpu/segment_sum.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(SegmentSumTest, SumsRowsOfEachSegment) {
  KernelRunner k("SEGMENT_SUM");
  k.AddFloatInput({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  k.AddInt32Input({4}, {0, 0, 1, 2}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {3, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{4, 6, 5, 6, 7, 8}));
}

TEST(SegmentSumTest, Int32IdsKnownAtEval) {
  KernelRunner k("SEGMENT_SUM");
  k.AddInt32Input({3}, {5, -2, 9});
  k.AddInt32Input({3}, {0, 1, 1});
  k.AddOutput(TensorType::kInt32, {2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{5, 7}));
}

// Upstream requires ids from 0 rising by 0 or 1: a skipped id is an error.
TEST(SegmentSumTest, SkippedIdIsAnError) {
  KernelRunner k("SEGMENT_SUM");
  k.AddFloatInput({3}, {1, 2, 3});
  k.AddInt32Input({3}, {0, 2, 2}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {3});
  EXPECT_FALSE(k.Run().ok());
}

TEST(SegmentSumTest, UnsortedIdsAreAnError) {
  KernelRunner k("SEGMENT_SUM");
  k.AddFloatInput({3}, {1, 2, 3});
  k.AddInt32Input({3}, {0, 1, 0});
  k.AddOutput(TensorType::kFloat32, {2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
