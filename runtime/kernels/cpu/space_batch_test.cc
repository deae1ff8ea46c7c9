#include "runtime/kernels/cpu/space_batch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;
using testing::QuantizedRunner;

std::vector<float> Iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 1.0f);
  return v;
}

std::vector<float> RunSpaceBatch(const char* op, std::vector<int32_t> in_shape,
                                 const std::vector<float>& in, const std::vector<int32_t>& block,
                                 const std::vector<int32_t>& pads, std::vector<int32_t> out_shape) {
  KernelRunner k(op);
  k.AddFloatInput(std::move(in_shape), in);
  const auto spatial = static_cast<int32_t>(block.size());
  k.AddInt32Input({spatial}, block).is_constant = true;
  k.AddInt32Input({spatial, 2}, pads).is_constant = true;
  k.AddOutput(TensorType::kFloat32, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << op << ": " << status.message();
  return k.Output();
}

// Figures of upstream's space_to_batch_nd_test.cc.
TEST(SpaceToBatchNdTest, UpstreamFigures) {
  const std::vector<float> blocks = {1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16};
  EXPECT_EQ(RunSpaceBatch("SPACE_TO_BATCH_ND", {1, 4, 4, 1}, Iota(16), {2, 2}, {0, 0, 0, 0},
                          {4, 2, 2, 1}),
            blocks);
  EXPECT_EQ(RunSpaceBatch("SPACE_TO_BATCH_ND", {2, 2, 4, 1}, Iota(16), {2, 2}, {0, 0, 0, 0},
                          {8, 1, 2, 1}),
            blocks);
  EXPECT_EQ(RunSpaceBatch("SPACE_TO_BATCH_ND", {1, 5, 2, 1}, Iota(10), {3, 2}, {1, 0, 2, 0},
                          {6, 2, 2, 1}),
            (std::vector<float>{0, 0, 0, 5, 0, 0, 0, 6, 0, 1, 0, 7,
                                0, 2, 0, 8, 0, 3, 0, 9, 0, 4, 0, 10}));
  EXPECT_EQ(
      RunSpaceBatch("SPACE_TO_BATCH_ND", {1, 4, 2, 1}, Iota(8), {3, 2}, {1, 1, 2, 4}, {6, 2, 4, 1}),
      (std::vector<float>{0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0,
                          0, 2, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(RunSpaceBatch("SPACE_TO_BATCH_ND", {1, 4, 4}, Iota(16), {2}, {2, 2}, {2, 4, 4}),
            (std::vector<float>{0, 0, 0, 0, 1, 2, 3, 4, 9,  10, 11, 12, 0, 0, 0, 0,
                                0, 0, 0, 0, 5, 6, 7, 8, 13, 14, 15, 16, 0, 0, 0, 0}));
}

// Upstream's QuantizedSpaceToBatchNDOpTest.ComplexPaddingConstTest: uint8 on [-1, 1] (scale
// 2/255, zero point 128) pads with the zero point, so padding dequantizes to 0.
TEST(SpaceToBatchNdTest, QuantizedPaddingIsTheZeroPoint) {
  const float scale = 2.0f / 255;
  const std::vector<float> data = {-0.1f, 0.2f, -0.3f, 0.4f, -0.5f, 0.6f, -0.7f, 0.8f};
  std::vector<int32_t> stored;
  for (float x : data) stored.push_back(static_cast<int32_t>(std::round(x / scale)) + 128);
  QuantizedRunner q("SPACE_TO_BATCH_ND");
  q.AddInput({TensorType::kUInt8, {1, 4, 2, 1}, stored, PerTensor(scale, 128)});
  q.runner().AddInt32Input({2}, {3, 2}).is_constant = true;
  q.runner().AddInt32Input({2, 2}, {1, 1, 2, 4}).is_constant = true;
  q.AddOutput(TensorType::kUInt8, {6, 2, 4, 1}, PerTensor(scale, 128));
  ASSERT_TRUE(q.runner().Run().ok());
  const std::vector<float> expected = {
      0, 0,   0, 0, 0, -0.5, 0, 0, 0, 0,    0, 0, 0, 0.6, 0, 0, 0, -0.1, 0, 0, 0, -0.7, 0, 0,
      0, 0.2, 0, 0, 0, 0.8,  0, 0, 0, -0.3, 0, 0, 0, 0,   0, 0, 0, 0.4,  0, 0, 0, 0,    0, 0,
  };
  const auto out = q.Output(TensorType::kUInt8);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR((out[i] - 128) * scale, expected[i], scale) << i;
  }
}

// Figures of upstream's batch_to_space_nd_test.cc SimpleConstTest.
TEST(BatchToSpaceNdTest, UpstreamFigures) {
  EXPECT_EQ(RunSpaceBatch("BATCH_TO_SPACE_ND", {4, 2, 2, 1}, Iota(16), {2, 2}, {0, 0, 0, 0},
                          {1, 4, 4, 1}),
            (std::vector<float>{1, 5, 2, 6, 9, 13, 10, 14, 3, 7, 4, 8, 11, 15, 12, 16}));
}

// Cropping what SPACE_TO_BATCH_ND padded gives its input back.
TEST(BatchToSpaceNdTest, CropsUndoPadding) {
  const auto batched =
      RunSpaceBatch("SPACE_TO_BATCH_ND", {1, 4, 2, 1}, Iota(8), {3, 2}, {1, 1, 2, 4}, {6, 2, 4, 1});
  EXPECT_EQ(
      RunSpaceBatch("BATCH_TO_SPACE_ND", {6, 2, 4, 1}, batched, {3, 2}, {1, 1, 2, 4}, {1, 4, 2, 1}),
      Iota(8));
}

TEST(SpaceToBatchNdTest, ABlockThatDoesNotDivideIsAnError) {
  KernelRunner k("SPACE_TO_BATCH_ND");
  k.AddFloatInput({1, 3, 3, 1}, Iota(9));
  k.AddInt32Input({2}, {2, 2}).is_constant = true;
  k.AddInt32Input({2, 2}, {0, 0, 0, 0}).is_constant = true;
  k.AddOutput(TensorType::kFloat32, {4, 1, 1, 1});
  EXPECT_EQ(k.Run().message(), "padded spatial size is not a multiple of the block shape");
}

}  // namespace
}  // namespace tfa::runtime
