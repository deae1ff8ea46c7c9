#include "runtime/kernels/cpu/quantized_conv.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;
using testing::PseudoRandomValues;
using testing::QuantizedRunner;
using testing::QuantizedValues;

Quantization PerChannel(std::vector<float> scales, int dimension) {
  Quantization q;
  q.zero_point.assign(scales.size(), 0);
  q.scale = std::move(scales);
  q.quantized_dimension = dimension;
  return q;
}

// Bias stored with scale input_scale * weight_scale[c], dequantized for the float reference.
std::vector<float> BiasReal(const QuantizedValues& bias, float input_scale,
                            const Quantization& weights) {
  std::vector<float> real(bias.values.size());
  for (size_t c = 0; c < real.size(); ++c) {
    const float ws = weights.scale[weights.scale.size() > 1 ? c : 0];
    real[c] = static_cast<float>(bias.values[c]) * (input_scale * ws);
  }
  return real;
}

TEST(QuantizedConvTest, PointwiseInt8PerChannelByHand) {
  QuantizedRunner r("CONV_2D");
  r.runner().options().padding = Padding::kValid;
  // Input scale 0.5, zero point -1: pixels (2.0, 3.0) and (0.0, 1.0).
  r.AddInput({TensorType::kInt8, {1, 1, 2, 2}, {3, 5, -1, 1}, PerTensor(0.5f, -1)});
  // Channel 0: (0.25, 0.5) at scale 0.25; channel 1: (-0.25, 0.5) at scale 0.125.
  r.AddInput({TensorType::kInt8, {2, 1, 1, 2}, {1, 2, -2, 4}, PerChannel({0.25f, 0.125f}, 0)});
  r.AddInput({TensorType::kInt32, {2}, {4, -8}, PerChannel({0.125f, 0.0625f}, 0)});
  r.AddOutput(TensorType::kInt8, {1, 1, 2, 2}, PerTensor(0.25f, 10));
  ASSERT_TRUE(r.runner().Run().ok());
  // acc = sum w (x + 1) + bias: 20, 8, 8, 0; times 0.5 and 0.25; plus 10.
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{20, 12, 14, 10}));
}

// A tie, -2 * 0.25 = -0.5: ruy (int8 outputs) rounds it once, upward, to 0; gemmlowp's output
// stage (uint8 outputs) rounds twice, away from zero, to -1. Upstream's builtin kernels on x86-64
// give the uint8 coral mobilenet_v1_0.25_128_quant bit for bit only with the second.
TEST(QuantizedConvTest, GemmRescaleRoundsAsUpstreamsGemmForTheOutputType) {
  const QuantizedMultiplier quarter{int32_t{1} << 30, -1};
  EXPECT_EQ(RescaleGemmOutput<int8_t>(-2, quarter), 0);
  EXPECT_EQ(RescaleGemmOutput<uint8_t>(-2, quarter), -1);
  EXPECT_EQ(RescaleGemmOutput<int8_t>(2, quarter), 1);
  EXPECT_EQ(RescaleGemmOutput<uint8_t>(2, quarter), 1);
}

TEST(QuantizedConvTest, FusedReluClampsAtTheOutputZeroPoint) {
  QuantizedRunner r("CONV_2D");
  r.runner().options().padding = Padding::kValid;
  r.runner().options().fused_activation = Activation::kRelu;
  r.AddInput({TensorType::kInt8, {1, 1, 1, 1}, {-100}, PerTensor(1.0f, 0)});
  r.AddInput({TensorType::kInt8, {1, 1, 1, 1}, {1}, PerChannel({1.0f}, 0)});
  r.AddOutput(TensorType::kInt8, {1, 1, 1, 1}, PerTensor(1.0f, -5));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{-5}));
}

TEST(QuantizedConvTest, Int8FilterWithNonZeroZeroPointIsRefused) {
  QuantizedRunner r("CONV_2D");
  r.runner().options().padding = Padding::kValid;
  r.AddInput({TensorType::kInt8, {1, 1, 1, 1}, {1}, PerTensor(1.0f, 0)});
  r.AddInput({TensorType::kInt8, {1, 1, 1, 1}, {1}, PerTensor(1.0f, 3)});
  r.AddOutput(TensorType::kInt8, {1, 1, 1, 1}, PerTensor(1.0f, 0));
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "int8 weights must be symmetric (zero point 0)");
}

// Runs `op` quantized and in float on the dequantized operands; every stored output must be
// within one unit of the quantized float result.
void ExpectMatchesFloat(const std::string& op, const OpOptions& options,
                        const QuantizedValues& input, const QuantizedValues& weights,
                        const QuantizedValues& bias, const std::vector<int32_t>& out_shape,
                        const Quantization& out_q, TensorType type) {
  QuantizedRunner q(op);
  q.runner().options() = options;
  q.AddInput(input);
  q.AddInput(weights);
  q.AddInput(bias);
  q.AddOutput(type, out_shape, out_q);
  const Status qs = q.runner().Run();
  ASSERT_TRUE(qs.ok()) << qs.message();
  KernelRunner f(op);
  f.options() = options;
  f.AddFloatInput(input.shape, input.Dequantized());
  f.AddFloatInput(weights.shape, weights.Dequantized());
  f.AddFloatInput(bias.shape, BiasReal(bias, input.quantization.scale[0], weights.quantization));
  f.AddOutput(TensorType::kFloat32, out_shape);
  const Status fs = f.Run();
  ASSERT_TRUE(fs.ok()) << fs.message();
  const auto expected = testing::Quantize(f.Output(), out_q.scale[0],
                                          static_cast<int32_t>(out_q.zero_point[0]), type);
  const auto actual = q.Output(type);
  ASSERT_EQ(actual.size(), expected.size());
  int off_by_one = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_LE(std::abs(actual[i] - expected[i]), 1) << op << " element " << i;
    off_by_one += actual[i] != expected[i];
  }
  // Mostly exact: a systematic error would move many elements.
  EXPECT_LT(off_by_one, static_cast<int>(actual.size()) / 10 + 1) << op;
}

TEST(QuantizedConvTest, StridedPaddedConvMatchesFloatWithinOneUnit) {
  OpOptions o;
  o.padding = Padding::kSame;
  o.stride_h = o.stride_w = 2;
  o.fused_activation = Activation::kRelu6;
  const QuantizedValues input{
      TensorType::kInt8, {1, 9, 7, 5}, PseudoRandomValues(315, -128, 127, 1), PerTensor(0.05f, 7)};
  const QuantizedValues weights{TensorType::kInt8,
                                {6, 3, 3, 5},
                                PseudoRandomValues(270, -127, 127, 2),
                                PerChannel({0.004f, 0.003f, 0.005f, 0.002f, 0.006f, 0.0035f}, 0)};
  const QuantizedValues bias{TensorType::kInt32, {6}, PseudoRandomValues(6, -2000, 2000, 3), {}};
  ExpectMatchesFloat("CONV_2D", o, input, weights, bias, {1, 5, 4, 6}, PerTensor(0.03f, -20),
                     TensorType::kInt8);
}

TEST(QuantizedConvTest, DepthwiseConvMatchesFloatWithinOneUnit) {
  OpOptions o;
  o.padding = Padding::kSame;
  o.depth_multiplier = 2;
  const QuantizedValues input{
      TensorType::kInt8, {1, 6, 5, 3}, PseudoRandomValues(90, -128, 127, 4), PerTensor(0.04f, -3)};
  const QuantizedValues weights{TensorType::kInt8,
                                {1, 3, 3, 6},
                                PseudoRandomValues(54, -127, 127, 5),
                                PerChannel({0.01f, 0.02f, 0.015f, 0.012f, 0.008f, 0.03f}, 3)};
  const QuantizedValues bias{TensorType::kInt32, {6}, PseudoRandomValues(6, -500, 500, 6), {}};
  ExpectMatchesFloat("DEPTHWISE_CONV_2D", o, input, weights, bias, {1, 6, 5, 6},
                     PerTensor(0.05f, 4), TensorType::kInt8);
}

TEST(QuantizedConvTest, Uint8ConvWithWeightZeroPointMatchesFloatWithinOneUnit) {
  OpOptions o;
  o.padding = Padding::kValid;
  const QuantizedValues input{
      TensorType::kUInt8, {1, 4, 4, 3}, PseudoRandomValues(48, 0, 255, 7), PerTensor(0.02f, 120)};
  const QuantizedValues weights{
      TensorType::kUInt8, {4, 2, 2, 3}, PseudoRandomValues(48, 0, 255, 8), PerTensor(0.01f, 131)};
  const QuantizedValues bias{TensorType::kInt32, {4}, PseudoRandomValues(4, -300, 300, 9), {}};
  ExpectMatchesFloat("CONV_2D", o, input, weights, bias, {1, 3, 3, 4}, PerTensor(0.02f, 128),
                     TensorType::kUInt8);
}

TEST(QuantizedConvTest, FullyConnectedMatchesFloatWithinOneUnit) {
  OpOptions o;
  const QuantizedValues input{
      TensorType::kInt8, {2, 40}, PseudoRandomValues(80, -128, 127, 10), PerTensor(0.1f, 5)};
  const QuantizedValues weights{
      TensorType::kInt8, {7, 40}, PseudoRandomValues(280, -127, 127, 11), PerTensor(0.003f, 0)};
  const QuantizedValues bias{TensorType::kInt32, {7}, PseudoRandomValues(7, -1000, 1000, 12), {}};
  ExpectMatchesFloat("FULLY_CONNECTED", o, input, weights, bias, {2, 7}, PerTensor(0.08f, -2),
                     TensorType::kInt8);
}

}  // namespace
}  // namespace tfa::runtime
