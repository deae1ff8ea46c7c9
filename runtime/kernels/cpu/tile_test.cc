#include "runtime/kernels/cpu/tile.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(TileTest, RepeatsEachDimensionByItsMultiple) {
  KernelRunner k("TILE");
  k.AddFloatInput({2, 2}, {1, 2, 3, 4});
  k.AddInt32Input({2}, {2, 3});
  k.AddOutput(TensorType::kFloat32, {4, 6});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,  //
                                            1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
}

TEST(TileTest, MultiplesOfTheWrongCountAreAnError) {
  KernelRunner k("TILE");
  k.AddFloatInput({2}, {1, 2});
  k.AddInt32Input({2}, {2, 1});
  k.AddOutput(TensorType::kFloat32, {4});
  EXPECT_FALSE(k.Run().ok());
}

TEST(ShapeOfTest, GivesTheInputsDimensions) {
  KernelRunner k("SHAPE");
  k.AddFloatInput({2, 3, 1}, {1, 2, 3, 4, 5, 6});
  k.AddOutput(TensorType::kInt32, {3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{2, 3, 1}));
}

// Figures of upstream's rank_test.cc InputShape and Scalar.
TEST(RankTest, GivesTheInputsRank) {
  KernelRunner k("RANK");
  k.AddFloatInput({1, 3, 1, 3, 5}, std::vector<float>(45, 0.0f));
  k.AddOutput(TensorType::kInt32, {});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{5}));
  KernelRunner scalar("RANK");
  scalar.AddInt32Input({}, {1});
  scalar.AddOutput(TensorType::kInt32, {});
  ASSERT_TRUE(scalar.Run().ok());
  EXPECT_EQ(scalar.Output<int32_t>(), (std::vector<int32_t>{0}));
}

TEST(L2NormalizationTest, DividesEachLastAxisVectorByItsNorm) {
  KernelRunner k("L2_NORMALIZATION");
  k.AddFloatInput({2, 2}, {3, 4, 0, 0});
  k.AddOutput(TensorType::kFloat32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  // The zero vector divides by epsilon: it stays zero.
  EXPECT_EQ(k.Output(), (std::vector<float>{0.6f, 0.8f, 0, 0}));
}

}  // namespace
}  // namespace tfa::runtime
