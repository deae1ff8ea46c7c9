#include "runtime/kernels/cpu/max_pool_argmax.h"

#include <gtest/gtest.h>

#include <cstring>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// TfLitePoolParams: VALID padding, stride 2, a 2x2 window, no activation.
std::vector<uint8_t> TwoByTwoOptions() {
  const int32_t params[8] = {2, 2, 2, 2, 2, 0, -1, -1};
  std::vector<uint8_t> bytes(sizeof(params));
  std::memcpy(bytes.data(), params, sizeof(params));
  return bytes;
}

TEST(MaxPoolingWithArgmaxTest, GivesEachWindowsMaximumAndWhereItIs) {
  const auto options = TwoByTwoOptions();
  KernelRunner k("MaxPoolingWithArgmax2D");
  k.node_data().custom_options = options;
  k.AddFloatInput({1, 2, 4, 1}, {1, 5, 2, 2,  //
                                 3, 4, 9, 2});
  k.AddOutput(TensorType::kFloat32, {1, 1, 2, 1});
  k.AddOutput(TensorType::kFloat32, {1, 1, 2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(0), (std::vector<float>{5, 9}));
  // Positions y * 2 + x, plus 0.1: 5 at (0, 1), 9 at (1, 0).
  EXPECT_EQ(k.Output(1), (std::vector<float>{1.1f, 2.1f}));
}

TEST(MaxUnpoolingTest, PutsEachValueWhereItsIndexSays) {
  const auto options = TwoByTwoOptions();
  KernelRunner k("MaxUnpooling2D");
  k.node_data().custom_options = options;
  k.AddFloatInput({1, 1, 2, 1}, {5, 9});
  k.AddFloatInput({1, 1, 2, 1}, {1.1f, 2.1f});
  k.AddOutput(TensorType::kFloat32, {1, 2, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 5, 0, 0,  //
                                            0, 0, 9, 0}));
}

TEST(MaxUnpoolingTest, AnIndexOutsideTheWindowWritesNothing) {
  const auto options = TwoByTwoOptions();
  KernelRunner k("MaxUnpooling2D");
  k.node_data().custom_options = options;
  k.AddFloatInput({1, 1, 1, 1}, {5});
  k.AddFloatInput({1, 1, 1, 1}, {1e9f});
  k.AddOutput(TensorType::kFloat32, {1, 2, 2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 0, 0, 0}));
}

TEST(MaxPoolingWithArgmaxTest, ShortCustomOptionsAreAnError) {
  KernelRunner k("MaxPoolingWithArgmax2D");
  k.AddFloatInput({1, 2, 2, 1}, {1, 2, 3, 4});
  k.AddOutput(TensorType::kFloat32, {1, 1, 1, 1});
  k.AddOutput(TensorType::kFloat32, {1, 1, 1, 1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
