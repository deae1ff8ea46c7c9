#include "runtime/kernels/cpu/quantized_elementwise.h"

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

TEST(QuantizedElementwiseTest, AddRescalesBothInputsToTheOutputByHand) {
  QuantizedRunner r("ADD");
  // 1.0 + 0.5, -0.5 + 1.0, 2.0 + (-1.0), with different input scales.
  r.AddInput({TensorType::kInt8, {3}, {10, -5, 20}, PerTensor(0.1f, 0)});
  r.AddInput({TensorType::kInt8, {3}, {3, 5, -3}, PerTensor(0.25f, 1)});
  r.AddOutput(TensorType::kInt8, {3}, PerTensor(0.5f, -2));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt8), (std::vector<int32_t>{1, -1, 0}));
}

TEST(QuantizedElementwiseTest, MulAndFusedReluByHand) {
  QuantizedRunner r("MUL");
  r.runner().options().fused_activation = Activation::kRelu;
  r.AddInput({TensorType::kUInt8, {2}, {130, 120}, PerTensor(0.5f, 128)});   // 1.0, -4.0
  r.AddInput({TensorType::kUInt8, {2}, {140, 140}, PerTensor(0.25f, 128)});  // 3.0, 3.0
  r.AddOutput(TensorType::kUInt8, {2}, PerTensor(0.5f, 100));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kUInt8), (std::vector<int32_t>{106, 100}));  // 3.0, relu(-12)
}

void ExpectMatchesFloat(const std::string& op, const QuantizedValues& a, const QuantizedValues& b,
                        const std::vector<int32_t>& out_shape, const Quantization& out_q) {
  QuantizedRunner q(op);
  q.AddInput(a);
  q.AddInput(b);
  q.AddOutput(a.type, out_shape, out_q);
  ASSERT_TRUE(q.runner().Run().ok());
  KernelRunner f(op);
  f.AddFloatInput(a.shape, a.Dequantized());
  f.AddFloatInput(b.shape, b.Dequantized());
  f.AddOutput(TensorType::kFloat32, out_shape);
  ASSERT_TRUE(f.Run().ok());
  const auto expected = testing::Quantize(f.Output(), out_q.scale[0],
                                          static_cast<int32_t>(out_q.zero_point[0]), a.type);
  const auto actual = q.Output(a.type);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    ASSERT_LE(std::abs(actual[i] - expected[i]), 1) << op << " element " << i;
}

TEST(QuantizedElementwiseTest, BroadcastAddSubMulMatchFloatWithinOneUnit) {
  const QuantizedValues a{
      TensorType::kInt8, {2, 3, 4}, PseudoRandomValues(24, -128, 127, 1), PerTensor(0.07f, 3)};
  const QuantizedValues b{
      TensorType::kInt8, {3, 1}, PseudoRandomValues(3, -128, 127, 2), PerTensor(0.02f, -9)};
  ExpectMatchesFloat("ADD", a, b, {2, 3, 4}, PerTensor(0.1f, 1));
  ExpectMatchesFloat("SUB", a, b, {2, 3, 4}, PerTensor(0.1f, -1));
  ExpectMatchesFloat("MUL", a, b, {2, 3, 4}, PerTensor(0.02f, 0));
}

TEST(QuantizedElementwiseTest, MixedTypesAreRefused) {
  QuantizedRunner r("ADD");
  r.AddInput({TensorType::kInt8, {1}, {1}, PerTensor(1.0f, 0)});
  r.AddInput({TensorType::kUInt8, {1}, {1}, PerTensor(1.0f, 0)});
  r.AddOutput(TensorType::kInt8, {1}, PerTensor(1.0f, 0));
  const Status status = r.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "the runtime has no uint8 kernel for this op's input 1 (it has int8)");
}

// Upstream's mul_test.cc NoActivationInt16 (facts copied): scale 1 / 32768, zero points 0;
// within upstream's int16 tolerance of two steps.
TEST(QuantizedElementwiseTest, Int16MulUpstreamCase) {
  const float scale = 1.0f / 32768;
  QuantizedRunner r("MUL");
  r.AddInput({TensorType::kInt16,
              {1, 2, 2, 1},
              testing::Quantize({-0.8f, 0.2f, 0.9f, 0.7f}, scale, 0, TensorType::kInt16),
              PerTensor(scale, 0)});
  r.AddInput({TensorType::kInt16,
              {1, 2, 2, 1},
              testing::Quantize({0.6f, 0.4f, 0.9f, 0.8f}, scale, 0, TensorType::kInt16),
              PerTensor(scale, 0)});
  r.AddOutput(TensorType::kInt16, {1, 2, 2, 1}, PerTensor(scale, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto real = testing::Dequantize(r.Output(TensorType::kInt16), scale, 0);
  const std::vector<float> expected = {-0.48f, 0.08f, 0.81f, 0.56f};
  for (size_t i = 0; i < real.size(); ++i) EXPECT_NEAR(real[i], expected[i], 2 * 2.0f / 65535);
}

// (300 * 0.01) * (-200 * 0.02) = -12, stored -24 at scale 0.5, broadcast over a scalar; a
// nonzero zero point is refused, as mul.cc's Eval does.
TEST(QuantizedElementwiseTest, Int16MulBroadcastsAndRefusesZeroPoints) {
  QuantizedRunner r("MUL");
  r.AddInput({TensorType::kInt16, {2}, {300, -300}, PerTensor(0.01f, 0)});
  r.AddInput({TensorType::kInt16, {}, {-200}, PerTensor(0.02f, 0)});
  r.AddOutput(TensorType::kInt16, {2}, PerTensor(0.5f, 0));
  ASSERT_TRUE(r.runner().Run().ok());
  EXPECT_EQ(r.Output(TensorType::kInt16), (std::vector<int32_t>{-24, 24}));

  QuantizedRunner asymmetric("MUL");
  asymmetric.AddInput({TensorType::kInt16, {1}, {3}, PerTensor(0.01f, 1)});
  asymmetric.AddInput({TensorType::kInt16, {1}, {3}, PerTensor(0.01f, 0)});
  asymmetric.AddOutput(TensorType::kInt16, {1}, PerTensor(0.01f, 0));
  const Status status = asymmetric.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "an int16 MUL needs every zero point to be 0");
}

// Upstream's squared_difference_test.cc Quantized_SameShape (facts copied): int8 inputs over
// [-1.2, 0.8] and [-1.5, 0.5], output over [0, 0.5]; within one output step.
TEST(QuantizedElementwiseTest, Int8SquaredDifferenceUpstreamCase) {
  const float s_in = 2.0f / 255, s_out = 0.5f / 255;
  QuantizedRunner r("SQUARED_DIFFERENCE");
  r.AddInput({TensorType::kInt8,
              {1, 2, 2, 1},
              testing::Quantize({-0.2f, 0.2f, -1.2f, 0.8f}, s_in, 25, TensorType::kInt8),
              PerTensor(s_in, 25)});
  r.AddInput({TensorType::kInt8,
              {1, 2, 2, 1},
              testing::Quantize({0.5f, 0.2f, -1.5f, 0.5f}, s_in, 63, TensorType::kInt8),
              PerTensor(s_in, 63)});
  r.AddOutput(TensorType::kInt8, {1, 2, 2, 1}, PerTensor(s_out, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto real = testing::Dequantize(r.Output(TensorType::kInt8), s_out, -128);
  const std::vector<float> expected = {0.49f, 0.0f, 0.09f, 0.09f};
  for (size_t i = 0; i < real.size(); ++i) EXPECT_NEAR(real[i], expected[i], 1.0f / 255);
}

TEST(QuantizedElementwiseTest, Uint8SquaredDifferenceIsRefused) {
  QuantizedRunner r("SQUARED_DIFFERENCE");
  r.AddInput({TensorType::kUInt8, {1}, {3}, PerTensor(0.1f, 0)});
  r.AddInput({TensorType::kUInt8, {1}, {3}, PerTensor(0.1f, 0)});
  r.AddOutput(TensorType::kUInt8, {1}, PerTensor(0.1f, 0));
  EXPECT_FALSE(r.runner().Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
