// RNN and UNIDIRECTIONAL_SEQUENCE_RNN against upstream's own figures (rnn_test_data.h: the
// input, weights and golden outputs of tflite/kernels/basic_rnn_test.cc and
// unidirectional_sequence_rnn_test.cc; both batch rows identical), at upstream's tolerances: 1e-5
// for float32 weights, 0.0104 (RNN) and 0.013 (the sequence op) for int8 and uint8 weights.
#include "runtime/kernels/cpu/rnn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"
#include "runtime/kernels/cpu/rnn_test_data.h"

namespace tfa::runtime {
namespace {

using rnn_test_data::kInputSize;
using rnn_test_data::kRnnBias;
using rnn_test_data::kRnnGoldenOutput;
using rnn_test_data::kRnnInput;
using rnn_test_data::kRnnWeights;
using rnn_test_data::kSteps;
using rnn_test_data::kUnits;
using rnn_test_data::RecurrentWeights;
using rnn_test_data::Weights;
using testing::KernelRunner;

void SetRows(RuntimeTensor& t, int64_t first_row, const float* values, int64_t rows) {
  std::memcpy(t.Data<float>() + first_row * kInputSize, values,
              static_cast<size_t>(rows * kInputSize) * sizeof(float));
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
}

// basic_rnn_test.cc BlackBoxTest: one step per invocation, the hidden state carried over, both
// batch rows the same step.
void RnnMatchesUpstreamGoldens(TensorType weights_type, bool asymmetric, double tolerance) {
  KernelRunner k("RNN");
  k.options().fused_activation = Activation::kRelu;
  k.options().asymmetric_quantize_inputs = asymmetric;
  Weights weights(weights_type);
  RuntimeTensor& input = k.AddFloatInput({2, kInputSize}, std::vector<float>(2 * kInputSize));
  weights.Add(k, {kUnits, kInputSize}, kRnnWeights);
  weights.Add(k, {kUnits, kUnits}, RecurrentWeights());
  k.AddFloatInput({kUnits}, kRnnBias);
  k.AddFloatInput({2, kUnits}, std::vector<float>(2 * kUnits, 0.0f));
  k.AddOutput(TensorType::kFloat32, {2, kUnits});
  // Upstream's test counts its steps as the input's size over input size x batches: 8 of 16.
  const auto steps = static_cast<int32_t>(kRnnInput.size() / (kInputSize * 2));
  for (int32_t step = 0; step < steps; ++step) {
    SetRows(input, 0, kRnnInput.data() + step * kInputSize, 1);
    SetRows(input, 1, kRnnInput.data() + step * kInputSize, 1);
    ASSERT_TRUE(k.Run().ok());
    const auto golden = kRnnGoldenOutput.begin() + step * kUnits;
    std::vector<float> expected(golden, golden + kUnits);
    expected.insert(expected.end(), golden, golden + kUnits);
    ExpectNear(k.Output(), expected, tolerance);
  }
}

TEST(Rnn, FloatMatchesUpstreamGoldens) {
  RnnMatchesUpstreamGoldens(TensorType::kFloat32, false, 1e-5);
}
TEST(Rnn, HybridMatchesUpstreamGoldens) {
  for (TensorType type : {TensorType::kInt8, TensorType::kUInt8}) {
    for (bool asymmetric : {false, true}) RnnMatchesUpstreamGoldens(type, asymmetric, 0.0104);
  }
}

// unidirectional_sequence_rnn_test.cc: the whole sequence in one invocation, batch-major
// ([batch, time, input]: each row's sequence after the other) or time-major ([time, batch,
// input]).
void SequenceMatchesUpstreamGoldens(TensorType weights_type, bool time_major, bool asymmetric,
                                    double tolerance) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_RNN");
  k.options().fused_activation = Activation::kRelu;
  k.options().time_major = time_major;
  k.options().asymmetric_quantize_inputs = asymmetric;
  Weights weights(weights_type);
  const std::vector<int32_t> shape = time_major ? std::vector<int32_t>{kSteps, 2, kInputSize}
                                                : std::vector<int32_t>{2, kSteps, kInputSize};
  RuntimeTensor& input = k.AddFloatInput(shape, std::vector<float>(2 * kSteps * kInputSize));
  weights.Add(k, {kUnits, kInputSize}, kRnnWeights);
  weights.Add(k, {kUnits, kUnits}, RecurrentWeights());
  k.AddFloatInput({kUnits}, kRnnBias);
  k.AddFloatInput({2, kUnits}, std::vector<float>(2 * kUnits, 0.0f));
  k.AddOutput(TensorType::kFloat32, {shape[0], shape[1], kUnits});
  std::vector<float> expected;
  if (time_major) {
    for (int32_t step = 0; step < kSteps; ++step) {
      SetRows(input, 2 * step, kRnnInput.data() + step * kInputSize, 1);
      SetRows(input, 2 * step + 1, kRnnInput.data() + step * kInputSize, 1);
      const auto golden = kRnnGoldenOutput.begin() + step * kUnits;
      expected.insert(expected.end(), golden, golden + kUnits);
      expected.insert(expected.end(), golden, golden + kUnits);
    }
  } else {
    SetRows(input, 0, kRnnInput.data(), kSteps);
    SetRows(input, kSteps, kRnnInput.data(), kSteps);
    expected = kRnnGoldenOutput;
    expected.insert(expected.end(), kRnnGoldenOutput.begin(), kRnnGoldenOutput.end());
  }
  ASSERT_TRUE(k.Run().ok());
  ExpectNear(k.Output(), expected, tolerance);
}

TEST(UnidirectionalSequenceRnn, FloatMatchesUpstreamGoldens) {
  SequenceMatchesUpstreamGoldens(TensorType::kFloat32, false, false, 1e-5);
  SequenceMatchesUpstreamGoldens(TensorType::kFloat32, true, false, 1e-5);
}

TEST(UnidirectionalSequenceRnn, HybridMatchesUpstreamGoldens) {
  for (TensorType type : {TensorType::kInt8, TensorType::kUInt8}) {
    for (bool time_major : {false, true}) {
      for (bool asymmetric : {false, true})
        SequenceMatchesUpstreamGoldens(type, time_major, asymmetric, 0.013);
    }
  }
}

// Prepare refuses, in one line, what upstream's Prepare or Eval refuses.
std::string PrepareError(TensorType input_type, TensorType weights_type, TensorType recurrent_type,
                         std::vector<int32_t> recurrent_shape) {
  KernelRunner k("RNN");
  k.AddInput(input_type, {1, 2}, std::vector<float>(2));
  k.AddInput(weights_type, {3, 2}, std::vector<float>(6));
  int64_t n = 1;
  for (int32_t d : recurrent_shape) n *= d;
  k.AddInput(recurrent_type, std::move(recurrent_shape),
             std::vector<float>(static_cast<size_t>(n)));
  k.AddFloatInput({3}, std::vector<float>(3));
  k.AddFloatInput({1, 3}, std::vector<float>(3));
  k.AddOutput(TensorType::kFloat32, {1, 3});
  const Status status = k.Run();
  return status.ok() ? "" : status.message();
}

TEST(Rnn, PrepareRefusesWhatUpstreamRefuses) {
  constexpr TensorType f32 = TensorType::kFloat32;
  EXPECT_EQ(PrepareError(f32, f32, f32, {3, 3}), "");
  EXPECT_EQ(PrepareError(TensorType::kInt8, f32, f32, {3, 3}),
            "the input is int8: upstream's kernel takes float32 only");
  EXPECT_EQ(PrepareError(f32, TensorType::kInt8, f32, {3, 3}),
            "weights of types int8 and float32: upstream's kernel takes one type for all");
  EXPECT_EQ(PrepareError(f32, TensorType::kInt16, TensorType::kInt16, {3, 3}),
            "the weights are int16: upstream's kernel takes float32, int8 or uint8 weights");
  EXPECT_EQ(PrepareError(f32, f32, f32, {3, 2}),
            "recurrent weights [3,2] is not [3,3] (units, units)");
}

}  // namespace
}  // namespace tfa::runtime
