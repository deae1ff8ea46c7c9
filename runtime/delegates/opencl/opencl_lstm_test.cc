// The OpenCL delegate's LSTM (the builtin op's full kernel at batch 1, the form upstream's GPU
// delegate builds) against the runtime's CPU kernel, over random sizes and every optional part:
// CIFG, peephole, projection with or without bias, layer normalisation; an activation other than
// TANH keeps the node on the CPU, as upstream's compatibility check does. The basic kernel
// (concatenation, fully connected, cell) against the CPU kernel too, at any batch, and against
// the figures of upstream's GPU LSTM task test.
// The states are graph inputs with random values here, so that the recurrent and peephole terms
// count (a model's variable states start at zero).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/tflite_writer.h"
#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/delegates/testing/delegate_run_checks.h"

namespace tfa::runtime {
namespace {

using testing::ExpectPredictionMatches;
using testing::Measure;
using testing::PredictDelegation;
using testing::RunModel;

OpenClDelegate* SharedDelegate() {
  static std::unique_ptr<Delegate> delegate = [] {
    auto created = CreateOpenClDelegate();
    return created.ok() ? std::move(*created) : nullptr;
  }();
  return static_cast<OpenClDelegate*>(delegate.get());
}

struct LstmCase {
  int32_t batch = 1, n_input = 0, n_cell = 0, n_output = 0;
  bool cifg = false, peephole = false, projection = false, projection_bias = false;
  bool layer_norm = false, variable_states = false;
  Activation activation = Activation::kTanh;

  std::string Describe() const {
    return "batch " + std::to_string(batch) + " input " + std::to_string(n_input) + " cells " +
           std::to_string(n_cell) + " outputs " + std::to_string(n_output) + (cifg ? " cifg" : "") +
           (peephole ? " peephole" : "") + (projection ? " projection" : "") +
           (projection_bias ? " projection_bias" : "") + (layer_norm ? " layer_norm" : "") +
           (variable_states ? " variable states" : "") + " activation " +
           ActivationName(activation);
  }
};

std::string WriteLstm(const LstmCase& c, std::mt19937& rng, const std::string& name) {
  auto values = [&rng](int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = std::uniform_real_distribution<float>(-0.6f, 0.6f)(rng);
    return FloatBytes(v);
  };
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t input = b.AddTensor(0, "input", f32, {c.batch, c.n_input});
  std::vector<int32_t> inputs(c.layer_norm ? 24 : 20, -1);
  inputs[0] = input;
  for (int g = c.cifg ? 1 : 0; g < 4; ++g) {
    inputs[static_cast<size_t>(1 + g)] =
        b.AddConstant(0, "w" + std::to_string(g), f32, {c.n_cell, c.n_input},
                      values(int64_t{c.n_cell} * c.n_input));
    inputs[static_cast<size_t>(5 + g)] =
        b.AddConstant(0, "r" + std::to_string(g), f32, {c.n_cell, c.n_output},
                      values(int64_t{c.n_cell} * c.n_output));
    inputs[static_cast<size_t>(12 + g)] =
        b.AddConstant(0, "b" + std::to_string(g), f32, {c.n_cell}, values(c.n_cell));
    if (c.layer_norm) {
      inputs[static_cast<size_t>(20 + g)] =
          b.AddConstant(0, "ln" + std::to_string(g), f32, {c.n_cell}, values(c.n_cell));
    }
  }
  if (c.peephole) {
    const int32_t peepholes[4] = {9, 10, -1, 11};
    for (int g = c.cifg ? 1 : 0; g < 4; ++g) {
      if (peepholes[g] < 0) continue;
      inputs[static_cast<size_t>(peepholes[g])] =
          b.AddConstant(0, "p" + std::to_string(g), f32, {c.n_cell}, values(c.n_cell));
    }
  }
  if (c.projection) {
    inputs[16] = b.AddConstant(0, "projection", f32, {c.n_output, c.n_cell},
                               values(int64_t{c.n_output} * c.n_cell));
    if (c.projection_bias)
      inputs[17] = b.AddConstant(0, "projection_bias", f32, {c.n_output}, values(c.n_output));
  }
  std::vector<int32_t> graph_inputs = {input};
  if (c.variable_states) {
    inputs[18] = b.AddVariable(0, "output_state", f32, {c.batch, c.n_output});
    inputs[19] = b.AddVariable(0, "cell_state", f32, {c.batch, c.n_cell});
  } else {
    inputs[18] = b.AddTensor(0, "output_state", f32, {c.batch, c.n_output});
    inputs[19] = b.AddTensor(0, "cell_state", f32, {c.batch, c.n_cell});
    graph_inputs.push_back(inputs[18]);
    graph_inputs.push_back(inputs[19]);
  }
  const int32_t output = b.AddTensor(0, "output", f32, {c.batch, c.n_output});
  OpOptions o;
  o.fused_activation = c.activation;
  b.SetInputs(0, graph_inputs);
  b.AddNode(0, "LSTM", inputs, {output}, o, /*version=*/1);
  b.SetOutputs(0, {output});
  const SyntheticModel model = std::move(b).Finish();
  return testing::WriteTempFile(name + ".tflite", WriteTflite(model.model, model.data));
}

LstmCase RandomCase(std::mt19937& rng) {
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  LstmCase c;
  c.n_input = pick(1, 12);
  c.n_cell = pick(1, 12);
  c.cifg = pick(0, 2) == 0;
  c.peephole = pick(0, 1) == 1;
  c.projection = pick(0, 1) == 1;
  c.projection_bias = c.projection && pick(0, 1) == 1;
  c.n_output = c.projection ? pick(1, 12) : c.n_cell;
  c.layer_norm = pick(0, 2) == 0;
  c.variable_states = pick(0, 3) == 0;
  const Activation activations[] = {Activation::kTanh, Activation::kTanh, Activation::kTanh,
                                    Activation::kRelu, Activation::kNone};
  c.activation = activations[pick(0, 4)];
  return c;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr int kCases = 6;
#else
constexpr int kCases = 40;
#endif

TEST(OpenClLstmTest, FullKernelMatchesTheCpuKernel) {
  if (!SharedDelegate()) GTEST_SKIP() << CreateOpenClDelegate().status().message();
  std::mt19937 rng(42);
  for (int index = 0; index < kCases; ++index) {
    const LstmCase c = RandomCase(rng);
    SCOPED_TRACE(c.Describe());
    const std::string path = WriteLstm(c, rng, "lstm_" + std::to_string(index));
    auto gpu = RunModel(path, {SharedDelegate()});
    auto cpu = RunModel(path, {});
    ASSERT_TRUE(gpu && cpu);
    const auto measured = Measure(*gpu);
    ExpectPredictionMatches(PredictDelegation(path, {"gpu"}, /*plan_arena=*/true), measured);
    // Upstream's check takes a TANH (or sigmoid) activation only; the CPU kernel the others too.
    EXPECT_EQ(measured.delegated_partitions, c.activation == Activation::kTanh ? 1 : 0);
    EXPECT_LE(testing::MaxOutputError(*gpu, *cpu), 1e-4);
  }
}

// Upstream's parser refuses a batch at the delegate kernel's init, and the interpreter takes the
// delegate back: the report and the run both keep the LSTM on the CPU.
TEST(OpenClLstmTest, BatchedLstmStaysOnTheCpu) {
  if (!SharedDelegate()) GTEST_SKIP() << CreateOpenClDelegate().status().message();
  std::mt19937 rng(7);
  LstmCase c;
  c.batch = 2;
  c.n_input = 3;
  c.n_cell = c.n_output = 4;
  const std::string path = WriteLstm(c, rng, "lstm_batch2");
  auto gpu = RunModel(path, {SharedDelegate()});
  ASSERT_TRUE(gpu);
  const auto measured = Measure(*gpu);
  EXPECT_EQ(measured.delegated_partitions, 0);
  ExpectPredictionMatches(PredictDelegation(path, {"gpu"}, /*plan_arena=*/true), measured);
}

struct BasicLstmCase {
  int32_t batch = 1, n_input = 1, depth = 1;
  bool intermediates_are_outputs = false;  // the concatenation and gates leave the partition too

  std::string Describe() const {
    return "batch " + std::to_string(batch) + " input " + std::to_string(n_input) + " units " +
           std::to_string(depth) + (intermediates_are_outputs ? " intermediates out" : "");
  }
};

// input [batch, n_input], previous activation and state [batch, depth] (graph inputs) -> LSTM's
// basic kernel with `weights` [4 x depth, n_input + depth] and `bias` [4 x depth].
std::string WriteBasicLstm(const BasicLstmCase& c, const std::vector<float>& weights,
                           const std::vector<float>& bias, const std::string& name) {
  constexpr TensorType f32 = TensorType::kFloat32;
  const int32_t total = c.n_input + c.depth, gates = 4 * c.depth;
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t input = b.AddTensor(0, "input", f32, {c.batch, c.n_input});
  const int32_t prev_activation = b.AddTensor(0, "prev_activation", f32, {c.batch, c.depth});
  const int32_t w = b.AddConstant(0, "weights", f32, {gates, total}, FloatBytes(weights));
  const int32_t bs = b.AddConstant(0, "bias", f32, {gates}, FloatBytes(bias));
  const int32_t prev_state = b.AddTensor(0, "prev_state", f32, {c.batch, c.depth});
  const std::vector<int32_t> outputs = {b.AddTensor(0, "activation", f32, {c.batch, c.depth}),
                                        b.AddTensor(0, "state", f32, {c.batch, c.depth}),
                                        b.AddTensor(0, "concat", f32, {c.batch, total}),
                                        b.AddTensor(0, "gates", f32, {c.batch, gates})};
  OpOptions o;
  o.fused_activation = Activation::kTanh;
  o.lstm_basic_kernel = true;
  b.SetInputs(0, {input, prev_activation, prev_state});
  b.AddNode(0, "LSTM", {input, prev_activation, w, bs, prev_state}, outputs, o, 2);
  b.SetOutputs(
      0, c.intermediates_are_outputs ? outputs : std::vector<int32_t>{outputs[0], outputs[1]});
  const SyntheticModel model = std::move(b).Finish();
  return testing::WriteTempFile(name + ".tflite", WriteTflite(model.model, model.data));
}

TEST(OpenClLstmTest, BasicKernelMatchesTheCpuKernel) {
  if (!SharedDelegate()) GTEST_SKIP() << CreateOpenClDelegate().status().message();
  std::mt19937 rng(11);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto values = [&rng](int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = std::uniform_real_distribution<float>(-0.6f, 0.6f)(rng);
    return v;
  };
  for (int index = 0; index < kCases / 2; ++index) {
    BasicLstmCase c;
    c.batch = pick(1, 3);
    c.n_input = pick(1, 12);
    c.depth = pick(1, 9);
    c.intermediates_are_outputs = pick(0, 1) == 1;
    SCOPED_TRACE(c.Describe());
    const std::string path =
        WriteBasicLstm(c, values(int64_t{4} * c.depth * (c.n_input + c.depth)), values(4 * c.depth),
                       "basic_lstm_" + std::to_string(index));
    auto gpu = RunModel(path, {SharedDelegate()});
    auto cpu = RunModel(path, {});
    ASSERT_TRUE(gpu && cpu);
    const auto measured = Measure(*gpu);
    ExpectPredictionMatches(PredictDelegation(path, {"gpu"}, /*plan_arena=*/true), measured);
    EXPECT_EQ(measured.delegated_partitions, 1);
    EXPECT_LE(testing::MaxOutputError(*gpu, *cpu), 1e-4);
  }
}

// upstream's tflite/delegates/gpu/common/tasks/lstm_test_util.cc: gates -ln 2, ln 3, -ln 4, -ln 5
// over a previous state of 1..4 give the state (4 + 3k) / 15 and the activation tanh(state) / 6
// (within upstream's 1e-6 at F32). Identity weights on the input make the gates the input.
TEST(OpenClLstmTest, BasicKernelCellMatchesUpstreamFigures) {
  if (!SharedDelegate()) GTEST_SKIP() << CreateOpenClDelegate().status().message();
  const BasicLstmCase c{1, 16, 4, false};
  std::vector<float> weights(16 * 20, 0.0f);
  for (size_t i = 0; i < 16; ++i) weights[i * 20 + i] = 1.0f;
  const std::string path = WriteBasicLstm(c, weights, std::vector<float>(16, 0.0f), "basic_cell");
  auto gpu = RunModel(path, {SharedDelegate()});
  ASSERT_TRUE(gpu);
  ASSERT_EQ(Measure(*gpu).delegated_partitions, 1);
  float* gates = gpu->tensor(gpu->inputs()[0]).Data<float>();
  for (int g = 0; g < 4; ++g) {
    const float v = std::log(std::array<float, 4>{0.5f, 3.0f, 0.25f, 0.2f}[static_cast<size_t>(g)]);
    std::fill_n(gates + 4 * g, 4, v);
  }
  std::fill_n(gpu->tensor(gpu->inputs()[1]).Data<float>(), 4, 0.0f);
  float* prev_state = gpu->tensor(gpu->inputs()[2]).Data<float>();
  for (int k = 0; k < 4; ++k) prev_state[k] = static_cast<float>(k + 1);
  ASSERT_TRUE(gpu->Invoke().ok());
  const float* activation = gpu->tensor(gpu->outputs()[0]).Data<const float>();
  const float* state = gpu->tensor(gpu->outputs()[1]).Data<const float>();
  for (int k = 0; k < 4; ++k) {
    const double expected = (7.0 + 3.0 * k) / 15.0;
    EXPECT_NEAR(state[k], expected, 1e-6);
    EXPECT_NEAR(activation[k], std::tanh(expected) / 6.0, 1e-6);
    // Upstream's graph leaves the state inputs as the host gave them.
    EXPECT_EQ(prev_state[k], static_cast<float>(k + 1));
  }
}

}  // namespace
}  // namespace tfa::runtime
