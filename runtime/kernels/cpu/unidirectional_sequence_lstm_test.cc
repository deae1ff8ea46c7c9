#include "runtime/kernels/cpu/unidirectional_sequence_lstm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

// One cell, one input, two steps, zero weights: every gate is its bias. Input and forget gates
// sigmoid(0) = 0.5, cell gate tanh(1) = 0.761594, output gate 0.5:
//   c1 = 0.5 * 0.761594 = 0.380797,  h1 = 0.5 * tanh(c1) = 0.181700;
//   c2 = 0.5 * c1 + 0.380797 = 0.571196,  h2 = 0.5 * tanh(c2) = 0.258118.
void AddZeroWeightLstm(KernelRunner& k, bool hybrid, Quantization* scale,
                       bool float_peepholes = false) {
  k.options().fused_activation = Activation::kTanh;
  k.AddFloatInput({1, 2, 1}, {0.3f, -0.7f});
  for (int i = 0; i < 8; ++i) {  // input and recurrent weights of the four gates
    if (hybrid) {
      k.AddInput(TensorType::kInt8, {1, 1}, std::vector<int8_t>{0}).quantization = scale;
    } else {
      k.AddFloatInput({1, 1}, {0});
    }
  }
  for (int i = 0; i < 3; ++i) {  // peepholes
    if (float_peepholes) {
      k.AddFloatInput({1}, {0});
    } else {
      k.AddAbsentInput();
    }
  }
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

// upstream's unidirectional_sequence_lstm_test.cc NoCifgNoPeepholeNoProjectionNoClipping: one
// batch, two inputs, four cells, three time-major steps, tolerance 1e-5.
TEST(UnidirectionalSequenceLstmTest, FloatMatchesUpstreamGoldens) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_LSTM");
  k.options().fused_activation = Activation::kTanh;
  k.options().time_major = true;
  k.AddFloatInput({3, 1, 2}, {2., 3., 3., 4., 1., 1.});
  k.AddFloatInput({4, 2}, {-0.45018822, -0.02338299, -0.0870589, -0.34550029, 0.04266912,
                           -0.15680569, -0.34856534, 0.43890524});
  k.AddFloatInput({4, 2}, {0.09701663, 0.20334584, -0.50592935, -0.31343272, -0.40032279,
                           0.44781327, 0.01387155, -0.35593212});
  k.AddFloatInput({4, 2}, {-0.50013041, 0.1370284, 0.11810488, 0.2013163, -0.20583314, 0.44344562,
                           0.22077113, -0.29909778});
  k.AddFloatInput({4, 2}, {-0.25065863, -0.28290087, 0.04613829, 0.40525138, 0.44272184, 0.03897077,
                           -0.1556896, 0.19487578});
  k.AddFloatInput({4, 4}, {-0.0063535, -0.2042388, 0.31454784, -0.35746509, 0.28902304, 0.08183324,
                           -0.16555229, 0.02286911, -0.13566875, 0.03034258, 0.48091322,
                           -0.12528998, 0.24077177, -0.51332325, -0.33502164, 0.10629296});
  k.AddFloatInput({4, 4}, {-0.48684245, -0.06655136, 0.42224967, 0.2112639, 0.27654213, 0.20864892,
                           -0.07646349, 0.45877004, 0.00141793, -0.14609534, 0.36447752, 0.09196436,
                           0.28053468, 0.01560611, -0.20127171, -0.01140004});
  k.AddFloatInput({4, 4}, {-0.3407414, 0.24443203, -0.2078532, 0.26320225, 0.05695659, -0.00123841,
                           -0.4744786, -0.35869038, -0.06418842, -0.13502428, -0.501764, 0.22830659,
                           -0.46367589, 0.26016325, -0.03894562, -0.16368064});
  k.AddFloatInput({4, 4}, {0.43385774, -0.17194885, 0.2718237, 0.09215671, 0.24107647, -0.39835793,
                           0.18212086, 0.01301402, 0.48572797, -0.50656658, 0.20047462, -0.20607421,
                           -0.51818722, -0.15390486, 0.0468148, 0.39922136});
  for (int i = 0; i < 3; ++i) k.AddAbsentInput();
  k.AddFloatInput({4}, {0, 0, 0, 0});
  k.AddFloatInput({4}, {1, 1, 1, 1});
  k.AddFloatInput({4}, {0, 0, 0, 0});
  k.AddFloatInput({4}, {0, 0, 0, 0});
  k.AddAbsentInput();
  k.AddAbsentInput();
  k.AddFloatInput({1, 4}, std::vector<float>(4, 0.0f));
  k.AddFloatInput({1, 4}, std::vector<float>(4, 0.0f));
  for (int i = 0; i < 4; ++i) k.AddAbsentInput();
  k.AddOutput(TensorType::kFloat32, {3, 1, 4});
  RuntimeTensor& scratch = k.AddTemporary(TensorType::kFloat32, {1, 4 * 5 + 16});
  ASSERT_TRUE(k.Run().ok());
  const std::vector<float> golden = {-0.02973187, 0.1229473,  0.20885126, -0.15358765,
                                     -0.03716109, 0.12507336, 0.41193449, -0.20860538,
                                     -0.15053082, 0.09120187, 0.24278517, -0.12222792};
  const auto out = k.Output();
  for (size_t i = 0; i < golden.size(); ++i) EXPECT_NEAR(out[i], golden[i], 1e-5) << i;
  // The gates live in upstream's scratch temporary: the last output gate times tanh(cell),
  // its fifth block, is the last output.
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(scratch.Data<float>()[16 + c], golden[8 + c], 1e-5);
}

// upstream's test_util SignedSymmetricQuantizeAndPopulate: one scale, max |w| / 127.
struct SymmetricInt8 {
  std::vector<int8_t> values;
  float scale = 1.0f;
};
SymmetricInt8 QuantizeSymmetric(const std::vector<float>& w) {
  float range = 0.0f;
  for (float x : w) range = std::max(range, std::abs(x));
  SymmetricInt8 q;
  q.scale = range / 127.0f;
  for (float x : w) {
    const float scaled = range == 0.0f ? 0.0f : std::round(x * (127.0f / range));
    q.values.push_back(static_cast<int8_t>(std::clamp(scaled, -127.0f, 127.0f)));
  }
  return q;
}

// upstream's lstm_test.cc NoCifg_Peephole_Projection_LayerNorm (the full LSTM op): two batches,
// five inputs, four cells, three outputs, three steps. Float weights within 1e-5; INT8 weights
// (the hybrid kernel, peepholes int8 too, inputs quantized symmetrically or not) within 0.00106.
void PeepholeProjectionLayerNormMatchesUpstreamGoldens(bool hybrid, bool asymmetric,
                                                       double tolerance) {
  KernelRunner k("LSTM");
  k.options().fused_activation = Activation::kTanh;
  k.options().asymmetric_quantize_inputs = asymmetric;
  std::deque<Quantization> scales;
  const auto weights = [&](std::vector<int32_t> shape, const std::vector<float>& w) {
    if (!hybrid) {
      k.AddFloatInput(std::move(shape), w);
      return;
    }
    const SymmetricInt8 q = QuantizeSymmetric(w);
    k.AddInput(TensorType::kInt8, std::move(shape), q.values).quantization =
        &scales.emplace_back(Quantization{{q.scale}, {0}, 0});
  };
  RuntimeTensor& input = k.AddFloatInput({2, 5}, std::vector<float>(10, 0.0f));
  weights({4, 5}, {0.5,  0.6, 0.7,  -0.8, -0.9, 0.1,  0.2,  0.3,  -0.4, 0.5,
                   -0.8, 0.7, -0.6, 0.5,  -0.4, -0.5, -0.4, -0.3, -0.2, -0.1});
  weights({4, 5}, {-0.6, -0.1, 0.3,  0.2,  0.9,  -0.5, -0.2, -0.4, 0.3,  -0.8,
                   -0.4, 0.3,  -0.5, -0.4, -0.6, 0.3,  -0.4, -0.6, -0.5, -0.5});
  weights({4, 5}, {-0.4, -0.3, -0.2, -0.1, -0.5, 0.5, -0.2, -0.3, -0.2, -0.6,
                   0.6,  -0.1, -0.4, -0.3, -0.7, 0.7, -0.9, -0.5, 0.8,  0.6});
  weights({4, 5}, {-0.8, -0.4, -0.2, -0.9, -0.1, -0.7, 0.3, -0.3, -0.8, -0.2,
                   0.6,  -0.2, 0.4,  -0.7, -0.3, -0.5, 0.1, 0.5,  -0.6, -0.4});
  weights({4, 3}, {-0.2, -0.3, 0.4, 0.1, -0.5, 0.9, -0.2, -0.3, -0.7, 0.05, -0.2, -0.6});
  weights({4, 3}, {-0.5, -0.3, -0.5, -0.2, 0.6, 0.4, 0.9, 0.3, -0.1, 0.2, 0.5, 0.2});
  weights({4, 3}, {-0.3, 0.2, 0.1, -0.3, 0.8, -0.08, -0.2, 0.3, 0.8, -0.6, -0.1, 0.2});
  weights({4, 3}, {0.3, -0.1, 0.1, -0.2, -0.5, -0.7, -0.2, -0.6, -0.1, -0.4, -0.7, -0.2});
  weights({4}, {0.05, 0.1, 0.25, 0.15});
  weights({4}, {-0.02, -0.15, -0.25, -0.03});
  weights({4}, {0.1, -0.1, -0.5, 0.05});
  k.AddFloatInput({4}, {0.03, 0.15, 0.22, 0.38});
  k.AddFloatInput({4}, {0.1, -0.3, -0.2, 0.1});
  k.AddFloatInput({4}, {-0.05, 0.72, 0.25, 0.08});
  k.AddFloatInput({4}, {0.05, -0.01, 0.2, 0.1});
  weights({3, 4}, {-0.1, 0.2, 0.01, -0.2, 0.1, 0.5, 0.3, 0.08, 0.07, 0.2, -0.4, 0.2});
  k.AddAbsentInput();
  k.AddFloatInput({2, 3}, std::vector<float>(6, 0.0f));
  k.AddFloatInput({2, 4}, std::vector<float>(8, 0.0f));
  k.AddFloatInput({4}, {0.1, 0.2, 0.3, 0.5});
  k.AddFloatInput({4}, {0.2, 0.2, 0.4, 0.3});
  k.AddFloatInput({4}, {0.7, 0.2, 0.3, 0.8});
  k.AddFloatInput({4}, {0.6, 0.2, 0.2, 0.5});
  k.AddOutput(TensorType::kFloat32, {2, 3});
  const std::vector<std::vector<float>> inputs = {
      {0.7, 0.8, 0.1, 0.2, 0.3, 0.3, 0.2, 0.9, 0.8, 0.1},
      {0.8, 0.1, 0.2, 0.4, 0.5, 0.1, 0.5, 0.2, 0.4, 0.2},
      {0.2, 0.7, 0.7, 0.1, 0.7, 0.6, 0.9, 0.2, 0.5, 0.7}};
  const std::vector<std::vector<float>> goldens = {
      {0.0244077, 0.128027, -0.00170918, -0.00692428, 0.0848741, 0.063445},
      {0.0137642, 0.140751, 0.0395835, -0.00403912, 0.139963, 0.072681},
      {-0.00459231, 0.155278, 0.0837377, 0.00752706, 0.161903, 0.0561371}};
  for (size_t step = 0; step < inputs.size(); ++step) {
    std::copy(inputs[step].begin(), inputs[step].end(), input.Data<float>());
    const Status run = k.Run();
    ASSERT_TRUE(run.ok()) << run.message();
    const auto out = k.Output();
    for (size_t i = 0; i < out.size(); ++i)
      EXPECT_NEAR(out[i], goldens[step][i], tolerance) << "step " << step << ", " << i;
  }
}

TEST(LstmTest, PeepholeProjectionLayerNormMatchUpstreamGoldens) {
  PeepholeProjectionLayerNormMatchesUpstreamGoldens(false, false, 1e-5);
}

TEST(LstmTest, HybridPeepholeProjectionLayerNormMatchUpstreamGoldens) {
  for (bool asymmetric : {false, true}) {
    SCOPED_TRACE(asymmetric ? "asymmetric inputs" : "symmetric inputs");
    PeepholeProjectionLayerNormMatchesUpstreamGoldens(true, asymmetric, 0.00106);
  }
}

// Upstream's Prepare wants hybrid peepholes of the weights' type, int8.
TEST(UnidirectionalSequenceLstmTest, HybridWithFloatPeepholesIsRefused) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_LSTM");
  Quantization scale{{0.1f}, {0}, 0};
  AddZeroWeightLstm(k, true, &scale, /*float_peepholes=*/true);
  EXPECT_EQ(k.Run().message(),
            "the runtime has no float32 kernel for this op's peephole weights (it has int8)");
}

}  // namespace
}  // namespace tfa::runtime
