// The GPU delegate's LSTM rule: upstream's LSTMOperationParser::IsSupported (version 4 at most,
// then CheckGpuDelegateCompatibility of tflite/tools/versioning/gpu_compatibility.cc) takes the
// builtin LSTM's full and basic kernels under their own checks; UNIDIRECTIONAL_SEQUENCE_LSTM has
// no GPU parser at all (model_builder.cc NewOperationParser).
#include "libanalysis/profiles/gpu_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

using testing::RuleTestGraph;

constexpr TensorType kF32 = TensorType::kFloat32;

// A float full-kernel LSTM of `inputs` inputs (20 or 24 on real models): input [1, 3], the gate
// weights and biases constant, no peephole, projection or layer norm, the two states variable.
Node& FullLstm(RuleTestGraph& g, size_t inputs, Activation activation = Activation::kTanh) {
  std::vector<int32_t> in(inputs, -1);
  in[0] = g.Tensor(kF32, {1, 3});
  for (size_t k = 1; k <= 4 && k < inputs; ++k) in[k] = g.Constant(kF32, {5, 3});
  for (size_t k = 5; k <= 8 && k < inputs; ++k) in[k] = g.Constant(kF32, {5, 5});
  for (size_t k = 12; k <= 15 && k < inputs; ++k) in[k] = g.Constant(kF32, {5});
  if (inputs > 19) {
    in[18] = g.Tensor(kF32, {1, 5});
    in[19] = g.Tensor(kF32, {1, 5});
  }
  Node& node = g.Op("LSTM", {in, {g.Tensor(kF32, {1, 5})}});
  node.options.Mutable().fused_activation = activation;
  return node;
}

// A basic-kernel LSTM: input, previous activation, weights, bias, previous state; output,
// new state, concatenation, gate activations.
Node& BasicLstm(RuleTestGraph& g, Activation activation = Activation::kTanh,
                bool constant_state = false) {
  const int32_t input = g.Tensor(kF32, {1, 3});
  const int32_t activ = g.Tensor(kF32, {1, 4});
  const int32_t weights = g.Constant(kF32, {16, 7});
  const int32_t bias = g.Constant(kF32, {16});
  const int32_t state = constant_state ? g.Constant(kF32, {1, 4}) : g.Tensor(kF32, {1, 4});
  Node& node = g.Op("LSTM", {{input, activ, weights, bias, state},
                             {g.Tensor(kF32, {1, 4}), g.Tensor(kF32, {1, 4}),
                              g.Tensor(kF32, {1, 7}), g.Tensor(kF32, {1, 16})}});
  OpOptions& o = node.options.Mutable();
  o.lstm_basic_kernel = true;
  o.fused_activation = activation;
  return node;
}

TEST(GpuRulesTest, FullLstmTakesTwentyOrTwentyFourInputsAndTanh) {
  for (size_t inputs : {20u, 24u}) {
    RuleTestGraph g;
    FullLstm(g, inputs);
    EXPECT_EQ(g.Verdicts("gpu"), std::vector<std::string>{""}) << inputs << " inputs";
  }
  RuleTestGraph short_list;
  FullLstm(short_list, 18);
  EXPECT_EQ(short_list.Verdicts("gpu")[0],
            "Expected 20 or 24 input tensors, but node has 18 input(s).");
  RuleTestGraph relu;
  FullLstm(relu, 24, Activation::kRelu);
  EXPECT_EQ(relu.Verdicts("gpu")[0],
            "Only sigmoid or tanh activation is supported, but node has 1");
  RuleTestGraph version;
  FullLstm(version, 24).version = 5;
  EXPECT_NE(version.Verdicts("gpu")[0], "");
}

TEST(GpuRulesTest, BasicLstmTakesThreeRuntimeTwoConstantInputsAndTanh) {
  RuleTestGraph g;
  BasicLstm(g);
  EXPECT_EQ(g.Verdicts("gpu"), std::vector<std::string>{""});
  RuleTestGraph relu6;
  BasicLstm(relu6, Activation::kRelu6);
  EXPECT_EQ(relu6.Verdicts("gpu")[0], "Only TANH activation is supported. but node has 3");
  RuleTestGraph constant_state;
  BasicLstm(constant_state, Activation::kTanh, /*constant_state=*/true);
  EXPECT_EQ(constant_state.Verdicts("gpu")[0],
            "Expected 2 const input tensor(s), but node has 3 const input(s).");
  // CheckBasicParameters: the GPU's cell clips nothing (the CPU's basic kernel ignores clips).
  RuleTestGraph cell_clip;
  BasicLstm(cell_clip).options.Mutable().cell_clip = 3.0f;
  EXPECT_EQ(cell_clip.Verdicts("gpu")[0], "cell_clip is not supported.");
  RuleTestGraph proj_clip;
  BasicLstm(proj_clip).options.Mutable().proj_clip = 0.5f;
  EXPECT_EQ(proj_clip.Verdicts("gpu")[0], "proj_clip is not supported.");
}

TEST(GpuRulesTest, UnidirectionalSequenceLstmHasNoGpuParser) {
  RuleTestGraph g;
  std::vector<int32_t> in(24, -1);
  in[0] = g.Tensor(kF32, {1, 2, 3});
  g.Op("UNIDIRECTIONAL_SEQUENCE_LSTM", {in, {g.Tensor(kF32, {1, 2, 5})}});
  EXPECT_EQ(g.Verdicts("gpu")[0], "Operation is not supported.");
}

}  // namespace
}  // namespace tfa
