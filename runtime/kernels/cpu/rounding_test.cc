#include "runtime/kernels/cpu/rounding.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<float> RunUnary(const std::string& op, const std::vector<float>& x) {
  KernelRunner k(op);
  k.AddFloatInput({static_cast<int32_t>(x.size())}, x);
  k.AddOutput(TensorType::kFloat32, {static_cast<int32_t>(x.size())});
  EXPECT_TRUE(k.Run().ok());
  return k.Output();
}

// Figures of upstream's floor_test.cc SingleDim and MultiDims.
TEST(RoundingTest, FloorGoesDown) {
  EXPECT_EQ(RunUnary("FLOOR", {8.5f, 0.0f}), (std::vector<float>{8, 0}));
  EXPECT_EQ(RunUnary("FLOOR", {0.0001f, 8.0001f, 0.9999f, 9.9999f, 0.5f, -0.0001f, -8.0001f,
                               -0.9999f, -9.9999f, -0.5f}),
            (std::vector<float>{0, 8, 0, 9, 0, -1, -9, -1, -10, -1}));
}

TEST(RoundingTest, CeilGoesUp) {
  EXPECT_EQ(RunUnary("CEIL", {-1.5f, -0.25f, 0, 0.25f, 2, 2.5f}),
            (std::vector<float>{-1, -0.0f, 0, 1, 2, 3}));
}

TEST(RoundingTest, RoundTakesTheEvenNeighbourOnTies) {
  EXPECT_EQ(RunUnary("ROUND", {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3.5f}),
            (std::vector<float>{-2, -2, 0, 0, 2, 2, 4}));
}

TEST(RoundingTest, RoundGoesToTheNearestOffTies) {
  EXPECT_EQ(RunUnary("ROUND", {-1.75f, -0.25f, 0.49f, 0.51f, 2.75f, 16777216.0f}),
            (std::vector<float>{-2, 0, 0, 1, 3, 16777216.0f}));
}

TEST(RoundingTest, IntegerInputIsRefused) {
  KernelRunner k("ROUND");
  k.AddInt32Input({1}, {1});
  k.AddOutput(TensorType::kInt32, {1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
