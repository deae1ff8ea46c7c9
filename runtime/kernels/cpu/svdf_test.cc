#include "runtime/kernels/cpu/svdf.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// upstream's tflite/kernels/svdf_test.cc: 2 batches, 4 units, 3 inputs, memory 10, rank 1.
const std::vector<float> kWeightsFeature = {-0.31930989, -0.36118156, 0.0079667,   0.37613347,
                                            0.22197971,  0.12416199,  0.27901134,  0.27557442,
                                            0.3905206,   -0.36137494, -0.06634006, -0.10640851};
const std::vector<float> kWeightsTime = {
    -0.31930989, 0.37613347,  0.27901134,  -0.36137494, -0.36118156, 0.22197971,  0.27557442,
    -0.06634006, 0.0079667,   0.12416199,  0.3905206,   -0.10640851, -0.0976817,  0.15294972,
    0.39635518,  -0.02702999, 0.39296314,  0.15785322,  0.21931258,  0.31053296,  -0.36916667,
    0.38031587,  -0.21580373, 0.27072677,  0.23622236,  0.34936687,  0.18174365,  0.35907319,
    -0.17493086, 0.324846,    -0.10781813, 0.27201805,  0.14324132,  -0.23681851, -0.27115166,
    -0.01580888, -0.14943552, 0.15465137,  0.09784451,  -0.0337657};

// Its first four steps (input 2 x 3 per step) and the rank-1 float goldens (2 x 4 per step).
const std::vector<std::vector<float>> kFloatInputs = {
    {0.12609188, -0.46347019, -0.89598465, 0.35867718, 0.36897406, 0.73463392},
    {0.14278367, -1.64410412, -0.75222826, -0.57290924, 0.12729003, 0.7567004},
    {0.49837467, 0.19278903, 0.26584083, 0.17660543, 0.52949083, -0.77931279},
    {-0.11186574, 0.13164264, -0.05349274, -0.72674477, -0.5683046, 0.55900657}};
const std::vector<std::vector<float>> kFloatGoldens = {
    {0.014899, -0.0517661, -0.143725, -0.00271883, -0.03004015, 0.09565311, 0.1587342, 0.00784263},
    {0.068281, -0.162217, -0.152268, 0.00323521, 0.01582633, 0.03858774, -0.03001583, -0.02671271},
    {-0.0317821, -0.0333089, 0.0609602, 0.0333759, -0.01432795, 0.05524484, 0.1101355, -0.02382665},
    {-0.00623099, -0.077701, -0.391193, -0.0136691, -0.02333033, 0.02293761, 0.12338032,
     0.04326871}};

TEST(SvdfTest, FloatRank1MatchesUpstreamGoldens) {
  KernelRunner k("SVDF");
  k.options().svdf_rank = 1;
  k.options().fused_activation = Activation::kNone;
  RuntimeTensor& input = k.AddFloatInput({2, 3}, kFloatInputs[0]);
  k.AddFloatInput({4, 3}, kWeightsFeature);
  k.AddFloatInput({4, 10}, kWeightsTime);
  k.AddAbsentInput();
  k.AddFloatInput({2, 40}, std::vector<float>(80, 0.0f));
  k.AddOutput(TensorType::kFloat32, {2, 4});
  for (size_t step = 0; step < kFloatInputs.size(); ++step) {
    std::copy(kFloatInputs[step].begin(), kFloatInputs[step].end(), input.Data<float>());
    ASSERT_TRUE(k.Run().ok());
    const auto out = k.Output();
    for (size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], kFloatGoldens[step][i], 1e-5);
  }
}

// test_util.h's QuantizationParams<T>(min, max) and Quantize<T>, in float as there.
template <typename T>
QuantParams TestQuantization(float f_min, float f_max) {
  const float qmin = static_cast<float>(std::numeric_limits<T>::min());
  const float qmax = static_cast<float>(std::numeric_limits<T>::max());
  const float scale = (f_max - f_min) / (qmax - qmin);
  const float from_min = qmin - f_min / scale, from_max = qmax - f_max / scale;
  const float from_min_error = std::abs(qmin) + std::abs(f_min / scale);
  const float from_max_error = std::abs(qmax) + std::abs(f_max / scale);
  const float zero_point = from_min_error < from_max_error ? from_min : from_max;
  return {scale, static_cast<int32_t>(std::round(zero_point))};
}
template <typename T>
std::vector<T> TestQuantize(const std::vector<float>& values, QuantParams q) {
  std::vector<T> out;
  for (float f : values) {
    out.push_back(static_cast<T>(std::max<float>(
        std::numeric_limits<T>::min(),
        std::min<float>(std::numeric_limits<T>::max(), std::round(q.zero_point + f / q.scale)))));
  }
  return out;
}
Quantization AsQuantization(QuantParams q) { return Quantization{{q.scale}, {q.zero_point}, 0}; }

// upstream's BlackBoxTestInteger: bit-exact int8 outputs over twelve steps.
TEST(SvdfTest, IntegerMatchesUpstreamGoldens) {
  const QuantParams input_q = TestQuantization<int8_t>(-1, 1);
  const QuantParams feature_q = TestQuantization<int8_t>(-0.5, 0.5);
  const QuantParams time_q = TestQuantization<int16_t>(-1, 1);
  const QuantParams bias_q = TestQuantization<int32_t>(-512, 512);
  const QuantParams state_q = TestQuantization<int16_t>(-16, 16);
  const QuantParams output_q = TestQuantization<int8_t>(-0.5, 0.5);
  Quantization input_quant = AsQuantization(input_q), feature_quant = AsQuantization(feature_q),
               time_quant = AsQuantization(time_q), bias_quant = AsQuantization(bias_q),
               state_quant = AsQuantization(state_q), output_quant = AsQuantization(output_q);
  KernelRunner k("SVDF");
  k.options().svdf_rank = 1;
  k.options().fused_activation = Activation::kRelu;
  RuntimeTensor& input = k.AddInput(TensorType::kInt8, {2, 3}, std::vector<int8_t>(6, 0));
  input.quantization = &input_quant;
  k.AddInput(TensorType::kInt8, {4, 3}, TestQuantize<int8_t>(kWeightsFeature, feature_q))
      .quantization = &feature_quant;
  k.AddInput(TensorType::kInt16, {4, 10}, TestQuantize<int16_t>(kWeightsTime, time_q))
      .quantization = &time_quant;
  k.AddInput(TensorType::kInt32, {4},
             TestQuantize<int32_t>({-0.0976817, 0.15294972, 0.39635518, -0.02702999}, bias_q))
      .quantization = &bias_quant;
  k.AddInput(TensorType::kInt16, {2, 40}, std::vector<int16_t>(80, 0)).quantization = &state_quant;
  k.AddOutput(TensorType::kInt8, {2, 4}).quantization = &output_quant;
  const std::vector<std::vector<float>> inputs = {
      {0.49837467, 0.19278903, 0.26584083, 0.17660543, 0.52949083, -0.77931279},
      {0.12609188, -0.46347019, -0.89598465, 0.35867718, 0.36897406, 0.73463392},
      {0.14278367, -1.64410412, -0.75222826, -0.57290924, 0.12729003, 0.7567004}};
  const std::vector<std::vector<int8_t>> goldens = {
      {-9, 24, 31, 1, -10, 10, -3, 0},         {2, 4, -44, -7, -10, 32, 52, 1},
      {12, -17, 9, -8, 7, 16, -11, -8},        {-26, 29, 28, 16, -23, 26, 30, -6},
      {-8, -25, -86, -5, -44, 59, 81, 15},     {62, -16, -37, 3, 27, 14, 34, -10},
      {1, 24, -25, 23, 31, 61, 67, 11},        {-64, -65, -128, -25, -53, 59, 127, 20},
      {20, -29, -20, -15, -28, 0, 8, -27},     {54, 61, -67, 38, 38, 64, 115, 0},
      {-44, -75, -128, -20, -19, 93, 101, 35}, {-5, -56, 30, -18, -40, -9, -8, -31}};
  for (size_t step = 0; step < goldens.size(); ++step) {
    const auto q = TestQuantize<int8_t>(inputs[step % inputs.size()], input_q);
    std::copy(q.begin(), q.end(), input.Data<int8_t>());
    ASSERT_TRUE(k.Run().ok());
    EXPECT_EQ(k.Output<int8_t>(), goldens[step]) << "step " << step;
  }
}

// Upstream's two temporaries of the integer kernel hold the time products and the unit sums.
TEST(SvdfTest, IntegerKernelWorksInItsTemporaries) {
  Quantization q{{0.5f}, {0}, 0};
  KernelRunner k("SVDF");
  k.options().svdf_rank = 2;
  k.options().fused_activation = Activation::kRelu;
  k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{2}).quantization = &q;
  k.AddInput(TensorType::kInt8, {2, 1}, std::vector<int8_t>{1, 3}).quantization = &q;
  k.AddInput(TensorType::kInt16, {2, 1}, std::vector<int16_t>{1, 1}).quantization = &q;
  k.AddAbsentInput();
  RuntimeTensor& state = k.AddInput(TensorType::kInt16, {1, 2}, std::vector<int16_t>{0, 0});
  state.quantization = &q;
  k.AddOutput(TensorType::kInt8, {1, 1}).quantization = &q;
  RuntimeTensor& products = k.AddTemporary(TensorType::kInt32, {1, 2});
  RuntimeTensor& sums = k.AddTemporary(TensorType::kInt32, {1, 1});
  ASSERT_TRUE(k.Run().ok());
  // Features 2 * 1 and 2 * 3 (scale 0.5 * 0.5 / 0.5), the time weight 1: products 1, 3, sum 4,
  // output 4 * 0.5 * 0.5 / 0.5 = 2.
  EXPECT_EQ(state.Data<int16_t>()[0], 1);
  EXPECT_EQ(state.Data<int16_t>()[1], 3);
  EXPECT_EQ(products.Data<int32_t>()[0], 1);
  EXPECT_EQ(products.Data<int32_t>()[1], 3);
  EXPECT_EQ(sums.Data<int32_t>()[0], 4);
  EXPECT_EQ(k.Output<int8_t>(), std::vector<int8_t>{2});
}

TEST(SvdfTest, HybridWeightsAreTheRuntimesGap) {
  Quantization q{{0.5f}, {0}, 0};
  KernelRunner k("SVDF");
  k.options().svdf_rank = 1;
  k.AddFloatInput({1, 1}, {1});
  k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{1}).quantization = &q;
  k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{1}).quantization = &q;
  k.AddAbsentInput();
  k.AddFloatInput({1, 1}, {0});
  k.AddOutput(TensorType::kFloat32, {1, 1});
  const Status status = k.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "the runtime has no int8 kernel for this op's feature weights (it has float32)");
}

}  // namespace
}  // namespace tfa::runtime
