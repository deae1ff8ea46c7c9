#include "runtime/kernels/cpu/lstm_layout.h"

#include <limits>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime::lstm {
namespace {

// Checks input `i` is a vector of `size` elements of `type`.
Status CheckVector(const KernelContext& context, size_t i, TensorType type, int32_t size,
                   const char* role) {
  TFA_RETURN_IF_ERROR(CheckType(context.input(i), type, role));
  if (context.input(i).NumElements() != size)
    return Status::Error(std::string(role) + " has " +
                         std::to_string(context.input(i).NumElements()) + " elements, expected " +
                         std::to_string(size));
  return Status::Ok();
}

}  // namespace

Result<Layout> ReadLayout(const KernelContext& context, const Types& types,
                          int32_t other_direction_columns) {
  Layout s;
  s.full_kernel = context.node->op == "LSTM";
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 24, 1));
  if (context.inputs.size() != 20 && context.inputs.size() != 24)
    return Status::Error("has " + std::to_string(context.inputs.size()) +
                         " inputs, expected 20 or 24");
  for (size_t i : {kInput, kOutputState, kCellState}) {
    if (!context.has_input(i)) return Status::Error("input " + std::to_string(i) + " is missing");
  }
  for (int g = kForgetGate; g < kGates; ++g) {
    if (!context.has_input(kInputWeights[g]) || !context.has_input(kRecurrentWeights[g]) ||
        !context.has_input(kBiases[g]))
      return Status::Error("forget, cell and output gates need weights and biases");
  }
  const RuntimeTensor& in = context.input(kInput);
  TFA_RETURN_IF_ERROR(CheckType(in, types.input, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(in, s.full_kernel ? 2 : 3, "input"));
  const bool time_major = context.options().time_major;
  s.time = s.full_kernel ? 1 : in.Dim(time_major ? 0 : 1);
  s.batch = s.full_kernel ? in.Dim(0) : in.Dim(time_major ? 1 : 0);
  s.n_input = in.Dim(in.Rank() - 1);
  const RuntimeTensor& forget_weights = context.input(kInputWeights[kForgetGate]);
  TFA_RETURN_IF_ERROR(CheckRank(forget_weights, 2, "input_to_forget_weights"));
  s.n_cell = forget_weights.Dim(0);
  const RuntimeTensor& forget_recurrent = context.input(kRecurrentWeights[kForgetGate]);
  TFA_RETURN_IF_ERROR(CheckRank(forget_recurrent, 2, "recurrent_to_forget_weights"));
  s.n_output = forget_recurrent.Dim(1);
  s.cifg = !context.has_input(kInputWeights[kInputGate]);
  // Upstream's hybrid kernels read uint8 weights as int8 (lstm_eval.cc), as the legacy
  // converter wrote symmetric weights.
  s.hybrid =
      types.int8_weights_too && types.weights != TensorType::kInt8 &&
      (forget_weights.type == TensorType::kInt8 || forget_weights.type == TensorType::kUInt8);
  s.peephole = context.has_input(kPeepholes[kOutputGate]);
  s.layer_norm = context.inputs.size() == 24 && context.has_input(kLayerNorms[kForgetGate]);
  s.projection = context.has_input(kProjectionWeights);
  if (!s.projection && s.n_output != s.n_cell)
    return Status::Error("output and cell sizes differ without projection weights");
  const TensorType weight_type = s.hybrid ? forget_weights.type : types.weights;
  // Upstream's Prepare wants hybrid peepholes of the weights' type (CheckInputTensorDimensions).
  const TensorType peephole_type = s.hybrid ? forget_weights.type : types.peephole;
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    if (!context.has_input(kInputWeights[g]) || !context.has_input(kRecurrentWeights[g]))
      return Status::Error("the input gate has input or recurrent weights but not both");
    const RuntimeTensor& w = context.input(kInputWeights[g]);
    const RuntimeTensor& r = context.input(kRecurrentWeights[g]);
    TFA_RETURN_IF_ERROR(CheckType(w, weight_type, "input weights"));
    TFA_RETURN_IF_ERROR(CheckType(r, weight_type, "recurrent weights"));
    if (w.shape != std::vector<int32_t>{s.n_cell, s.n_input} ||
        r.shape != std::vector<int32_t>{s.n_cell, s.n_output})
      return Status::Error("gate weights have inconsistent shapes");
    if (!context.has_input(kBiases[g]))
      return Status::Error("gate " + std::to_string(g) + " has no bias");
    TFA_RETURN_IF_ERROR(CheckVector(context, kBiases[g], types.bias, s.n_cell, "gate bias"));
    if (s.peephole && g != kCellGate) {
      if (!context.has_input(kPeepholes[g]))
        return Status::Error("peephole weights are present for some gates only");
      TFA_RETURN_IF_ERROR(
          CheckVector(context, kPeepholes[g], peephole_type, s.n_cell, "peephole weights"));
    }
    if (s.layer_norm) {
      if (!context.has_input(kLayerNorms[g]))
        return Status::Error("layer normalisation coefficients are present for some gates only");
      TFA_RETURN_IF_ERROR(CheckVector(context, kLayerNorms[g], types.layer_norm, s.n_cell,
                                      "layer normalisation coefficients"));
    }
  }
  if (s.projection) {
    const RuntimeTensor& p = context.input(kProjectionWeights);
    TFA_RETURN_IF_ERROR(CheckType(p, weight_type, "projection weights"));
    if (p.shape != std::vector<int32_t>{s.n_output, s.n_cell})
      return Status::Error("projection weights " + ShapeString(p.shape) + " do not map " +
                           std::to_string(s.n_cell) + " cells to " + std::to_string(s.n_output) +
                           " outputs");
    if (context.has_input(kProjectionBias))
      TFA_RETURN_IF_ERROR(CheckVector(context, kProjectionBias, types.projection_bias, s.n_output,
                                      "projection bias"));
  } else if (context.has_input(kProjectionBias)) {
    return Status::Error("a projection bias needs projection weights");
  }
  const RuntimeTensor& output_state = context.input(kOutputState);
  const RuntimeTensor& cell_state = context.input(kCellState);
  TFA_RETURN_IF_ERROR(CheckType(output_state, types.output_state, "output state"));
  TFA_RETURN_IF_ERROR(CheckType(cell_state, types.cell_state, "cell state"));
  if (output_state.NumElements() != static_cast<int64_t>(s.batch) * s.n_output ||
      cell_state.NumElements() != static_cast<int64_t>(s.batch) * s.n_cell)
    return Status::Error("state sizes do not fit batch and cells");
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), types.output, "output"));
  const int64_t columns = int64_t{s.n_output} + other_direction_columns;
  if (columns > std::numeric_limits<int32_t>::max())
    return Status::Error("output depth " + std::to_string(columns) + " overflows int32");
  std::vector<int32_t> out = in.shape;
  out.back() = static_cast<int32_t>(columns);
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), out));
  return s;
}

}  // namespace tfa::runtime::lstm
