#include "runtime/kernels/cpu/broadcast_to.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Upstream's broadcast_to_test.cc ComplexTest: [3,1,2] to [3,3,2].
TEST(BroadcastToTest, RepeatsTheDimensionsOfSizeOne) {
  KernelRunner k("BROADCAST_TO");
  k.AddFloatInput({3, 1, 2}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({3}, {3, 3, 2});
  k.AddOutput(TensorType::kFloat32, {3, 3, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 5, 6, 5, 6, 5, 6}));
}

TEST(BroadcastToTest, AddsLeadingDimensions) {
  KernelRunner k("BROADCAST_TO");
  k.AddFloatInput({2}, {7, 8});
  k.AddInt32Input({3}, {2, 1, 2});
  k.AddOutput(TensorType::kFloat32, {2, 1, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{7, 8, 7, 8}));
}

TEST(BroadcastToTest, ADimensionThatIsNeitherOneNorTheTargetIsAnError) {
  KernelRunner k("BROADCAST_TO");
  k.AddFloatInput({2}, {7, 8});
  k.AddInt32Input({1}, {3});
  k.AddOutput(TensorType::kFloat32, {3});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
