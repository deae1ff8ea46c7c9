#include "runtime/kernels/cpu/quantized_resize.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::PerTensor;
using testing::QuantizedRunner;

TEST(QuantizedResizeTest, Int8BilinearInterpolatesInTenBitFixedPoint) {
  QuantizedRunner r("RESIZE_BILINEAR");
  r.AddInput({TensorType::kInt8, {1, 1, 2, 1}, {0, 5}, PerTensor(1.0f, 0)});
  r.runner().AddInt32Input({2}, {1, 4});
  r.AddOutput(TensorType::kInt8, {1, 1, 4, 1}, PerTensor(1.0f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // Positions 0, 0.5, 1, 1.5 (clamped to the last pixel): 0, 2.5 -> 3, 5, 5.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{0, 3, 5, 5}));
}

TEST(QuantizedResizeTest, Int8BilinearHalfPixelCentersRoundNegativesAwayFromZero) {
  QuantizedRunner r("RESIZE_BILINEAR");
  r.runner().options().half_pixel_centers = true;
  r.AddInput({TensorType::kInt8, {1, 1, 2, 1}, {-1, -6}, PerTensor(1.0f, 0)});
  r.runner().AddInt32Input({2}, {1, 4});
  r.AddOutput(TensorType::kInt8, {1, 1, 4, 1}, PerTensor(1.0f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  // Positions -0.25 (both taps on pixel 0), 0.25, 0.75, 1.25 (both on pixel 1):
  // -1, -2.25 -> -2, -4.75 -> -5, -6.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{-1, -2, -5, -6}));
}

TEST(QuantizedResizeTest, NearestNeighbourCopiesStoredBytes) {
  QuantizedRunner r("RESIZE_NEAREST_NEIGHBOR");
  r.AddInput({TensorType::kUInt8, {1, 1, 2, 2}, {1, 2, 3, 4}, PerTensor(1.0f, 0)});
  r.runner().AddInt32Input({2}, {1, 4});
  r.AddOutput(TensorType::kUInt8, {1, 1, 4, 2}, PerTensor(1.0f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{1, 2, 1, 2, 3, 4, 3, 4}));
}

// Upstream's resize_bilinear_test.cc and resize_nearest_neighbor_test.cc HorizontalResize
// figures (3, 6 widened to three pixels), on int16 tensors.
TEST(QuantizedResizeTest, Int16BilinearAndNearestUpstreamCases) {
  QuantizedRunner bilinear("RESIZE_BILINEAR");
  bilinear.AddInput({TensorType::kInt16, {1, 1, 2, 1}, {3, 6}, PerTensor(1.0f / 256, 0)});
  bilinear.runner().AddInt32Input({2}, {1, 3});
  bilinear.AddOutput(TensorType::kInt16, {1, 1, 3, 1}, PerTensor(1.0f / 256, 0));
  ASSERT_TRUE(bilinear.runner().Run().ok());
  EXPECT_EQ(bilinear.Output(TensorType::kInt16), (std::vector<int32_t>{3, 5, 6}));

  QuantizedRunner nearest("RESIZE_NEAREST_NEIGHBOR");
  nearest.AddInput({TensorType::kInt16, {1, 1, 2, 1}, {3, 6}, PerTensor(1.0f / 256, 0)});
  nearest.runner().AddInt32Input({2}, {1, 3});
  nearest.AddOutput(TensorType::kInt16, {1, 1, 3, 1}, PerTensor(1.0f / 256, 0));
  ASSERT_TRUE(nearest.runner().Run().ok());
  EXPECT_EQ(nearest.Output(TensorType::kInt16), (std::vector<int32_t>{3, 3, 6}));
}

// Large int16 values keep their 20-bit weighted sums in 64 bits: halfway between -30000 and
// 30000 is 0, a quarter of the way -15000.
TEST(QuantizedResizeTest, Int16BilinearFullRange) {
  QuantizedRunner r("RESIZE_BILINEAR");
  r.AddInput({TensorType::kInt16, {1, 1, 2, 1}, {-30000, 30000}, PerTensor(1.0f, 0)});
  r.runner().AddInt32Input({2}, {1, 4});
  r.AddOutput(TensorType::kInt16, {1, 1, 4, 1}, PerTensor(1.0f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt16), (std::vector<int32_t>{-30000, 0, 30000, 30000}));
}

}  // namespace
}  // namespace tfa::runtime
