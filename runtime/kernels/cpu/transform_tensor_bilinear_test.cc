#include "runtime/kernels/cpu/transform_tensor_bilinear.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

constexpr int32_t kHeight = 3, kWidth = 4, kChannels = 2;

// A linear image, v(y, x, c) = 10 y + x + 100 c, which bilinear sampling reproduces exactly.
float Pixel(float y, float x, int32_t c) { return 10 * y + x + 100.0f * static_cast<float>(c); }

std::vector<float> LinearImage() {
  std::vector<float> image;
  for (int32_t y = 0; y < kHeight; ++y)
    for (int32_t x = 0; x < kWidth; ++x)
      for (int32_t c = 0; c < kChannels; ++c)
        image.push_back(Pixel(static_cast<float>(y), static_cast<float>(x), c));
  return image;
}

// The matrix's top rows: sample point (a x + b y + tx, c x + d y + ty) before the half-pixel
// correction, which cancels out for unscaled matrices.
std::vector<float> Matrix(float a, float b, float tx, float c, float d, float ty) {
  return {a, b, 0, tx, c, d, 0, ty, 0, 0, 1, 0, 0, 0, 0, 1};
}

std::vector<uint8_t> SizeOptions(int32_t height, int32_t width) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("output_height", height);
    fbb.Int("output_width", width);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

Result<std::vector<float>> RunOp(const std::vector<float>& matrix, int32_t out_h, int32_t out_w,
                               int32_t option_h = -1, int32_t out_c = kChannels) {
  KernelRunner k("TransformTensorBilinear");
  k.set_version(2);
  const std::vector<uint8_t> options =
      SizeOptions(option_h < 0 ? out_h : option_h, out_w);
  k.node_data().custom_options = options;
  k.AddFloatInput({1, kHeight, kWidth, kChannels}, LinearImage());
  k.AddFloatInput({1, 4, 4}, matrix);
  k.AddOutput(TensorType::kFloat32, {1, out_h, out_w, out_c});
  TFA_RETURN_IF_ERROR(k.Run());
  return k.Output();
}

TEST(TransformTensorBilinearTest, IdentitySamplesEveryPixelIncludingTheLastRowAndColumn) {
  auto out = RunOp(Matrix(1, 0, 0, 0, 1, 0), kHeight, kWidth);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, LinearImage());
}

TEST(TransformTensorBilinearTest, IntegerShiftReadsNeighboursAndZeroesBeyondTheImage) {
  // Sample point (x + 1, y): the last output column would read x = 4, outside [0, 3].
  auto out = RunOp(Matrix(1, 0, 1, 0, 1, 0), kHeight, kWidth);
  ASSERT_TRUE(out.ok()) << out.status().message();
  for (int32_t y = 0; y < kHeight; ++y) {
    for (int32_t x = 0; x < kWidth; ++x) {
      for (int32_t c = 0; c < kChannels; ++c) {
        const float expected =
            x + 1 < kWidth ? Pixel(static_cast<float>(y), static_cast<float>(x + 1), c) : 0.0f;
        EXPECT_EQ((*out)[static_cast<size_t>((y * kWidth + x) * kChannels + c)], expected)
            << y << "," << x << "," << c;
      }
    }
  }
}

TEST(TransformTensorBilinearTest, HalfPixelShiftBlendsFourPixels) {
  // Sample point (x + 0.5, y + 0.5): the mean of four pixels while it stays within
  // [0, 3] x [0, 2]; the last column and row fall outside and read 0.
  auto out = RunOp(Matrix(1, 0, 0.5f, 0, 1, 0.5f), kHeight, kWidth);
  ASSERT_TRUE(out.ok()) << out.status().message();
  for (int32_t y = 0; y < kHeight; ++y) {
    for (int32_t x = 0; x < kWidth; ++x) {
      for (int32_t c = 0; c < kChannels; ++c) {
        const bool inside = x + 1 < kWidth && y + 1 < kHeight;
        const float expected =
            inside ? Pixel(static_cast<float>(y) + 0.5f, static_cast<float>(x) + 0.5f, c) : 0.0f;
        EXPECT_EQ((*out)[static_cast<size_t>((y * kWidth + x) * kChannels + c)], expected)
            << y << "," << x << "," << c;
      }
    }
  }
}

TEST(TransformTensorBilinearTest, ScaledMatrixSamplesPixelCentres) {
  // A 2x2 output over the 4-wide, 2-high top of the image with scale 2: the half-pixel
  // correction moves the sample of output pixel x to 2 x + 0.5, the centre of its 2x2 block.
  auto out = RunOp(Matrix(2, 0, 0, 0, 2, 0), 1, 2);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, (std::vector<float>{Pixel(0.5f, 0.5f, 0), Pixel(0.5f, 0.5f, 1),
                                      Pixel(0.5f, 2.5f, 0), Pixel(0.5f, 2.5f, 1)}));
}

TEST(TransformTensorBilinearTest, NegativeSamplePointsReadZero) {
  auto out = RunOp(Matrix(1, 0, -0.5f, 0, 1, 0), 1, 2);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, (std::vector<float>{0, 0, Pixel(0, 0.5f, 0), Pixel(0, 0.5f, 1)}));
}

TEST(TransformTensorBilinearTest, OutputThatDisagreesWithTheOptionsOrInputIsAnError) {
  EXPECT_EQ(RunOp(Matrix(1, 0, 0, 0, 1, 0), 2, 2, 5).status().message(),
            "custom option 'output_height' is 5, the output has 2");
  EXPECT_EQ(RunOp(Matrix(1, 0, 0, 0, 1, 0), 2, 2, -1, 3).status().message(),
            "output has 3 channels, input has 2");
}

}  // namespace
}  // namespace tfa::runtime
