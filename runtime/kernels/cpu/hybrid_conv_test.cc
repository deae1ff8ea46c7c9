#include "runtime/kernels/cpu/hybrid_conv.h"

#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;

struct HybridConvRunner {
  KernelRunner runner{"CONV_2D"};
  std::deque<Quantization> quantizations;

  void Filter(std::vector<int32_t> shape, const std::vector<int8_t>& values, Quantization q) {
    RuntimeTensor& t = runner.AddInput(TensorType::kInt8, std::move(shape), values);
    t.quantization = &quantizations.emplace_back(std::move(q));
  }
};

// A 1x1 convolution with a per-tensor filter: no im2col; the image is quantized symmetrically
// (max |x| = 1, so q = round(127 x): 127, -64, 32, 64) and each int8 dot product is scaled by
// (1/127) * 0.01, then the bias is added.
TEST(HybridConvTest, PerTensorFilterScalesDotProductsByImageAndFilterScales) {
  HybridConvRunner c;
  c.runner.options().padding = Padding::kValid;
  c.runner.AddFloatInput({1, 1, 2, 2}, {1.0f, -0.5f, 0.25f, 0.5f});
  c.Filter({2, 1, 1, 2}, {127, 0, -64, 64}, PerTensor(0.01f, 0));
  c.runner.AddFloatInput({2}, {0.1f, -0.1f});
  c.runner.AddOutput(TensorType::kFloat32, {1, 1, 2, 2});
  c.runner.AddTemporary(TensorType::kInt8, {1, 1, 2, 2});  // input_quantized
  c.runner.AddTemporary(TensorType::kFloat32, {2});        // scaling_factors
  c.runner.AddTemporary(TensorType::kInt32, {2, 2});       // accum_scratch
  ASSERT_TRUE(c.runner.Run().ok());
  const float factor = (1.0f / 127) * 0.01f;
  const std::vector<float> out = c.runner.Output<float>();
  ASSERT_EQ(out.size(), 4u);
  EXPECT_FLOAT_EQ(out[0], 16129 * factor + 0.1f);   // 127 * 127
  EXPECT_FLOAT_EQ(out[1], -12224 * factor - 0.1f);  // -64 * 127 + 64 * -64
  EXPECT_FLOAT_EQ(out[2], 4064 * factor + 0.1f);    // 127 * 32
  EXPECT_FLOAT_EQ(out[3], 2048 * factor - 0.1f);    // -64 * 32 + 64 * 64
}

// A 2x2 SAME convolution with per-channel scales: the image [1, 2.5, 3, -1] is quantized
// asymmetrically over [-1, 3] (scale 4/255, zero point -64, so q - zp = 64, 159, 191, -64), im2col
// pads with the zero point (contributing nothing) and each dot product, less row_sum * zp, is
// scaled by the channel's scale times the image's.
TEST(HybridConvTest, PerChannelFilterSubtractsTheImageZeroPointThroughRowSums) {
  HybridConvRunner c;
  c.runner.options().padding = Padding::kSame;
  c.runner.AddFloatInput({1, 2, 2, 1}, {1.0f, 2.5f, 3.0f, -1.0f});
  Quantization q;
  q.scale = {0.5f, 0.25f};
  q.zero_point = {0, 0};
  c.Filter({2, 2, 2, 1}, {1, 2, 3, 4, -1, 0, 0, 1}, q);
  c.runner.AddFloatInput({2}, {0.0f, 1.0f});
  c.runner.AddOutput(TensorType::kFloat32, {1, 2, 2, 2});
  c.runner.AddTemporary(TensorType::kInt8, {1, 2, 2, 4});  // im2col
  c.runner.AddTemporary(TensorType::kInt8, {1, 2, 2, 1});  // input_quantized
  c.runner.AddTemporary(TensorType::kFloat32, {4});        // scaling_factors
  c.runner.AddTemporary(TensorType::kInt32, {2, 4});       // accum_scratch
  c.runner.AddTemporary(TensorType::kInt32, {4});          // input_offsets
  c.runner.AddTemporary(TensorType::kInt32, {2});          // row_sums
  ASSERT_TRUE(c.runner.Run().ok());
  const auto s = static_cast<float>(4.0 / 255);
  const float s0 = 0.5f * s, s1 = 0.25f * s;
  const std::vector<float> expected = {699 * s0, -128 * s1 + 1, -33 * s0, -159 * s1 + 1,
                                       63 * s0,  -191 * s1 + 1, -64 * s0, 64 * s1 + 1};
  const std::vector<float> out = c.runner.Output<float>();
  ASSERT_EQ(out.size(), expected.size());
  for (size_t i = 0; i < out.size(); ++i) EXPECT_FLOAT_EQ(out[i], expected[i]) << i;
}

TEST(HybridConvTest, TemporariesOtherThanUpstreamsAreRefused) {
  HybridConvRunner c;
  c.runner.options().padding = Padding::kValid;
  c.runner.AddFloatInput({1, 1, 1, 1}, {1.0f});
  c.Filter({1, 1, 1, 1}, {1}, PerTensor(1.0f, 0));
  c.runner.AddFloatInput({1}, {0.0f});
  c.runner.AddOutput(TensorType::kFloat32, {1, 1, 1, 1});
  c.runner.AddTemporary(TensorType::kInt8, {1, 1, 1, 1});
  const Status status = c.runner.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "the plan gave the hybrid kernel 1 temporaries, upstream's Prepare adds 3");
}

// Inside a delegate's partition the node has no planned temporaries: the same values come from
// buffers in kernel scratch.
TEST(HybridConvTest, WithoutPlannedTemporariesItWorksInScratch) {
  HybridConvRunner c;
  c.runner.options().padding = Padding::kValid;
  c.runner.AddFloatInput({1, 1, 2, 2}, {1.0f, -0.5f, 0.25f, 0.5f});
  c.Filter({2, 1, 1, 2}, {127, 0, -64, 64}, PerTensor(0.01f, 0));
  c.runner.AddFloatInput({2}, {0.1f, -0.1f});
  c.runner.AddOutput(TensorType::kFloat32, {1, 1, 2, 2});
  ASSERT_TRUE(c.runner.Run().ok());
  const float factor = (1.0f / 127) * 0.01f;
  const std::vector<float> out = c.runner.Output<float>();
  ASSERT_EQ(out.size(), 4u);
  EXPECT_FLOAT_EQ(out[0], 16129 * factor + 0.1f);
  EXPECT_FLOAT_EQ(out[3], 2048 * factor - 0.1f);
}

TEST(HybridConvTest, AUint8FilterIsRefused) {
  KernelRunner r("CONV_2D");
  r.options().padding = Padding::kValid;
  r.AddFloatInput({1, 1, 1, 1}, {1.0f});
  r.AddInput(TensorType::kUInt8, {1, 1, 1, 1}, std::vector<uint8_t>{1});
  r.AddFloatInput({1}, {0.0f});
  r.AddOutput(TensorType::kFloat32, {1, 1, 1, 1});
  const Status status = r.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "the runtime has no uint8 kernel for this op's filter (it has int8)");
}

}  // namespace
}  // namespace tfa::runtime
