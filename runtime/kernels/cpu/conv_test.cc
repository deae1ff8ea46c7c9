#include "runtime/kernels/cpu/conv.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/kernel_thread_pool.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

TEST(Conv2DTest, ValidTwoByTwoOnesWithBias) {
  KernelRunner k("CONV_2D");
  k.options().padding = Padding::kValid;
  k.AddFloatInput({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  k.AddFloatInput({1, 2, 2, 1}, {1, 1, 1, 1});
  k.AddFloatInput({1}, {1});
  k.AddOutput(TensorType::kFloat32, {1, 2, 2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{13, 17, 25, 29}));
}

TEST(Conv2DTest, SameStrideTwoPadsOneBeforeAndReluClamps) {
  KernelRunner k("CONV_2D");
  k.options().padding = Padding::kSame;
  k.options().stride_h = k.options().stride_w = 2;
  k.options().fused_activation = Activation::kRelu;
  k.AddFloatInput({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  std::vector<float> filter(18, 1.0f);
  for (size_t i = 9; i < 18; ++i) filter[i] = -1.0f;  // channel 1 negates: ReLU zeroes it
  k.AddFloatInput({2, 3, 3, 1}, filter);
  k.AddAbsentInput();
  k.AddOutput(TensorType::kFloat32, {1, 2, 2, 2});
  ASSERT_TRUE(k.Run().ok());
  // The window of output (0,0) starts one pixel before the image: rows 0..1, cols 0..1.
  EXPECT_EQ(k.Output(), (std::vector<float>{12, 0, 16, 0, 24, 0, 28, 0}));
}

TEST(Conv2DTest, PointwiseReadsTheInputAsTheMatrix) {
  KernelRunner k("CONV_2D");
  k.options().padding = Padding::kValid;
  k.AddFloatInput({1, 1, 2, 2}, {1, 2, 3, 4});
  k.AddFloatInput({3, 1, 1, 2}, {1, 0, 0, 1, 1, 1});
  k.AddOutput(TensorType::kFloat32, {1, 1, 2, 3});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{1, 2, 3, 3, 4, 7}));
}

TEST(Conv2DTest, BlockedPathsMatchADirectConvolution) {
  // 40x30 pixels (several im2col passes), 19 output channels (a GEMM edge), dilation 2.
  const int32_t h = 40, w = 30, ci = 5, co = 19, kh = 3, kw = 3;
  std::vector<float> input(h * w * ci), filter(co * kh * kw * ci), bias(co);
  for (size_t i = 0; i < input.size(); ++i) input[i] = std::sin(0.37f * static_cast<float>(i));
  for (size_t i = 0; i < filter.size(); ++i) filter[i] = std::cos(0.11f * static_cast<float>(i));
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.1f * static_cast<float>(i);
  KernelRunner k("CONV_2D");
  k.options().padding = Padding::kSame;
  k.options().dilation_h = k.options().dilation_w = 2;
  k.AddFloatInput({1, h, w, ci}, input);
  k.AddFloatInput({co, kh, kw, ci}, filter);
  k.AddFloatInput({co}, bias);
  k.AddOutput(TensorType::kFloat32, {1, h, w, co});
  ASSERT_TRUE(k.Run().ok());
  const std::vector<float> out = k.Output();
  float max_error = 0;
  for (int32_t y = 0; y < h; ++y) {
    for (int32_t x = 0; x < w; ++x) {
      for (int32_t o = 0; o < co; ++o) {
        double sum = bias[o];
        for (int32_t ky = 0; ky < kh; ++ky) {
          for (int32_t kx = 0; kx < kw; ++kx) {
            const int32_t iy = y - 2 + 2 * ky, ix = x - 2 + 2 * kx;  // SAME, dilation 2: pad 2
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            for (int32_t c = 0; c < ci; ++c) {
              sum += double{input[(iy * w + ix) * ci + c]} *
                     filter[((o * kh + ky) * kw + kx) * ci + c];
            }
          }
        }
        max_error =
            std::max(max_error, std::abs(static_cast<float>(sum) - out[(y * w + x) * co + o]));
      }
    }
  }
  EXPECT_LT(max_error, 1e-4f);
}

TEST(Conv2DTest, RefusesAPlannedShapeItWouldNotCompute) {
  KernelRunner k("CONV_2D");
  k.options().padding = Padding::kValid;
  k.AddFloatInput({1, 3, 3, 1}, std::vector<float>(9, 1));
  k.AddFloatInput({1, 2, 2, 1}, {1, 1, 1, 1});
  k.AddOutput(TensorType::kFloat32, {1, 3, 3, 1});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "output shape [1,3,3,1] differs from the computed [1,2,2,1]");
}

TEST(Conv2DTest, TwoThreadsSplitTheOutputPixels) {
  const KernelThreadPool pool(2);
  KernelRunner k("CONV_2D");
  k.set_thread_pool(&pool);
  k.options().padding = Padding::kSame;
  k.AddFloatInput({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  k.AddFloatInput({1, 3, 3, 1}, std::vector<float>(9, 1));
  k.AddFloatInput({1}, {0.5f});
  k.AddOutput(TensorType::kFloat32, {1, 3, 3, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{12.5, 21.5, 16.5, 27.5, 45.5, 33.5, 24.5, 39.5, 28.5}));
}

}  // namespace
}  // namespace tfa::runtime
