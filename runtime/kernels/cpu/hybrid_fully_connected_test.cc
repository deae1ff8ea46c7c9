#include "runtime/kernels/cpu/hybrid_fully_connected.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// Weights [[1, 2], [3, -4]] at scale 0.5, input [1, -0.5] quantized to [127, -64] at 1/127:
// dot products -1 and 637, times 0.5 / 127, plus the bias [0.25, 0]. A float kernel would give
// 0.25 for the first unit: the hybrid result carries the input's quantization error, as
// upstream's does.
TEST(HybridFullyConnectedTest, QuantizesTheInputRowAndRescales) {
  KernelRunner k("FULLY_CONNECTED");
  Quantization weight_scale{{0.5f}, {0}, 0};
  k.AddFloatInput({1, 2}, {1, -0.5f});
  k.AddInput(TensorType::kInt8, {2, 2}, std::vector<int8_t>{1, 2, 3, -4}).quantization =
      &weight_scale;
  k.AddFloatInput({2}, {0.25f, 0});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  ASSERT_TRUE(k.Run().ok());
  const auto out = k.Output();
  EXPECT_NEAR(out[0], 0.246063f, 1e-6);
  EXPECT_NEAR(out[1], 2.507874f, 1e-6);
}

TEST(HybridFullyConnectedTest, RefusesWeightsWithoutScale) {
  KernelRunner k("FULLY_CONNECTED");
  Quantization none;
  k.AddFloatInput({1, 2}, {1, 2});
  k.AddInput(TensorType::kInt8, {1, 2}, std::vector<int8_t>{1, 2}).quantization = &none;
  k.AddOutput(TensorType::kFloat32, {1, 1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
