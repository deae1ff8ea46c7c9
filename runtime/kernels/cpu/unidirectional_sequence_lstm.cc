#include "runtime/kernels/cpu/unidirectional_sequence_lstm.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "runtime/kernels/cpu/hybrid_math.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// Input positions of upstream's 24-input layout (tflite/kernels/lstm_shared.h).
constexpr size_t kInput = 0;
constexpr size_t kInputWeights[4] = {1, 2, 3, 4};      // input, forget, cell, output gates
constexpr size_t kRecurrentWeights[4] = {5, 6, 7, 8};  // the same gates
constexpr size_t kPeepholes[3] = {9, 10, 11};
constexpr size_t kBiases[4] = {12, 13, 14, 15};
constexpr size_t kProjectionWeights = 16, kProjectionBias = 17;
constexpr size_t kOutputState = 18, kCellState = 19;
constexpr size_t kLayerNorms[4] = {20, 21, 22, 23};
constexpr int kGates = 4;

struct LstmShape {
  int32_t time = 0, batch = 0, n_input = 0, n_cell = 0, n_output = 0;
  bool cifg = false;    // no input gate: it is 1 - forget gate
  bool hybrid = false;  // int8 weights
};

Result<LstmShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 24, 1));
  if (context.inputs.size() != 24)
    return Status::Error("has " + std::to_string(context.inputs.size()) + " inputs, expected 24");
  for (size_t i : {kInput, kOutputState, kCellState}) {
    if (!context.has_input(i)) return Status::Error("input " + std::to_string(i) + " is missing");
  }
  for (size_t g = 1; g < kGates; ++g) {
    if (!context.has_input(kInputWeights[g]) || !context.has_input(kRecurrentWeights[g]) ||
        !context.has_input(kBiases[g]))
      return Status::Error("forget, cell and output gates need weights and biases");
  }
  for (size_t i : kPeepholes) {
    if (context.has_input(i)) return Status::Error("peephole connections are not supported");
  }
  for (size_t i : kLayerNorms) {
    if (context.has_input(i)) return Status::Error("layer normalisation is not supported");
  }
  if (context.has_input(kProjectionWeights) || context.has_input(kProjectionBias))
    return Status::Error("projection is not supported");
  const RuntimeTensor& in = context.input(kInput);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 3, "input"));
  LstmShape s;
  const bool time_major = context.options().time_major;
  s.time = in.Dim(time_major ? 0 : 1);
  s.batch = in.Dim(time_major ? 1 : 0);
  s.n_input = in.Dim(2);
  const RuntimeTensor& forget_weights = context.input(kInputWeights[1]);
  TFA_RETURN_IF_ERROR(CheckRank(forget_weights, 2, "input_to_forget_weights"));
  s.n_cell = forget_weights.Dim(0);
  const RuntimeTensor& forget_recurrent = context.input(kRecurrentWeights[1]);
  TFA_RETURN_IF_ERROR(CheckRank(forget_recurrent, 2, "recurrent_to_forget_weights"));
  s.n_output = forget_recurrent.Dim(1);
  if (s.n_output != s.n_cell) return Status::Error("output and cell sizes differ (no projection)");
  s.cifg = !context.has_input(kInputWeights[0]);
  s.hybrid = forget_weights.type == TensorType::kInt8;
  const TensorType weight_type = s.hybrid ? TensorType::kInt8 : TensorType::kFloat32;
  for (int g = s.cifg ? 1 : 0; g < kGates; ++g) {
    const RuntimeTensor& w = context.input(kInputWeights[g]);
    const RuntimeTensor& r = context.input(kRecurrentWeights[g]);
    TFA_RETURN_IF_ERROR(CheckType(w, weight_type, "input weights"));
    TFA_RETURN_IF_ERROR(CheckType(r, weight_type, "recurrent weights"));
    if (w.shape != std::vector<int32_t>{s.n_cell, s.n_input} ||
        r.shape != std::vector<int32_t>{s.n_cell, s.n_output})
      return Status::Error("gate weights have inconsistent shapes");
    if (!context.has_input(kBiases[g]))
      return Status::Error("gate " + std::to_string(g) + " has no bias");
    TFA_RETURN_IF_ERROR(CheckType(context.input(kBiases[g]), TensorType::kFloat32, "bias"));
    if (context.input(kBiases[g]).NumElements() != s.n_cell)
      return Status::Error("gate bias size differs from the cells");
  }
  const RuntimeTensor& output_state = context.input(kOutputState);
  const RuntimeTensor& cell_state = context.input(kCellState);
  TFA_RETURN_IF_ERROR(CheckType(output_state, TensorType::kFloat32, "output state"));
  TFA_RETURN_IF_ERROR(CheckType(cell_state, TensorType::kFloat32, "cell state"));
  if (output_state.NumElements() != static_cast<int64_t>(s.batch) * s.n_output ||
      cell_state.NumElements() != static_cast<int64_t>(s.batch) * s.n_cell)
    return Status::Error("state sizes do not fit batch and cells");
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  std::vector<int32_t> out = in.shape;
  out[2] = s.n_output;
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), out));
  return s;
}

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// The cell and output activation (upstream's ApplyActivationToVector).
Result<float (*)(float)> CellActivation(Activation activation) {
  switch (activation) {
    case Activation::kNone:
      return +[](float x) { return x; };
    case Activation::kRelu:
      return +[](float x) { return std::max(x, 0.0f); };
    case Activation::kRelu6:
      return +[](float x) { return std::clamp(x, 0.0f, 6.0f); };
    case Activation::kTanh:
      return +[](float x) { return std::tanh(x); };
    default:
      return Status::Error("unsupported LSTM activation");
  }
}

// gate[b][c] += weights[c] . operand_b, float or hybrid.
void Accumulate(const RuntimeTensor& weights, const float* operand, int32_t batch, int32_t cols,
                bool asymmetric, int8_t* quantized, float* gate) {
  if (weights.type == TensorType::kInt8) {
    auto w = ReadHybridWeights(weights, "weights");  // checked at Prepare
    HybridMatrixBatchVectorMultiplyAccumulate(*w, operand, batch, asymmetric, quantized, gate);
    return;
  }
  const float* m = weights.Data<const float>();
  const int32_t rows = weights.Dim(0);
  for (int32_t b = 0; b < batch; ++b) {
    for (int32_t r = 0; r < rows; ++r) {
      float dot = 0;
      for (int32_t c = 0; c < cols; ++c) dot += m[r * cols + c] * operand[b * cols + c];
      gate[b * rows + r] += dot;
    }
  }
}

}  // namespace

Status PrepareUnidirectionalSequenceLstm(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  TFA_RETURN_IF_ERROR(CellActivation(context.options().fused_activation).status());
  if (s->hybrid) {
    for (int g = s->cifg ? 1 : 0; g < kGates; ++g) {
      TFA_RETURN_IF_ERROR(ReadHybridWeights(context.input(kInputWeights[g]), "weights").status());
      TFA_RETURN_IF_ERROR(
          ReadHybridWeights(context.input(kRecurrentWeights[g]), "weights").status());
    }
  }
  const uint64_t gates = static_cast<uint64_t>(kGates) * s->batch * s->n_cell * sizeof(float);
  const uint64_t quantized = static_cast<uint64_t>(s->batch) * std::max(s->n_input, s->n_output);
  context.scratch_bytes = gates + quantized;
  return Status::Ok();
}

Status EvalUnidirectionalSequenceLstm(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  auto activation = CellActivation(context.options().fused_activation);
  if (!activation.ok()) return activation.status();
  const float cell_clip = context.node_data ? context.node_data->cell_clip : 0.0f;
  const bool asymmetric = context.options().asymmetric_quantize_inputs;
  const bool time_major = context.options().time_major;
  const int64_t cells = static_cast<int64_t>(s->batch) * s->n_cell;
  std::array<float*, kGates> gate;
  for (int g = 0; g < kGates; ++g)
    gate[static_cast<size_t>(g)] = reinterpret_cast<float*>(context.scratch) + g * cells;
  auto* quantized = reinterpret_cast<int8_t*>(context.scratch + kGates * cells * sizeof(float));
  float* output_state = context.input(kOutputState).Data<float>();
  float* cell_state = context.input(kCellState).Data<float>();
  const float* in = context.input(kInput).Data<const float>();
  float* out = context.output(0).Data<float>();
  std::vector<float> step_input(static_cast<size_t>(s->batch) * s->n_input);
  for (int32_t t = 0; t < s->time; ++t) {
    // The batch rows of this time step, contiguous.
    for (int32_t b = 0; b < s->batch; ++b) {
      const int64_t row = time_major ? static_cast<int64_t>(t) * s->batch + b
                                     : static_cast<int64_t>(b) * s->time + t;
      std::copy_n(in + row * s->n_input, s->n_input, step_input.data() + b * s->n_input);
    }
    for (int g = s->cifg ? 1 : 0; g < kGates; ++g) {
      float* values = gate[static_cast<size_t>(g)];
      const float* bias = context.input(kBiases[static_cast<size_t>(g)]).Data<const float>();
      for (int32_t b = 0; b < s->batch; ++b) std::copy_n(bias, s->n_cell, values + b * s->n_cell);
      Accumulate(context.input(kInputWeights[static_cast<size_t>(g)]), step_input.data(), s->batch,
                 s->n_input, asymmetric, quantized, values);
      Accumulate(context.input(kRecurrentWeights[static_cast<size_t>(g)]), output_state, s->batch,
                 s->n_output, asymmetric, quantized, values);
    }
    float* input_gate = gate[0];
    float* forget_gate = gate[1];
    float* cell_gate = gate[2];
    float* output_gate = gate[3];
    for (int64_t i = 0; i < cells; ++i) {
      forget_gate[i] = Sigmoid(forget_gate[i]);
      input_gate[i] = s->cifg ? 1.0f - forget_gate[i] : Sigmoid(input_gate[i]);
      cell_gate[i] = (*activation)(cell_gate[i]);
      float c = forget_gate[i] * cell_state[i] + input_gate[i] * cell_gate[i];
      if (cell_clip > 0) c = std::clamp(c, -cell_clip, cell_clip);
      cell_state[i] = c;
      output_state[i] = Sigmoid(output_gate[i]) * (*activation)(c);
    }
    for (int32_t b = 0; b < s->batch; ++b) {
      const int64_t row = time_major ? static_cast<int64_t>(t) * s->batch + b
                                     : static_cast<int64_t>(b) * s->time + t;
      std::copy_n(output_state + b * s->n_output, s->n_output, out + row * s->n_output);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
