#include "runtime/kernels/cpu/unidirectional_sequence_lstm.h"

#include <gtest/gtest.h>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// One cell, one input, two steps, zero weights: every gate is its bias. Input and forget gates
// sigmoid(0) = 0.5, cell gate tanh(1) = 0.761594, output gate 0.5:
//   c1 = 0.5 * 0.761594 = 0.380797,  h1 = 0.5 * tanh(c1) = 0.181700;
//   c2 = 0.5 * c1 + 0.380797 = 0.571196,  h2 = 0.5 * tanh(c2) = 0.258118.
void AddZeroWeightLstm(KernelRunner& k, bool hybrid, Quantization* scale) {
  k.options().fused_activation = Activation::kTanh;
  k.AddFloatInput({1, 2, 1}, {0.3f, -0.7f});
  for (int i = 0; i < 8; ++i) {  // input and recurrent weights of the four gates
    if (hybrid) {
      k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{0}).quantization = scale;
    } else {
      k.AddFloatInput({1, 1}, {0});
    }
  }
  for (int i = 0; i < 3; ++i) k.AddAbsentInput();  // peepholes
  k.AddFloatInput({1}, {0});                       // input gate bias
  k.AddFloatInput({1}, {0});                       // forget gate bias
  k.AddFloatInput({1}, {1});                       // cell gate bias
  k.AddFloatInput({1}, {0});                       // output gate bias
  k.AddAbsentInput();                              // projection weights
  k.AddAbsentInput();                              // projection bias
  k.AddFloatInput({1, 1}, {0});                    // output state
  k.AddFloatInput({1, 1}, {0});                    // cell state
  for (int i = 0; i < 4; ++i) k.AddAbsentInput();  // layer norm
  k.AddOutput(TensorType::kFloat32, {1, 2, 1});
}

TEST(UnidirectionalSequenceLstmTest, FloatGatesFromBiases) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_LSTM");
  AddZeroWeightLstm(k, false, nullptr);
  ASSERT_TRUE(k.Run().ok());
  const auto out = k.Output();
  EXPECT_NEAR(out[0], 0.181700f, 1e-6);
  EXPECT_NEAR(out[1], 0.258118f, 1e-6);
}

TEST(UnidirectionalSequenceLstmTest, HybridWeights) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_LSTM");
  Quantization scale{{0.1f}, {0}, 0};
  AddZeroWeightLstm(k, true, &scale);
  ASSERT_TRUE(k.Run().ok());
  const auto out = k.Output();
  EXPECT_NEAR(out[0], 0.181700f, 1e-6);
  EXPECT_NEAR(out[1], 0.258118f, 1e-6);
}

// Input weight 1 on the cell gate only, zero biases: step one sees x = 0.3.
//   c1 = 0.5 * tanh(0.3) = 0.145656,  h1 = 0.5 * tanh(c1) = 0.072317.
TEST(UnidirectionalSequenceLstmTest, InputReachesTheCellGate) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_LSTM");
  k.options().fused_activation = Activation::kTanh;
  k.AddFloatInput({1, 1, 1}, {0.3f});
  for (int i = 0; i < 8; ++i) k.AddFloatInput({1, 1}, {i == 2 ? 1.0f : 0.0f});
  for (int i = 0; i < 3; ++i) k.AddAbsentInput();
  for (int i = 0; i < 4; ++i) k.AddFloatInput({1}, {0});
  k.AddAbsentInput();
  k.AddAbsentInput();
  k.AddFloatInput({1, 1}, {0});
  k.AddFloatInput({1, 1}, {0});
  for (int i = 0; i < 4; ++i) k.AddAbsentInput();
  k.AddOutput(TensorType::kFloat32, {1, 1, 1});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_NEAR(k.Output()[0], 0.072317f, 1e-6);
}

TEST(UnidirectionalSequenceLstmTest, RefusesTheWrongInputCount) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_LSTM");
  k.AddFloatInput({1, 1, 1}, {0});
  k.AddOutput(TensorType::kFloat32, {1, 1, 1});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
