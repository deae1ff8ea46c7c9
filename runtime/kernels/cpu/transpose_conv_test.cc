#include "runtime/kernels/cpu/transpose_conv.h"

#include <gtest/gtest.h>

#include <cstring>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Each input pixel fills its own 2x2 block of the output (stride 2, 2x2 filter of ones).
const std::vector<float> kBlocks = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};

TEST(TransposeConvTest, BuiltinValidStrideTwo) {
  KernelRunner k("TRANSPOSE_CONV");
  k.options().padding = Padding::kValid;
  k.options().stride_h = k.options().stride_w = 2;
  k.AddInt32Input({4}, {1, 4, 4, 1});
  k.AddFloatInput({1, 2, 2, 1}, {1, 1, 1, 1});
  k.AddFloatInput({1, 2, 2, 1}, {1, 2, 3, 4});
  k.AddOutput(TensorType::kFloat32, {1, 4, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), kBlocks);
}

TEST(TransposeConvTest, MediapipeBiasVariantReadsRawParams) {
  KernelRunner k("Convolution2DTransposeBias");
  const int32_t params[3] = {2 /* VALID */, 2, 2};
  std::vector<uint8_t> options(sizeof(params));
  std::memcpy(options.data(), params, sizeof(params));
  k.node_data().custom_options = options;
  k.AddFloatInput({1, 2, 2, 1}, {1, 2, 3, 4});
  k.AddFloatInput({1, 2, 2, 1}, {1, 1, 1, 1});
  k.AddFloatInput({1}, {0.5f});
  k.AddOutput(TensorType::kFloat32, {1, 4, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  std::vector<float> expected = kBlocks;
  for (float& v : expected) v += 0.5f;
  EXPECT_EQ(k.Output(), expected);
}

TEST(TransposeConvTest, MediapipeSamePaddingShrinksTheOutput) {
  // SAME: pad = max(0, 3 - (2 - 1) % 2 - 1) = 1 per dimension, 0 before: output 2*1+3-1 = 4.
  KernelRunner k("Convolution2DTransposeBias");
  const int32_t params[3] = {1 /* SAME */, 2, 2};
  std::vector<uint8_t> options(sizeof(params));
  std::memcpy(options.data(), params, sizeof(params));
  k.node_data().custom_options = options;
  k.AddFloatInput({1, 2, 2, 1}, {1, 2, 3, 4});
  k.AddFloatInput({1, 3, 3, 1}, std::vector<float>(9, 1));
  k.AddFloatInput({1}, {0});
  k.AddOutput(TensorType::kFloat32, {1, 4, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  // Pixel (y, x) covers output rows 2y..2y+2 and columns 2x..2x+2 (clipped at 4).
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 1, 3, 2, 1, 1, 3, 2, 4, 4, 10, 6, 3, 3, 7, 4}));
}

}  // namespace
}  // namespace tfa::runtime
