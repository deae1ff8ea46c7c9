#include "runtime/kernels/cpu/unidirectional_sequence_lstm.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/hybrid_math.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/lstm_layout.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/working_buffers.h"

namespace tfa::runtime {
namespace {

using lstm::kBiases;
using lstm::kCellGate;
using lstm::kCellState;
using lstm::kForgetGate;
using lstm::kGates;
using lstm::kInput;
using lstm::kInputGate;
using lstm::kInputWeights;
using lstm::kLayerNorms;
using lstm::kOutputGate;
using lstm::kOutputState;
using lstm::kPeepholes;
using lstm::kProjectionBias;
using lstm::kProjectionWeights;
using lstm::kRecurrentWeights;
using lstm::Layout;
using lstm::ReadLayout;

// The matrices a hybrid kernel multiplies in int8: gate and projection weights.
constexpr size_t kHybridWeights[9] = {1, 2, 3, 4, 5, 6, 7, 8, kProjectionWeights};

// Hybrid weights as int8: upstream's EvalHybrid reads uint8 ones as int8 too (lstm_eval.cc), the
// legacy converter's symmetric weights; a uint8 zero point other than 0 would be ignored there.
Result<HybridWeights> LstmHybridWeights(const RuntimeTensor& weights, const char* role) {
  if (weights.type != TensorType::kUInt8) return ReadHybridWeights(weights, role);
  const Quantization* q = weights.quantization;
  if (q != nullptr && !q->zero_point.empty() && q->zero_point[0] != 0)
    return Status::Error(std::string(role) + " are uint8 of zero point " +
                         std::to_string(q->zero_point[0]) +
                         " (upstream's hybrid kernel reads them as int8 and ignores it)");
  RuntimeTensor as_int8 = weights;
  as_int8.type = TensorType::kInt8;
  return ReadHybridWeights(as_int8, role);
}

Result<Layout> Shape(const KernelContext& context, const LstmPass& pass) {
  const TensorType f32 = TensorType::kFloat32;
  return ReadLayout(context,
                    {.input = f32,
                     .weights = f32,
                     .int8_weights_too = true,
                     .bias = f32,
                     .peephole = f32,
                     .projection_bias = f32,
                     .output_state = f32,
                     .cell_state = f32,
                     .output = f32},
                    pass.other_direction_columns);
}

// The auxiliary input's width, after checking it and its weights against the layout.
Result<int32_t> AuxInputSize(const KernelContext& context, const Layout& s, const LstmPass& pass) {
  if (pass.aux_input == nullptr) return 0;
  const RuntimeTensor& aux = *pass.aux_input;
  const RuntimeTensor& in = context.input(kInput);
  TFA_RETURN_IF_ERROR(CheckType(aux, TensorType::kFloat32, "auxiliary input"));
  TFA_RETURN_IF_ERROR(CheckRank(aux, 3, "auxiliary input"));
  const int32_t size = aux.Dim(2);
  if (aux.Dim(0) != in.Dim(0) || aux.Dim(1) != in.Dim(1))
    return Status::Error("auxiliary input " + ShapeString(aux.shape) + " and input " +
                         ShapeString(in.shape) + " differ in time steps or batch");
  const TensorType weight_type =
      s.hybrid ? context.input(kInputWeights[kForgetGate]).type : TensorType::kFloat32;
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    const RuntimeTensor* w = pass.aux_weights[g];
    if (w == nullptr) return Status::Error("auxiliary input weights are missing for a gate");
    TFA_RETURN_IF_ERROR(CheckType(*w, weight_type, "auxiliary input weights"));
    if (w->shape != std::vector<int32_t>{s.n_cell, size})
      return Status::Error("auxiliary input weights " + ShapeString(w->shape) + " do not map " +
                           std::to_string(size) + " inputs to " + std::to_string(s.n_cell) +
                           " cells");
    if (s.hybrid) TFA_RETURN_IF_ERROR(LstmHybridWeights(*w, "auxiliary input weights").status());
  }
  return size;
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

// Upstream's temporaries (unidirectional_sequence_lstm.cc, lstm.cc Prepare): 0 the scratch buffer,
// here the gates (no input gate with CIFG) then the hidden vector output_gate * activation(cell);
// hybrid: 1 the quantized input rows, 2 the quantized output state, 3 the quantized cell-sized
// operand of the projection, 7 the peephole weights recovered as floats (4 to 6, upstream's
// scaling factors, are kept inside the hybrid product here), 8 the quantized auxiliary input.
constexpr size_t kRecoveredPeephole = 7, kQuantizedAuxInput = 8;
WorkingBuffers Buffers(const KernelContext& context, const Layout& s, int32_t aux_size) {
  const uint64_t cells = static_cast<uint64_t>(s.batch) * s.n_cell;
  const uint64_t scratch = (s.cifg ? 4 : 5) * cells * sizeof(float);
  if (!s.hybrid) return WorkingBuffers(context, {scratch});
  std::vector<uint64_t> bytes = {scratch,
                                 static_cast<uint64_t>(s.batch) * s.n_input,
                                 static_cast<uint64_t>(s.batch) * s.n_output,
                                 cells,
                                 0,
                                 0,
                                 0,
                                 static_cast<uint64_t>(s.n_cell) * sizeof(float)};
  if (aux_size > 0) bytes.push_back(static_cast<uint64_t>(s.batch) * aux_size);
  return WorkingBuffers(context, bytes);
}

// result[b][r] += weights[r] . operand_b, float or hybrid (`quantized`: batch x cols bytes).
void Accumulate(const RuntimeTensor& weights, const float* operand, int32_t batch, int32_t cols,
                bool asymmetric, int8_t* quantized, float* result) {
  if (weights.type != TensorType::kFloat32) {
    auto w = LstmHybridWeights(weights, "weights");  // checked at Prepare
    HybridMatrixBatchVectorMultiplyAccumulate(*w, operand, batch, asymmetric, quantized, result);
    return;
  }
  const float* m = weights.Data<const float>();
  const int32_t rows = weights.Dim(0);
  for (int32_t b = 0; b < batch; ++b) {
    for (int32_t r = 0; r < rows; ++r) {
      float dot = 0;
      for (int32_t c = 0; c < cols; ++c) dot += m[r * cols + c] * operand[b * cols + c];
      result[b * rows + r] += dot;
    }
  }
}

// Upstream's MeanStddevNormalization: each row to zero mean and unit variance (1e-8 added).
void NormalizeRows(float* values, int32_t rows, int32_t size) {
  for (int32_t r = 0; r < rows; ++r) {
    float* row = values + static_cast<int64_t>(r) * size;
    float sum = 0;
    for (int32_t i = 0; i < size; ++i) sum += row[i];
    const float mean = sum / static_cast<float>(size);
    float squares = 0;
    for (int32_t i = 0; i < size; ++i) squares += (row[i] - mean) * (row[i] - mean);
    const float inverse = 1.0f / std::sqrt(squares / static_cast<float>(size) + 1e-8f);
    for (int32_t i = 0; i < size; ++i) row[i] = (row[i] - mean) * inverse;
  }
}

// The tensors and buffers of one Eval.
struct LstmStep {
  const KernelContext* context = nullptr;
  Layout s;
  float (*activation)(float) = nullptr;
  bool asymmetric = false;
  const RuntimeTensor* const* aux_weights = nullptr;  // with an auxiliary input
  int32_t aux_size = 0;
  float* gates[kGates] = {};
  float* hidden = nullptr;
  float* recovered_peephole = nullptr;  // hybrid: n_cell floats
  int8_t* quantized_input = nullptr;
  int8_t* quantized_output_state = nullptr;
  int8_t* quantized_hidden = nullptr;
  int8_t* quantized_aux_input = nullptr;
  float* output_state = nullptr;
  float* cell_state = nullptr;

  const float* Vector(size_t i) const { return context->input(i).Data<const float>(); }

  // Gate g's peephole weights as floats: hybrid ones are int8, recovered with their scale into
  // `recovered_peephole` (upstream's VectorScalarMultiply in CalculateLstmGateHybrid).
  const float* Peephole(int g) const {
    const RuntimeTensor& weights = context->input(kPeepholes[g]);
    if (weights.type == TensorType::kFloat32) return weights.Data<const float>();
    const float scale = weights.quantization->scale[0];  // checked at Prepare
    for (int32_t c = 0; c < s.n_cell; ++c)
      recovered_peephole[c] = scale * static_cast<float>(weights.Data<const int8_t>()[c]);
    return recovered_peephole;
  }

  // CalculateLstmGateFloat: bias (or 0 with layer norm), input, auxiliary input and recurrent
  // products, peephole.
  void Gate(int g, const float* input, const float* aux_input,
            float (*gate_activation)(float)) const {
    float* gate = gates[g];
    const int32_t cells = s.n_cell;
    for (int32_t b = 0; b < s.batch; ++b) {
      if (s.layer_norm) {
        std::fill_n(gate + b * cells, cells, 0.0f);
      } else {
        std::copy_n(Vector(kBiases[g]), cells, gate + b * cells);
      }
    }
    Accumulate(context->input(kInputWeights[g]), input, s.batch, s.n_input, asymmetric,
               quantized_input, gate);
    if (aux_input != nullptr)
      Accumulate(*aux_weights[g], aux_input, s.batch, aux_size, asymmetric, quantized_aux_input,
                 gate);
    Accumulate(context->input(kRecurrentWeights[g]), output_state, s.batch, s.n_output, asymmetric,
               quantized_output_state, gate);
    if (s.peephole && g != kCellGate) {
      const float* peephole = Peephole(g);
      for (int32_t b = 0; b < s.batch; ++b) {
        for (int32_t c = 0; c < cells; ++c)
          gate[b * cells + c] += peephole[c] * cell_state[b * cells + c];
      }
    }
    if (s.layer_norm) {
      NormalizeRows(gate, s.batch, cells);
      const float* coefficients = Vector(kLayerNorms[g]);
      const float* bias = Vector(kBiases[g]);
      for (int32_t b = 0; b < s.batch; ++b) {
        for (int32_t c = 0; c < cells; ++c)
          gate[b * cells + c] = gate[b * cells + c] * coefficients[c] + bias[c];
      }
    }
    for (int64_t i = 0; i < static_cast<int64_t>(s.batch) * cells; ++i)
      gate[i] = gate_activation(gate[i]);
  }

  // LstmStepFloat / LstmStepHybrid for the batch rows of one time step, contiguous in `input`.
  void Run(const float* input, const float* aux_input, float cell_clip, float proj_clip) const {
    const int64_t cells = static_cast<int64_t>(s.batch) * s.n_cell;
    if (!s.cifg) Gate(kInputGate, input, aux_input, Sigmoid);
    Gate(kForgetGate, input, aux_input, Sigmoid);
    Gate(kCellGate, input, aux_input, activation);
    // UpdateLstmCellFloat; the output gate's peephole reads the updated cell.
    for (int64_t i = 0; i < cells; ++i) {
      const float input_gate = s.cifg ? 1.0f - gates[kForgetGate][i] : gates[kInputGate][i];
      float c = gates[kForgetGate][i] * cell_state[i] + gates[kCellGate][i] * input_gate;
      if (cell_clip > 0) c = std::clamp(c, -cell_clip, cell_clip);
      cell_state[i] = c;
    }
    Gate(kOutputGate, input, aux_input, Sigmoid);
    // CalculateLstmOutputFloat.
    for (int64_t i = 0; i < cells; ++i)
      hidden[i] = gates[kOutputGate][i] * activation(cell_state[i]);
    if (!s.projection) {
      std::copy_n(hidden, cells, output_state);
      return;
    }
    for (int32_t b = 0; b < s.batch; ++b) {
      float* row = output_state + static_cast<int64_t>(b) * s.n_output;
      if (context->has_input(kProjectionBias)) {
        std::copy_n(Vector(kProjectionBias), s.n_output, row);
      } else {
        std::fill_n(row, s.n_output, 0.0f);
      }
    }
    Accumulate(context->input(kProjectionWeights), hidden, s.batch, s.n_cell, asymmetric,
               quantized_hidden, output_state);
    if (proj_clip > 0) {
      for (int64_t i = 0; i < static_cast<int64_t>(s.batch) * s.n_output; ++i)
        output_state[i] = std::clamp(output_state[i], -proj_clip, proj_clip);
    }
  }
};

}  // namespace

Status PrepareLstmPass(KernelContext& context, const LstmPass& pass) {
  auto s = Shape(context, pass);
  if (!s.ok()) return s.status();
  TFA_RETURN_IF_ERROR(CellActivation(context.options().fused_activation).status());
  auto aux_size = AuxInputSize(context, *s, pass);
  if (!aux_size.ok()) return aux_size.status();
  if (s->hybrid) {
    for (size_t i : kHybridWeights) {
      if (context.has_input(i))
        TFA_RETURN_IF_ERROR(LstmHybridWeights(context.input(i), "weights").status());
    }
    for (int g = s->cifg ? kForgetGate : kInputGate; s->peephole && g < kGates; ++g) {
      if (g != kCellGate)
        TFA_RETURN_IF_ERROR(
            PerTensorParams(context.input(kPeepholes[g]), "peephole weights").status());
    }
  }
  context.scratch_bytes = Buffers(context, *s, *aux_size).scratch_bytes();
  return Status::Ok();
}

Status EvalLstmPass(const KernelContext& context, const LstmPass& pass) {
  auto s = Shape(context, pass);
  if (!s.ok()) return s.status();
  auto activation = CellActivation(context.options().fused_activation);
  if (!activation.ok()) return activation.status();
  auto aux_size = AuxInputSize(context, *s, pass);
  if (!aux_size.ok()) return aux_size.status();
  const WorkingBuffers buffers = Buffers(context, *s, *aux_size);
  LstmStep step;
  step.context = &context;
  step.s = *s;
  step.activation = *activation;
  step.asymmetric = context.options().asymmetric_quantize_inputs;
  step.aux_weights = pass.aux_weights;
  step.aux_size = *aux_size;
  const int64_t cells = static_cast<int64_t>(s->batch) * s->n_cell;
  float* scratch = buffers.Get<float>(0);
  for (int g = s->cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    step.gates[g] = scratch;
    scratch += cells;
  }
  step.hidden = scratch;
  if (s->hybrid) {
    step.quantized_input = buffers.Get<int8_t>(1);
    step.quantized_output_state = buffers.Get<int8_t>(2);
    step.quantized_hidden = buffers.Get<int8_t>(3);
    step.recovered_peephole = buffers.Get<float>(kRecoveredPeephole);
    if (*aux_size > 0) step.quantized_aux_input = buffers.Get<int8_t>(kQuantizedAuxInput);
  }
  step.output_state = context.input(kOutputState).Data<float>();
  step.cell_state = context.input(kCellState).Data<float>();
  const float cell_clip = context.options().cell_clip;
  const float proj_clip = context.options().proj_clip;
  const bool time_major = context.options().time_major;
  const float* in = context.input(kInput).Data<const float>();
  const float* aux = pass.aux_input ? pass.aux_input->Data<const float>() : nullptr;
  float* out = context.output(0).Data<float>();
  const int64_t out_width = int64_t{s->n_output} + pass.other_direction_columns;
  std::vector<float> step_input(static_cast<size_t>(s->batch) * s->n_input);
  std::vector<float> step_aux(static_cast<size_t>(s->batch) * *aux_size);
  for (int32_t i = 0; i < s->time; ++i) {
    const int32_t t = pass.forward ? i : s->time - 1 - i;
    // The batch rows of this time step, contiguous.
    for (int32_t b = 0; b < s->batch; ++b) {
      const int64_t row = time_major ? static_cast<int64_t>(t) * s->batch + b
                                     : static_cast<int64_t>(b) * s->time + t;
      std::copy_n(in + row * s->n_input, s->n_input, step_input.data() + b * s->n_input);
      if (aux != nullptr)
        std::copy_n(aux + row * *aux_size, *aux_size, step_aux.data() + b * *aux_size);
    }
    step.Run(step_input.data(), aux != nullptr ? step_aux.data() : nullptr, cell_clip, proj_clip);
    for (int32_t b = 0; b < s->batch; ++b) {
      const int64_t row = time_major ? static_cast<int64_t>(t) * s->batch + b
                                     : static_cast<int64_t>(b) * s->time + t;
      std::copy_n(step.output_state + b * s->n_output, s->n_output,
                  out + row * out_width + pass.output_offset);
    }
  }
  return Status::Ok();
}

Status PrepareUnidirectionalSequenceLstm(KernelContext& context) {
  return PrepareLstmPass(context, LstmPass{});
}

Status EvalUnidirectionalSequenceLstm(KernelContext& context) {
  return EvalLstmPass(context, LstmPass{});
}

}  // namespace tfa::runtime
