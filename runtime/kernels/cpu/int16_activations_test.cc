#include "runtime/kernels/cpu/int16_activations.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

struct Int16Case {
  std::string op;
  float input_scale = 0.0f;
  float output_scale = 0.0f;
  std::vector<int16_t> input;
};

// Runs `op` on int16 tensors with zero points 0; fails the test when the kernel refuses.
std::vector<int16_t> RunInt16(const Int16Case& c, float alpha = 0.0f) {
  KernelRunner k(c.op);
  k.options().alpha = alpha;
  Quantization in_q{{c.input_scale}, {0}, 0}, out_q{{c.output_scale}, {0}, 0};
  const auto n = static_cast<int32_t>(c.input.size());
  k.AddInput(TensorType::kInt16, {n}, c.input).quantization = &in_q;
  k.AddOutput(TensorType::kInt16, {n}).quantization = &out_q;
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<int16_t>();
}

std::vector<int16_t> QuantizeInt16(const std::vector<float>& real, float scale) {
  std::vector<int16_t> q;
  for (float x : real) {
    const long v = std::lround(x / scale);
    q.push_back(static_cast<int16_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v)));
  }
  return q;
}

// upstream's activations_test.cc ReluInt16 and Relu6Int16: range [-8, 8) is scale 2^-12,
// inputs {0, -6, 2, 4, 3, -2, 7 (10 for RELU6), 1}.
TEST(Int16ActivationsTest, ReluMatchesUpstream) {
  const float s = 1.0f / 4096;
  EXPECT_EQ(RunInt16({"RELU", s, s, QuantizeInt16({0, -6, 2, 4, 3, -2, 7, 1}, s)}),
            (std::vector<int16_t>{0, 0, 8192, 16384, 12288, 0, 28672, 4096}));
  EXPECT_EQ(RunInt16({"RELU6", s, s, QuantizeInt16({0, -6, 2, 4, 3, -2, 10, 1}, s)}),
            (std::vector<int16_t>{0, 0, 8192, 16384, 12288, 0, 24576, 4096}));
}

// RELU rescales to the output scale: 1000 at 2^-12 is 500 at 2^-11.
TEST(Int16ActivationsTest, ReluRescales) {
  EXPECT_EQ(RunInt16({"RELU", 1.0f / 4096, 1.0f / 2048, {1000, -1000, 1001}}),
            (std::vector<int16_t>{500, 0, 501}));
}

std::vector<float> Dequantize(const std::vector<int16_t>& q, float scale) {
  std::vector<float> real;
  for (int16_t v : q) real.push_back(static_cast<float>(v) * scale);
  return real;
}

// upstream's QuantizedActivationsOpTestLeakyRelu<INT16>: range [-5, 5) (scale 5 * 2^-15),
// alpha 0.1, -5 .. 4.6 in steps of 0.4, within kQuantizedToleranceInt16 = 2 / 4096.
TEST(Int16ActivationsTest, LeakyReluMatchesUpstream) {
  const float s = 5.0f / 32768;
  std::vector<float> x;
  for (int i = 0; i < 25; ++i) x.push_back(-5.0f + 0.4f * static_cast<float>(i));
  const auto out = Dequantize(RunInt16({"LEAKY_RELU", s, s, QuantizeInt16(x, s)}, 0.1f), s);
  ASSERT_EQ(out.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(out[i], x[i] < 0 ? 0.1f * x[i] : x[i], 2.0 / 4096) << x[i];
}

// upstream's TanhInt16 and SigmoidInt16 tests: 89 points from -8 to 8 (input scale 2^-12, the
// gemmlowp path) and, for LOGISTIC, 177 points from -20 to 20 at scale 2^-11 (the table path),
// output scale 2^-15, within kQuantizedToleranceInt16 = 2 / 4096.
void ExpectNearFunction(const std::string& op, float input_scale, float limit, int points,
                        double (*f)(double)) {
  const float out_scale = 1.0f / 32768;
  std::vector<float> x;
  for (int i = 0; i < points; ++i)
    x.push_back(-limit + 2 * limit * static_cast<float>(i) / static_cast<float>(points - 1));
  const auto out =
      Dequantize(RunInt16({op, input_scale, out_scale, QuantizeInt16(x, input_scale)}), out_scale);
  ASSERT_EQ(out.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(out[i], f(x[i]), 2.0 / 4096) << op << x[i];
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double Tanh(double x) { return std::tanh(x); }

TEST(Int16ActivationsTest, TanhAndLogisticMatchUpstreamWithinItsTolerance) {
  ExpectNearFunction("TANH", 1.0f / 4096, 8.0f, 89, Tanh);
  ExpectNearFunction("TANH", 1.0f / 2048, 8.0f, 89, Tanh);
  ExpectNearFunction("TANH", 10.0f / 32768, 10.0f, 89, Tanh);
  ExpectNearFunction("LOGISTIC", 1.0f / 4096, 8.0f, 89, Sigmoid);
  ExpectNearFunction("LOGISTIC", 1.0f / 2048, 20.0f, 177, Sigmoid);
}

// The table path's fixed points, worked through reference_integer_ops::Logistic and Tanh:
// 0 -> one half (16384) and 0; the saturated ends are 32767 and, for LOGISTIC, 1 (not 0: its
// negative branch adds 2^9 - 1 to 2^25 - (0x7FFF << 10) before the shift by 10).
TEST(Int16ActivationsTest, SigmoidTableEnds) {
  // Scale 2^-11: multiplier 3 * 4096 * 2^-11 = 6, doubled until past 16383.5: 24576, shift 12.
  EXPECT_EQ(SigmoidTableLogistic(0, 24576, 12), 16384);
  EXPECT_EQ(SigmoidTableLogistic(32767, 24576, 12), 32767);
  EXPECT_EQ(SigmoidTableLogistic(-32768, 24576, 12), 1);
  EXPECT_EQ(SigmoidTableTanh(0, 24576, 12), 0);
  EXPECT_EQ(SigmoidTableTanh(32767, 24576, 12), 32767);
  EXPECT_EQ(SigmoidTableTanh(-32768, 24576, 12), -32767);
}

TEST(Int16ActivationsTest, RefusesWhatUpstreamRefuses) {
  KernelRunner k("LOGISTIC");
  Quantization in_q{{1.0f / 4096}, {0}, 0}, out_q{{1.0f / 16384}, {0}, 0};
  k.AddInput(TensorType::kInt16, {1}, std::vector<int16_t>{0}).quantization = &in_q;
  k.AddOutput(TensorType::kInt16, {1}).quantization = &out_q;
  EXPECT_EQ(k.Run().message(), "int16 output scale must be 1/32768, got 6.1035156e-05");

  KernelRunner z("RELU");
  Quantization zp_q{{1.0f / 4096}, {3}, 0};
  z.AddInput(TensorType::kInt16, {1}, std::vector<int16_t>{0}).quantization = &zp_q;
  z.AddOutput(TensorType::kInt16, {1}).quantization = &zp_q;
  EXPECT_EQ(z.Run().message(), "int16 input and output must have zero point 0, got 3 and 3");
}

}  // namespace
}  // namespace tfa::runtime
