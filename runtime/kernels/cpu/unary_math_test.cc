#include "runtime/kernels/cpu/unary_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;
using testing::PerTensor;
using testing::QuantizedRunner;

std::vector<float> RunFloat(const char* op, std::vector<int32_t> shape,
                            const std::vector<float>& input) {
  KernelRunner k(op);
  k.AddFloatInput(shape, input);
  k.AddOutput(TensorType::kFloat32, shape);
  EXPECT_TRUE(k.Run().ok()) << op;
  return k.Output();
}

// Figures of upstream's exp_test.cc ExpFloat.
TEST(UnaryMathTest, ExpFloat) {
  const std::vector<float> in = {0.0f, 1.0f, -1.0f, 100.0f, -100.0f, 0.01f, -0.01f};
  const auto out = RunFloat("EXP", {1, 1, 7}, in);
  for (size_t i = 0; i < in.size(); ++i) EXPECT_FLOAT_EQ(out[i], std::exp(in[i])) << i;
}

// Figures of upstream's elementwise_test.cc Sqrt and Square.
TEST(UnaryMathTest, SqrtAndSquare) {
  const auto sqrt = RunFloat("SQRT", {1, 1, 4, 1}, {0, 1, 2, 4});
  EXPECT_EQ(sqrt[0], 0.0f);
  EXPECT_EQ(sqrt[1], 1.0f);
  EXPECT_NEAR(sqrt[2], 1.41421f, 1e-5);
  EXPECT_EQ(sqrt[3], 2.0f);
  EXPECT_EQ(RunFloat("SQUARE", {1, 1, 4, 1}, {1, 2, 0.5f, -3.0f}),
            (std::vector<float>{1, 4.0f, 0.25f, 9.0f}));
}

// Figures of upstream's elementwise_test.cc Abs and AbsInt32.
TEST(UnaryMathTest, AbsFloatAndInt32) {
  EXPECT_EQ(RunFloat("ABS", {1, 2, 4, 1}, {0.f, -6.2f, 2.f, 4.f, 3.f, -2.f, 10.f, 1.f}),
            (std::vector<float>{0.f, 6.2f, 2.f, 4.f, 3.f, 2.f, 10.f, 1.f}));
  KernelRunner k("ABS");
  k.AddInt32Input({1, 2, 4, 1}, {0, -6, 2, 4, 3, -2, 10, 1});
  k.AddOutput(TensorType::kInt32, {1, 2, 4, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{0, 6, 2, 4, 3, 2, 10, 1}));
}

// Upstream's AbsInt8: the data quantized asymmetrically over its own range [-142, 113]
// (scale 1, zero point 14), the output on [0, 142] with zero point -128; the dequantized result
// is |x| within one input step.
TEST(UnaryMathTest, AbsInt8RescalesToTheOutput) {
  const std::vector<float> data = {15., 46., 78., -142., -1., -17., -49., 113.};
  const float input_scale = 1.0f, output_scale = 142.0f / 255.0f;
  const int32_t input_zero_point = 14;
  std::vector<int32_t> stored;
  for (float x : data) stored.push_back(static_cast<int32_t>(std::round(x)) + input_zero_point);
  QuantizedRunner q("ABS");
  q.AddInput({TensorType::kInt8, {1, 8}, stored, PerTensor(input_scale, input_zero_point)});
  q.AddOutput(TensorType::kInt8, {1, 8}, PerTensor(output_scale, -128));
  ASSERT_TRUE(q.runner().Run().ok());
  const auto out = q.Output(TensorType::kInt8);
  for (size_t i = 0; i < data.size(); ++i) {
    EXPECT_NEAR((out[i] + 128) * output_scale, std::abs(data[i]), input_scale) << i;
  }
}

// Upstream's AbsInt16: symmetric int16 on [-142, 142] in, [-150, 150] out.
TEST(UnaryMathTest, AbsInt16Quantized) {
  const std::vector<float> data = {15., 46., 78., -142., -1., -17., -49., 113.};
  const float input_scale = 142.0f / 32767, output_scale = 150.0f / 32767;
  std::vector<int16_t> stored;
  for (float x : data) stored.push_back(static_cast<int16_t>(std::round(x / input_scale)));
  QuantizedRunner q("ABS");
  const Quantization in_q = PerTensor(input_scale, 0);
  q.runner().AddInput(TensorType::kInt16, {1, 8}, stored).quantization = &in_q;
  q.AddOutput(TensorType::kInt16, {1, 8}, PerTensor(output_scale, 0));
  ASSERT_TRUE(q.runner().Run().ok());
  const auto out = q.runner().Output<int16_t>();
  for (size_t i = 0; i < data.size(); ++i) {
    EXPECT_NEAR(out[i] * output_scale, std::abs(data[i]), 300.0f / 65535) << i;
  }
}

TEST(UnaryMathTest, NegAndSignKeepTheirIntegerTypes) {
  KernelRunner neg("NEG");
  neg.AddInput<int64_t>(TensorType::kInt64, {3}, {-2, 0, std::numeric_limits<int64_t>::min()});
  neg.AddOutput(TensorType::kInt64, {3});
  ASSERT_TRUE(neg.Run().ok());
  EXPECT_EQ(neg.Output<int64_t>(),
            (std::vector<int64_t>{2, 0, std::numeric_limits<int64_t>::min()}));
  EXPECT_EQ(RunFloat("NEG", {2}, {1.5f, -0.0f}), (std::vector<float>{-1.5f, 0.0f}));
  KernelRunner sign("SIGN");
  sign.AddInt32Input({3}, {-7, 0, 9});
  sign.AddOutput(TensorType::kInt32, {3});
  ASSERT_TRUE(sign.Run().ok());
  EXPECT_EQ(sign.Output<int32_t>(), (std::vector<int32_t>{-1, 0, 1}));
}

TEST(UnaryMathTest, AMissingTypeNamesWhatTheRuntimeHas) {
  KernelRunner k("NEG");
  k.AddInput<int8_t>(TensorType::kInt8, {1}, {1});
  k.AddOutput(TensorType::kInt8, {1});
  EXPECT_EQ(k.Run().message(),
            "the runtime has no int8 kernel for this op's input (it has float32, int32, int64)");
}

TEST(UnaryMathTest, RsqrtAndLog) {
  KernelRunner rsqrt("RSQRT");
  rsqrt.AddFloatInput({3}, {1, 4, 0.25f});
  rsqrt.AddOutput(TensorType::kFloat32, {3});
  ASSERT_TRUE(rsqrt.Run().ok());
  EXPECT_EQ(rsqrt.Output(), (std::vector<float>{1, 0.5f, 2}));
  KernelRunner log("LOG");
  log.AddFloatInput({2}, {1, 1});
  log.AddOutput(TensorType::kFloat32, {2});
  ASSERT_TRUE(log.Run().ok());
  EXPECT_EQ(log.Output(), (std::vector<float>{0, 0}));
}

TEST(UnaryMathTest, GeluExactAndApproximate) {
  // gelu(0) = 0; gelu(x) ~ x for large x; gelu(-x) ~ 0 for large x.
  for (bool approximate : {false, true}) {
    KernelRunner k("GELU");
    k.node_data().gelu_approximate = approximate;
    k.AddFloatInput({3}, {0, 10, -10});
    k.AddOutput(TensorType::kFloat32, {3});
    ASSERT_TRUE(k.Run().ok());
    const auto out = k.Output();
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_FLOAT_EQ(out[1], 10.0f);
    EXPECT_NEAR(out[2], 0.0f, 1e-6);
  }
  // gelu(1) = 0.5 * (1 + erf(1 / sqrt 2)) = 0.841345; the tanh form gives 0.841192.
  KernelRunner exact("GELU");
  exact.AddFloatInput({1}, {1});
  exact.AddOutput(TensorType::kFloat32, {1});
  ASSERT_TRUE(exact.Run().ok());
  EXPECT_NEAR(exact.Output()[0], 0.841345f, 1e-6);
  KernelRunner tanh_form("GELU");
  tanh_form.node_data().gelu_approximate = true;
  tanh_form.AddFloatInput({1}, {1});
  tanh_form.AddOutput(TensorType::kFloat32, {1});
  ASSERT_TRUE(tanh_form.Run().ok());
  EXPECT_NEAR(tanh_form.Output()[0], 0.841192f, 1e-6);
}

// Upstream's elementwise_test.cc RsqrtInt8 and RsqrtNanInt8 (facts copied): input scale 142/255
// and output 1/255, both zero points -128, within upstream's tolerance of one input step; a
// negative input is an error.
TEST(UnaryMathTest, Int8RsqrtUpstreamCases) {
  const std::vector<float> data = {15, 46, 78, 142, 1, 17, 49, 113};
  const float in_scale = 142.0f / 255, out_scale = 1.0f / 255;
  testing::QuantizedRunner r("RSQRT");
  r.AddInput({TensorType::kInt8,
              {1, 8},
              testing::Quantize(data, in_scale, -128, TensorType::kInt8),
              testing::PerTensor(in_scale, -128)});
  r.AddOutput(TensorType::kInt8, {1, 8}, testing::PerTensor(out_scale, -128));
  ASSERT_TRUE(r.runner().Run().ok());
  const auto real = testing::Dequantize(r.Output(TensorType::kInt8), out_scale, -128);
  for (size_t i = 0; i < data.size(); ++i)
    EXPECT_NEAR(real[i], 1.0f / std::sqrt(data[i]), in_scale);

  testing::QuantizedRunner negative("RSQRT");
  const float nan_scale = 142.0f / 127;
  negative.AddInput({TensorType::kInt8,
                     {1, 2},
                     testing::Quantize({15, -49}, nan_scale, 0, TensorType::kInt8),
                     testing::PerTensor(nan_scale, 0)});
  negative.AddOutput(TensorType::kInt8, {1, 2}, testing::PerTensor(out_scale, -128));
  const Status status = negative.runner().Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "Rsqrt is only defined for positive values");
}

}  // namespace
}  // namespace tfa::runtime
