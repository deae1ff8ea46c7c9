#include "runtime/kernels/cpu/resize.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

std::vector<float> Resize(const std::string& op, bool align_corners, bool half_pixel_centers) {
  KernelRunner k(op);
  k.options().align_corners = align_corners;
  k.options().half_pixel_centers = half_pixel_centers;
  k.AddFloatInput({1, 1, 2, 1}, {0, 1});
  k.AddInt32Input({2}, {1, 4});
  k.AddOutput(TensorType::kFloat32, {1, 1, 4, 1});
  EXPECT_TRUE(k.Run().ok());
  return k.Output();
}

TEST(ResizeTest, BilinearCoordinateModes) {
  EXPECT_EQ(Resize("RESIZE_BILINEAR", false, false), (std::vector<float>{0, 0.5f, 1, 1}));
  // half_pixel_centers: samples at -0.25, 0.25, 0.75, 1.25, clamped to the image.
  EXPECT_EQ(Resize("RESIZE_BILINEAR", false, true), (std::vector<float>{0, 0.25f, 0.75f, 1}));
  // align_corners: scale (2 - 1) / (4 - 1).
  const std::vector<float> aligned = Resize("RESIZE_BILINEAR", true, false);
  EXPECT_FLOAT_EQ(aligned[1], 1.0f / 3.0f);
  EXPECT_FLOAT_EQ(aligned[3], 1.0f);
}

TEST(ResizeTest, BilinearTwoDimensions) {
  KernelRunner k("RESIZE_BILINEAR");
  k.AddFloatInput({1, 2, 2, 1}, {0, 1, 2, 3});
  k.AddInt32Input({2}, {4, 4});
  k.AddOutput(TensorType::kFloat32, {1, 4, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(),
            (std::vector<float>{0, 0.5f, 1, 1, 1, 1.5f, 2, 2, 2, 2.5f, 3, 3, 2, 2.5f, 3, 3}));
}

TEST(ResizeTest, NearestCoordinateModes) {
  KernelRunner k("RESIZE_NEAREST_NEIGHBOR");
  k.AddFloatInput({1, 1, 3, 1}, {0, 1, 2});
  k.AddInt32Input({2}, {1, 2});
  k.AddOutput(TensorType::kFloat32, {1, 1, 2, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{0, 1}));  // floor(x * 1.5)
  KernelRunner aligned("RESIZE_NEAREST_NEIGHBOR");
  aligned.options().align_corners = true;
  aligned.AddFloatInput({1, 1, 3, 1}, {0, 1, 2});
  aligned.AddInt32Input({2}, {1, 2});
  aligned.AddOutput(TensorType::kFloat32, {1, 1, 2, 1});
  ASSERT_TRUE(aligned.Run().ok());
  EXPECT_EQ(aligned.Output(), (std::vector<float>{0, 2}));  // round(x * 2)
  KernelRunner centers("RESIZE_NEAREST_NEIGHBOR");
  centers.options().half_pixel_centers = true;
  centers.AddFloatInput({1, 1, 3, 1}, {0, 1, 2});
  centers.AddInt32Input({2}, {1, 2});
  centers.AddOutput(TensorType::kFloat32, {1, 1, 2, 1});
  ASSERT_TRUE(centers.Run().ok());
  EXPECT_EQ(centers.Output(), (std::vector<float>{0, 2}));  // floor((x + 0.5) * 1.5)
}

}  // namespace
}  // namespace tfa::runtime
