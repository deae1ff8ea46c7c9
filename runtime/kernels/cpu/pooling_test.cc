#include "runtime/kernels/cpu/pooling.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

void ThreeByThreeStrideTwo(KernelRunner& k) {
  k.options().padding = Padding::kSame;
  k.options().filter_h = k.options().filter_w = 2;
  k.options().stride_h = k.options().stride_w = 2;
  k.AddFloatInput({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  k.AddOutput(TensorType::kFloat32, {1, 2, 2, 1});
}

TEST(PoolingTest, AverageCountsOnlyPixelsInsideTheImage) {
  KernelRunner k("AVERAGE_POOL_2D");
  ThreeByThreeStrideTwo(k);
  ASSERT_TRUE(k.Run().ok());
  // SAME 3 -> 2 with a 2x2 window pads one pixel after: the right/bottom windows are clipped.
  EXPECT_EQ(k.Output(), (std::vector<float>{3, 4.5f, 7.5f, 9}));
}

TEST(PoolingTest, MaxIgnoresPadding) {
  KernelRunner k("MAX_POOL_2D");
  ThreeByThreeStrideTwo(k);
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output(), (std::vector<float>{5, 6, 8, 9}));
}

std::vector<float> RunL2Pool(Padding padding, int32_t stride, Activation activation,
                             const std::vector<float>& input, std::vector<int32_t> out_shape) {
  KernelRunner k("L2_POOL_2D");
  k.options().padding = padding;
  k.options().filter_h = k.options().filter_w = 2;
  k.options().stride_h = k.options().stride_w = stride;
  k.options().fused_activation = activation;
  k.AddFloatInput({1, 2, 4, 1}, input);
  k.AddOutput(TensorType::kFloat32, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output();
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-4f) << i;
}

// Figures of upstream's pooling_test.cc (FloatPoolingOpTest.L2Pool*).
TEST(PoolingTest, L2PoolUpstreamFigures) {
  ExpectNear(
      RunL2Pool(Padding::kValid, 2, Activation::kNone, {0, 6, 2, 4, 3, 2, 10, 7}, {1, 1, 2, 1}),
      {3.5f, 6.5f});
  ExpectNear(
      RunL2Pool(Padding::kValid, 2, Activation::kRelu, {-1, -6, 2, 4, -3, -2, 10, 7}, {1, 1, 2, 1}),
      {3.53553f, 6.5f});
  ExpectNear(
      RunL2Pool(Padding::kSame, 1, Activation::kNone, {0, 6, 2, 4, 3, 2, 10, 7}, {1, 2, 4, 1}),
      {3.5f, 6.0f, 6.5f, 5.70088f, 2.54951f, 7.2111f, 8.63134f, 7.0f});
}

TEST(PoolingTest, L2PoolTakesFloat32Only) {
  KernelRunner k("L2_POOL_2D");
  k.options().padding = Padding::kValid;
  k.options().filter_h = k.options().filter_w = 1;
  k.AddInput<int8_t>(TensorType::kInt8, {1, 1, 1, 1}, {1});
  k.AddOutput(TensorType::kInt8, {1, 1, 1, 1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
