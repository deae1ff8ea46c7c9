#include "libanalysis/tflm/kernel_prepare_checks_lstm.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/tflm/kernel_prepare_checks.h"
#include "tests/support/small_graphs.h"

namespace tfa::tflm {
namespace {

using testing::ArenaTensor;
using testing::Constant;
using testing::Graph;
using testing::Op;
using T = TensorType;

// A float UNIDIRECTIONAL_SEQUENCE_LSTM over batch 1, 2 steps, 3 inputs, 4 units: the standard
// LSTM TFLM runs (lstm_shared.h's 24 inputs; tensor i feeds input i, -1 where `present` is
// false), then the output as tensor 24.
Subgraph Lstm(const std::vector<bool>& present, bool variable_states = true) {
  std::vector<Tensor> tensors;
  std::vector<int32_t> inputs;
  for (size_t i = 0; i < 24; ++i) {
    if (i == 0) {
      tensors.push_back(ArenaTensor({1, 2, 3}));
    } else if (i < 5) {
      tensors.push_back(Constant({4, 3}, T::kFloat32));
    } else if (i < 9 || i == 16) {
      tensors.push_back(Constant({4, 4}, T::kFloat32));
    } else if (i == 18 || i == 19) {
      tensors.push_back(ArenaTensor({1, 4}));
      tensors.back().is_variable = variable_states;
    } else {
      tensors.push_back(Constant({4}, T::kFloat32));
    }
    inputs.push_back(present[i] ? static_cast<int32_t>(i) : -1);
  }
  tensors.push_back(ArenaTensor({1, 2, 4}));
  Node lstm = Op("UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, {24});
  return Graph(std::move(tensors), {std::move(lstm)}, {0}, {24});
}

// The inputs of the standard LSTM: all but the peephole (9-11), projection (16-17) and
// layer-norm (20-23) tensors.
std::vector<bool> Standard() {
  std::vector<bool> present(24, true);
  for (size_t i : {9, 10, 11, 16, 17, 20, 21, 22, 23}) present[i] = false;
  return present;
}

std::string FailureOf(const Subgraph& graph) {
  return PrepareFailure(graph, graph.nodes[0]).value_or("passes");
}

TEST(TflmLstmPrepareChecks, TheStandardLstmPasses) {
  EXPECT_EQ(FailureOf(Lstm(Standard())), "passes");
}

// CIFG couples the input gate to the forget gate: no input-to-input or recurrent-to-input
// weights and no input gate bias. ValidateTensorStatus requires weights 1-8.
TEST(TflmLstmPrepareChecks, CifgIsRefused) {
  std::vector<bool> cifg = Standard();
  cifg[1] = cifg[5] = cifg[12] = false;
  EXPECT_EQ(FailureOf(Lstm(cifg)),
            "internal_tensors_[i] != nullptr was not true. (lstm_eval.cc: input 1 (input-to-input "
            "weights) is missing: a CIFG LSTM (no input gate), which TFLM does not run)");
}

TEST(TflmLstmPrepareChecks, PeepholeIsRefused) {
  std::vector<bool> peephole = Standard();
  peephole[10] = peephole[11] = true;
  EXPECT_EQ(FailureOf(Lstm(peephole)),
            "internal_tensors_[i] == nullptr was not true. (lstm_eval.cc: input 10 "
            "(cell-to-forget (peephole) weights) is given: a peephole LSTM, which TFLM does not "
            "run)");
}

TEST(TflmLstmPrepareChecks, ProjectionIsRefused) {
  std::vector<bool> projection = Standard();
  projection[16] = true;
  EXPECT_EQ(FailureOf(Lstm(projection)),
            "internal_tensors_[i] == nullptr was not true. (lstm_eval.cc: input 16 (projection "
            "weights) is given: a projection LSTM, which TFLM does not run)");
}

TEST(TflmLstmPrepareChecks, LayerNormIsRefused) {
  std::vector<bool> layer_norm = Standard();
  for (size_t i : {20, 21, 22, 23}) layer_norm[i] = true;
  EXPECT_EQ(FailureOf(Lstm(layer_norm)),
            "internal_tensors_[i] == nullptr was not true. (lstm_eval.cc: input 20 (input "
            "layer-norm coefficients) is given: a layer-norm LSTM, which TFLM does not run)");
}

// The states must be variable tensors (the converter marks them so).
TEST(TflmLstmPrepareChecks, StatesThatAreNotVariablesAreRefused) {
  EXPECT_EQ(FailureOf(Lstm(Standard(), /*variable_states=*/false)),
            "internal_tensors_[kLstmOutputStateTensor]->is_variable was not true. (lstm_eval.cc: "
            "input 18 (output (hidden) state) is not a variable tensor)");
}

}  // namespace
}  // namespace tfa::tflm
