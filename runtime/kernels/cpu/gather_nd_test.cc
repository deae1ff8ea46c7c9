#include "runtime/kernels/cpu/gather_nd.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

const std::vector<float> kRank3 = {1.1f, -1.2f, 1.3f,  -2.1f, 2.2f,  2.3f,  //
                                   3.1f, 3.2f,  -3.3f, -4.1f, -4.2f, 4.3f,  //
                                   5.1f, -5.2f, 5.3f,  6.1f,  -6.2f, 6.3f};

std::vector<float> Gather(std::vector<int32_t> params_shape, const std::vector<float>& params,
                          std::vector<int32_t> indices_shape, const std::vector<int32_t>& indices,
                          std::vector<int32_t> out_shape) {
  KernelRunner k("GATHER_ND");
  k.AddFloatInput(std::move(params_shape), params);
  k.AddInt32Input(std::move(indices_shape), indices);
  k.AddOutput(TensorType::kFloat32, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output();
}

// Figures of upstream's gather_nd_test.cc.
TEST(GatherNdTest, ElementsAndSlicesOfAMatrix) {
  const std::vector<float> matrix = {1.1f, 1.2f, 2.1f, 2.2f};
  EXPECT_EQ(Gather({2, 2}, matrix, {2, 2}, {0, 0, 1, 1}, {2}), (std::vector<float>{1.1f, 2.2f}));
  EXPECT_EQ(Gather({2, 2}, matrix, {2, 1}, {1, 0}, {2, 2}),
            (std::vector<float>{2.1f, 2.2f, 1.1f, 1.2f}));
  EXPECT_EQ(Gather({2, 2}, matrix, {2, 1, 1}, {1, 0}, {2, 1, 2}),
            (std::vector<float>{2.1f, 2.2f, 1.1f, 1.2f}));
  EXPECT_EQ(Gather({2, 2}, matrix, {2, 2}, {0, 0, 0, 0}, {2}), (std::vector<float>{1.1f, 1.1f}));
}

TEST(GatherNdTest, Rank3Tensor) {
  EXPECT_EQ(Gather({3, 2, 3}, kRank3, {1, 2, 3}, {0, 0, 1, 1, 1, 0}, {1, 2}),
            (std::vector<float>{-1.2f, -4.1f}));
  EXPECT_EQ(Gather({3, 2, 3}, kRank3, {2, 1}, {0, 2}, {2, 2, 3}),
            (std::vector<float>{1.1f, -1.2f, 1.3f, -2.1f, 2.2f, 2.3f, 5.1f, -5.2f, 5.3f, 6.1f,
                                -6.2f, 6.3f}));
  EXPECT_EQ(Gather({3, 2, 3}, kRank3, {2, 2, 2}, {0, 1, 1, 0, 0, 0, 2, 1}, {2, 2, 3}),
            (std::vector<float>{-2.1f, 2.2f, 2.3f, 3.1f, 3.2f, -3.3f, 1.1f, -1.2f, 1.3f, 6.1f,
                                -6.2f, 6.3f}));
  EXPECT_EQ(Gather({3, 2, 3}, kRank3, {2, 2, 3}, {0, 0, 1, 1, 0, 1, 1, 1, 2, 2, 1, 2}, {2, 2}),
            (std::vector<float>{-1.2f, 3.2f, 4.3f, 6.3f}));
}

TEST(GatherNdTest, Int8ParamsWithInt64Indices) {
  KernelRunner k("GATHER_ND");
  k.AddInput<int8_t>(TensorType::kInt8, {3, 2, 3},
                     {1, -1, 1, -2, 2, 2, 3, 3, -3, -4, -4, 4, 5, -5, 5, 6, -6, 6});
  k.AddInput<int64_t>(TensorType::kInt64, {2, 2}, {0, 1, 1, 0});
  k.AddOutput(TensorType::kInt8, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{-2, 2, 2, 3, 3, -3}));
}

// upstream's ErrorOnOutOfBounds{TooLarge,Negative}: one-line errors, no read past params.
TEST(GatherNdTest, OutOfBoundsIndicesAreErrors) {
  const auto run = [](const std::vector<int32_t>& indices) {
    KernelRunner k("GATHER_ND");
    k.AddFloatInput({2, 2}, {1.1f, 1.2f, 2.1f, 2.2f});
    k.AddInt32Input({2, 2}, indices);
    k.AddOutput(TensorType::kFloat32, {2});
    return k.Run();
  };
  EXPECT_EQ(run({0, 0, 2, 0}).message(),
            "gather_nd index out of bounds: slice 1 starts at element 4 of 4");
  EXPECT_FALSE(run({0, 0, 1, 2}).ok());
  EXPECT_EQ(run({1, -1, 1, 1}).message(), "gather_nd index -1 is negative");
  // The bound is on the flat position, as upstream's: [0, 2] lands on element 2.
  EXPECT_TRUE(run({0, 2, 0, 0}).ok());
}

}  // namespace
}  // namespace tfa::runtime
