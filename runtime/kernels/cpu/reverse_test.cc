#include "runtime/kernels/cpu/reverse.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Figures of upstream's reverse_test.cc.
TEST(ReverseV2Test, OneAndMultipleDimensions) {
  KernelRunner one("REVERSE_V2");
  one.AddFloatInput({4}, {1, 2, 3, 4});
  one.AddInt32Input({1}, {0}).is_constant = true;
  one.AddOutput(TensorType::kFloat32, {4});
  ASSERT_TRUE(one.Run().ok());
  EXPECT_EQ(one.Output(), (std::vector<float>{4, 3, 2, 1}));

  std::vector<int32_t> data(24);
  std::iota(data.begin(), data.end(), 1);
  KernelRunner multi("REVERSE_V2");
  multi.AddInt32Input({4, 3, 2}, data);
  multi.AddInt32Input({1}, {1}).is_constant = true;
  multi.AddOutput(TensorType::kInt32, {4, 3, 2});
  ASSERT_TRUE(multi.Run().ok());
  EXPECT_EQ(multi.Output<int32_t>(),
            (std::vector<int32_t>{5,  6,  3,  4,  1,  2,  11, 12, 9,  10, 7,  8,
                                  17, 18, 15, 16, 13, 14, 23, 24, 21, 22, 19, 20}));
}

TEST(ReverseV2Test, TwoAxesOfInt8) {
  KernelRunner k("REVERSE_V2");
  k.AddInput<int8_t>(TensorType::kInt8, {2, 3}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({2}, {0, -1}).is_constant = true;
  k.AddOutput(TensorType::kInt8, {2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int8_t>(), (std::vector<int8_t>{6, 5, 4, 3, 2, 1}));
}

}  // namespace
}  // namespace tfa::runtime
