#include "runtime/kernels/cpu/dilate.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Upstream's model: the input 1, 2, 3, ... of `shape`, a padding value.
template <typename T>
std::vector<T> RunDilate(TensorType type, std::vector<int32_t> shape,
                         const std::vector<int32_t>& dilations, T padding,
                         std::vector<int32_t> out_shape) {
  int32_t count = 1;
  for (int32_t d : shape) count *= d;
  std::vector<T> input(static_cast<size_t>(count));
  std::iota(input.begin(), input.end(), T(1));
  KernelRunner k("DILATE");
  k.AddInput<T>(type, shape, input);
  k.AddInt32Input({static_cast<int32_t>(dilations.size())}, dilations);
  k.AddInput<T>(type, {1}, {padding});
  k.AddOutput(type, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

// The figures of upstream's dilate_test.cc, for two of its types.
TEST(DilateTest, UpstreamManualTests) {
  EXPECT_EQ(RunDilate<float>(TensorType::kFloat32, {2, 2}, {2, 3}, 0, {3, 4}),
            (std::vector<float>{1, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 4}));
  EXPECT_EQ(RunDilate<int8_t>(TensorType::kInt8, {2, 3}, {2, 3}, 0, {3, 7}),
            (std::vector<int8_t>{1, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 5, 0, 0, 6}));
}

TEST(DilateTest, UpstreamManualTest3) {
  const std::vector<float> out =
      RunDilate<float>(TensorType::kFloat32, {4, 2, 3}, {2, 3, 4}, 0, {7, 4, 9});
  ASSERT_EQ(out.size(), 7u * 4 * 9);
  std::vector<float> expected(out.size(), 0.0f);
  float next = 1;
  for (int i = 0; i < 7; i += 2) {
    for (int j = 0; j < 4; j += 3) {
      for (int k = 0; k < 9; k += 4) expected[static_cast<size_t>((i * 4 + j) * 9 + k)] = next++;
    }
  }
  EXPECT_EQ(out, expected);
}

TEST(DilateTest, UpstreamTrailingDilationCases) {
  std::vector<int64_t> expected(24, 0);
  std::iota(expected.begin(), expected.begin() + 8, 1);
  std::iota(expected.begin() + 16, expected.end(), 9);
  EXPECT_EQ(RunDilate<int64_t>(TensorType::kInt64, {2, 2, 2, 2}, {2, 1, 1, 1}, 0, {3, 2, 2, 2}),
            expected);
  std::vector<int64_t> same(16);
  std::iota(same.begin(), same.end(), 1);
  EXPECT_EQ(RunDilate<int64_t>(TensorType::kInt64, {2, 2, 2, 2}, {1, 1, 1, 1}, 0, {2, 2, 2, 2}),
            same);
}

// Upstream's RankSeven, against its DilateReference, with padding -1: the gaps take the value.
TEST(DilateTest, UpstreamRankSevenWithAPaddingValue) {
  const std::vector<int32_t> out = RunDilate<int32_t>(
      TensorType::kInt32, {2, 1, 2, 1, 2, 1, 2}, {2, 1, 2, 1, 1, 1, 2}, -1, {3, 1, 3, 1, 2, 1, 3});
  ASSERT_EQ(out.size(), 54u);
  // Row-major [3, 3, 2, 3] with the rank-1 dimensions dropped: input (a, b, c, d) lands at
  // (2a, 2b, c, 2d).
  std::vector<int32_t> expected(54, -1);
  int32_t next = 1;
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      for (int c = 0; c < 2; ++c) {
        for (int d = 0; d < 2; ++d) expected[((2 * a * 3 + 2 * b) * 2 + c) * 3 + 2 * d] = next++;
      }
    }
  }
  EXPECT_EQ(out, expected);
}

TEST(DilateTest, DilationsBelowOneAreErrors) {
  KernelRunner k("DILATE");
  k.AddFloatInput({2}, {1, 2});
  k.AddInt32Input({1}, {0});
  k.AddFloatInput({1}, {0});
  k.AddOutput(TensorType::kFloat32, {1});
  EXPECT_EQ(k.Run().message(), "dilation 0 is below 1");
}

}  // namespace
}  // namespace tfa::runtime
