#include "libanalysis/tflm/kernel_prepare_checks_lstm.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "libanalysis/tflm/kernel_prepare_check_helpers.h"

namespace tfa::tflm::prepare_checks {
namespace {

// lstm_shared.h's input indices, for the refusals' why.
constexpr std::array<std::string_view, 24> kLstmInputNames = {
    "input",
    "input-to-input weights",
    "input-to-forget weights",
    "input-to-cell weights",
    "input-to-output weights",
    "recurrent-to-input weights",
    "recurrent-to-forget weights",
    "recurrent-to-cell weights",
    "recurrent-to-output weights",
    "cell-to-input (peephole) weights",
    "cell-to-forget (peephole) weights",
    "cell-to-output (peephole) weights",
    "input gate bias",
    "forget gate bias",
    "cell gate bias",
    "output gate bias",
    "projection weights",
    "projection bias",
    "output (hidden) state",
    "cell state",
    "input layer-norm coefficients",
    "forget layer-norm coefficients",
    "cell layer-norm coefficients",
    "output layer-norm coefficients",
};

std::string InputWhy(size_t index, std::string_view what) {
  return "input " + std::to_string(index) + " (" + std::string(kLstmInputNames[index]) + ") " +
         std::string(what);
}

// lstm_eval.cc LstmTensors::ValidateTensorStatus, which Prepare runs before any shape check.
// TFLM's kernel runs the standard LSTM only: a CIFG LSTM (no input gate) misses the weights the
// loop over 1..8 requires, and any tensor of the peephole, projection or layer-norm variants is
// refused.
std::optional<std::string> TensorStatusFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "lstm_eval.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* hidden = At(g, node.inputs, 18);
  const Tensor* cell = At(g, node.inputs, 19);
  const Tensor* output = At(g, node.outputs, 0);
  auto ensure = [&](bool holds, std::string_view condition,
                    std::string_view why) -> std::optional<std::string> {
    if (holds) return std::nullopt;
    return Failure(std::string(condition) + " was not true.", kFile, why);
  };
  if (auto f = ensure(input != nullptr, "internal_tensors_[kLstmInputTensor] != nullptr",
                      InputWhy(0, "is missing"))) {
    return f;
  }
  if (auto f = ensure(hidden != nullptr, "internal_tensors_[kLstmOutputStateTensor] != nullptr",
                      InputWhy(18, "is missing"))) {
    return f;
  }
  if (auto f = ensure(hidden->is_variable, "internal_tensors_[kLstmOutputStateTensor]->is_variable",
                      InputWhy(18, "is not a variable tensor"))) {
    return f;
  }
  if (hidden->type != input->type) {
    return Failure(
        TypesNotEqual("internal_tensors_[kLstmOutputStateTensor]->type",
                      "internal_tensors_[kLstmInputTensor]->type", hidden->type, input->type),
        kFile, Types("hidden state", hidden, "input", input));
  }
  if (auto f = ensure(cell != nullptr, "internal_tensors_[kLstmCellStateTensor] != nullptr",
                      InputWhy(19, "is missing"))) {
    return f;
  }
  if (auto f = ensure(cell->is_variable, "internal_tensors_[kLstmCellStateTensor]->is_variable",
                      InputWhy(19, "is not a variable tensor"))) {
    return f;
  }
  if (auto f = ensure(output != nullptr, "output_tensor_ != nullptr", "the output is missing")) {
    return f;
  }
  if (output->type != input->type) {
    return Failure(
        TypesNotEqual("output_tensor_->type", "internal_tensors_[kLstmInputTensor]->type",
                      output->type, input->type),
        kFile, Types("output", output, "input", input));
  }
  // The weight and bias types are read from the forget gate's tensors before the loops check
  // that they exist: without them TFLM reads through a null pointer.
  auto null_read = [&](std::string_view what) {
    return "no forget gate " + std::string(what) +
           ": TFLite Micro's ValidateTensorStatus reads its type through a null pointer (" +
           std::string(kFile) + ")";
  };
  const Tensor* forget_weights = At(g, node.inputs, 2);
  if (forget_weights == nullptr) return null_read("weights");
  for (size_t i = 1; i < 9; ++i) {
    const Tensor* weights = At(g, node.inputs, i);
    const std::string_view variant =
        i == 1 || i == 5 ? "is missing: a CIFG LSTM (no input gate), which TFLM does not run"
                         : "is missing";
    if (auto f =
            ensure(weights != nullptr, "internal_tensors_[i] != nullptr", InputWhy(i, variant))) {
      return f;
    }
    if (weights->type != forget_weights->type) {
      return Failure(TypesNotEqual("internal_tensors_[i]->type", "weight_type", weights->type,
                                   forget_weights->type),
                     kFile,
                     InputWhy(i, "is " + TypeName(weights->type) + ", the forget gate's weights " +
                                     TypeName(forget_weights->type)));
    }
  }
  const Tensor* forget_bias = At(g, node.inputs, 13);
  if (forget_bias == nullptr) return null_read("bias");
  for (size_t i = 12; i < 16; ++i) {
    const Tensor* bias = At(g, node.inputs, i);
    const std::string_view variant =
        i == 12 ? "is missing: a CIFG LSTM (no input gate), which TFLM does not run" : "is missing";
    if (auto f = ensure(bias != nullptr, "internal_tensors_[i] != nullptr", InputWhy(i, variant))) {
      return f;
    }
    if (bias->type != forget_bias->type) {
      return Failure(
          TypesNotEqual("internal_tensors_[i]->type", "bias_type", bias->type, forget_bias->type),
          kFile,
          InputWhy(i, "is " + TypeName(bias->type) + ", the forget gate bias " +
                          TypeName(forget_bias->type)));
    }
  }
  // The variants' tensors, in ValidateTensorStatus's order: peephole, projection, layer norm.
  constexpr std::array<std::pair<size_t, std::string_view>, 9> kVariantInputs = {{
      {9, "a peephole LSTM"},
      {10, "a peephole LSTM"},
      {11, "a peephole LSTM"},
      {16, "a projection LSTM"},
      {17, "a projection LSTM"},
      {20, "a layer-norm LSTM"},
      {21, "a layer-norm LSTM"},
      {22, "a layer-norm LSTM"},
      {23, "a layer-norm LSTM"},
  }};
  for (const auto& [i, variant] : kVariantInputs) {
    if (auto f = ensure(
            At(g, node.inputs, i) == nullptr, "internal_tensors_[i] == nullptr",
            InputWhy(i, "is given: " + std::string(variant) + ", which TFLM does not run"))) {
      return f;
    }
  }
  return std::nullopt;
}

}  // namespace

// unidirectional_sequence_lstm.cc Prepare: the tensor status, then lstm_eval_common.cc
// ValidateTensorSize: the weights, biases, states and output shaped as the input and the hidden
// state say.
std::optional<std::string> SequenceLstmFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "unidirectional_sequence_lstm.cc, lstm_eval_common.cc";
  if (node.outputs.size() != 1) {
    return Failure(NotEqual("node->outputs->size", "1", node.outputs.size(), 1), kFile);
  }
  if (node.inputs.size() != 24) {
    return Failure(NotEqual("node->inputs->size", "24", node.inputs.size(), 24), kFile);
  }
  if (auto failure = TensorStatusFailure(g, node)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* hidden = At(g, node.inputs, 18);
  const Tensor* cell = At(g, node.inputs, 19);
  const Tensor* output = At(g, node.outputs, 0);
  if (Rank(input) < 3 || Rank(hidden) < 2) return std::nullopt;
  const bool time_major = node.options->time_major;
  const int64_t batch = Dim(input, time_major ? 1 : 0);
  const int64_t input_dim = Dim(input, 2);
  const int64_t state = Dim(hidden, 1);
  auto weight = [&](size_t i, int64_t rows, int64_t columns) -> std::optional<std::string> {
    const Tensor* w = At(g, node.inputs, i);
    if (w == nullptr) return std::nullopt;
    if (Rank(w) != 2) return Failure(NotEqual("tensor->dims->size", "2", Rank(w), 2), kFile);
    if (Dim(w, 0) != rows) {
      return Failure(NotEqual("tensor->dims->data[0]", "dim1_size", Dim(w, 0), rows), kFile);
    }
    if (Dim(w, 1) != columns) {
      return Failure(NotEqual("tensor->dims->data[1]", "dim2_size", Dim(w, 1), columns), kFile);
    }
    return std::nullopt;
  };
  for (size_t i = 1; i < 5; ++i) {
    if (auto failure = weight(i, state, input_dim)) return failure;
  }
  for (size_t i = 5; i < 9; ++i) {
    if (auto failure = weight(i, state, state)) return failure;
  }
  for (size_t i = 12; i < 16; ++i) {
    const Tensor* bias = At(g, node.inputs, i);
    if (bias == nullptr) continue;
    if (Rank(bias) != 1) return Failure(NotEqual("tensor->dims->size", "1", Rank(bias), 1), kFile);
    if (Dim(bias, 0) != state) {
      return Failure(NotEqual("tensor->dims->data[0]", "size", Dim(bias, 0), state), kFile);
    }
  }
  auto elements = [](const Tensor* t) {
    int64_t n = 1;
    for (int32_t d : t->shape) n *= d;
    return n;
  };
  if (elements(hidden) != batch * state) {
    return Failure(NotEqual("NumElements(tensors.HiddenStateTensor())",
                            "size_info.batch_size * size_info.state_dimension", elements(hidden),
                            batch * state),
                   kFile);
  }
  if (elements(cell) != batch * state) {
    return Failure(
        NotEqual("NumElements(tensors.CellStateTensor())",
                 "size_info.batch_size * size_info.state_dimension", elements(cell), batch * state),
        kFile);
  }
  if (Rank(output) != 3) {
    return Failure(NotEqual("tensors.OutputTensor()->dims->size", "3", Rank(output), 3), kFile);
  }
  for (size_t axis = 0; axis < 2; ++axis) {
    if (Dim(input, axis) != Dim(output, axis)) {
      return Failure(NotEqual("input->dims->data[" + std::to_string(axis) + "]",
                              "output->dims->data[" + std::to_string(axis) + "]", Dim(input, axis),
                              Dim(output, axis)),
                     kFile);
    }
  }
  if (Dim(output, 2) != state) {
    return Failure(NotEqual("tensors.OutputTensor()->dims->data[2]", "size_info.state_dimension",
                            Dim(output, 2), state),
                   kFile);
  }
  return std::nullopt;
}

}  // namespace tfa::tflm::prepare_checks
