#include "runtime/kernels/cpu/integer_lstm.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "runtime/kernels/cpu/fixed_point_activations.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/working_buffers.h"

namespace tfa::runtime {
namespace {

// Input positions of upstream's 20- or 24-input layout (tflite/kernels/lstm_shared.h).
constexpr size_t kInput = 0;
constexpr size_t kInputWeights[4] = {1, 2, 3, 4};      // input, forget, cell, output gates
constexpr size_t kRecurrentWeights[4] = {5, 6, 7, 8};  // the same gates
constexpr size_t kPeepholes[4] = {9, 10, 0, 11};       // the cell gate has none (0: unused)
constexpr size_t kBiases[4] = {12, 13, 14, 15};
constexpr size_t kProjectionWeights = 16, kProjectionBias = 17;
constexpr size_t kOutputState = 18, kCellState = 19;
constexpr size_t kForgetLayerNorm = 21;
constexpr size_t kHiddenIntermediate = 4;
constexpr int kGates = 4, kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3;

struct IntegerLstmShape {
  int32_t time = 0, batch = 0, n_input = 0, n_cell = 0, n_output = 0;
  bool cifg = false, peephole = false, projection = false;
};

Status CheckVector(const KernelContext& context, size_t i, TensorType type, int32_t size,
                   const char* role) {
  TFA_RETURN_IF_ERROR(CheckType(context.input(i), type, role));
  if (context.input(i).NumElements() != size)
    return Status::Error(std::string(role) + " has " +
                         std::to_string(context.input(i).NumElements()) + " elements, expected " +
                         std::to_string(size));
  return Status::Ok();
}

Result<IntegerLstmShape> Shape(const KernelContext& context) {
  const bool full_kernel = context.node->op == "LSTM";
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 24, 1));
  if (context.inputs.size() != 20 && context.inputs.size() != 24)
    return Status::Error("has " + std::to_string(context.inputs.size()) +
                         " inputs, expected 20 or 24");
  if (context.inputs.size() == 24 && context.has_input(kForgetLayerNorm))
    return Status::Error(
        "the runtime has no layer-normalised kernel for this op's int8 input (it has float32)");
  if (context.intermediates.size() != 5 || context.intermediates[kHiddenIntermediate] == nullptr)
    return Status::Error("the runtime has no integer kernel for " +
                         std::to_string(context.intermediates.size()) +
                         " intermediates (it has the 8x8->16 one, with 5)");
  for (size_t i : {kInput, kOutputState, kCellState}) {
    if (!context.has_input(i)) return Status::Error("input " + std::to_string(i) + " is missing");
  }
  for (int g = kForgetGate; g < kGates; ++g) {
    if (!context.has_input(kInputWeights[g]) || !context.has_input(kRecurrentWeights[g]) ||
        !context.has_input(kBiases[g]))
      return Status::Error("forget, cell and output gates need weights and biases");
  }
  const RuntimeTensor& in = context.input(kInput);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kInt8, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(in, full_kernel ? 2 : 3, "input"));
  IntegerLstmShape s;
  const bool time_major = context.options().time_major;
  s.time = full_kernel ? 1 : in.Dim(time_major ? 0 : 1);
  s.batch = full_kernel ? in.Dim(0) : in.Dim(time_major ? 1 : 0);
  s.n_input = in.Dim(in.Rank() - 1);
  const RuntimeTensor& forget_weights = context.input(kInputWeights[kForgetGate]);
  const RuntimeTensor& forget_recurrent = context.input(kRecurrentWeights[kForgetGate]);
  TFA_RETURN_IF_ERROR(CheckRank(forget_weights, 2, "input_to_forget_weights"));
  TFA_RETURN_IF_ERROR(CheckRank(forget_recurrent, 2, "recurrent_to_forget_weights"));
  s.n_cell = forget_weights.Dim(0);
  s.n_output = forget_recurrent.Dim(1);
  s.cifg = !context.has_input(kInputWeights[kInputGate]);
  s.peephole = context.has_input(kPeepholes[kOutputGate]);
  s.projection = context.has_input(kProjectionWeights);
  if (!s.projection && s.n_output != s.n_cell)
    return Status::Error("output and cell sizes differ without projection weights");
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    if (!context.has_input(kInputWeights[g]) || !context.has_input(kRecurrentWeights[g]) ||
        !context.has_input(kBiases[g]))
      return Status::Error("gate " + std::to_string(g) + " lacks weights or a bias");
    const RuntimeTensor& w = context.input(kInputWeights[g]);
    const RuntimeTensor& r = context.input(kRecurrentWeights[g]);
    TFA_RETURN_IF_ERROR(CheckType(w, TensorType::kInt8, "input weights"));
    TFA_RETURN_IF_ERROR(CheckType(r, TensorType::kInt8, "recurrent weights"));
    if (w.shape != std::vector<int32_t>{s.n_cell, s.n_input} ||
        r.shape != std::vector<int32_t>{s.n_cell, s.n_output})
      return Status::Error("gate weights have inconsistent shapes");
    TFA_RETURN_IF_ERROR(CheckVector(context, kBiases[g], TensorType::kInt32, s.n_cell, "bias"));
    if (s.peephole && g != kCellGate) {
      if (!context.has_input(kPeepholes[g]))
        return Status::Error("peephole weights are present for some gates only");
      TFA_RETURN_IF_ERROR(
          CheckVector(context, kPeepholes[g], TensorType::kInt16, s.n_cell, "peephole weights"));
    }
  }
  if (s.projection) {
    const RuntimeTensor& p = context.input(kProjectionWeights);
    TFA_RETURN_IF_ERROR(CheckType(p, TensorType::kInt8, "projection weights"));
    if (p.shape != std::vector<int32_t>{s.n_output, s.n_cell})
      return Status::Error("projection weights " + ShapeString(p.shape) + " do not map " +
                           std::to_string(s.n_cell) + " cells to " + std::to_string(s.n_output) +
                           " outputs");
    if (context.has_input(kProjectionBias))
      TFA_RETURN_IF_ERROR(
          CheckVector(context, kProjectionBias, TensorType::kInt32, s.n_output, "projection bias"));
  } else if (context.has_input(kProjectionBias)) {
    return Status::Error("a projection bias needs projection weights");
  }
  const RuntimeTensor& output_state = context.input(kOutputState);
  const RuntimeTensor& cell_state = context.input(kCellState);
  TFA_RETURN_IF_ERROR(CheckType(output_state, TensorType::kInt8, "output state"));
  TFA_RETURN_IF_ERROR(CheckType(cell_state, TensorType::kInt16, "cell state"));
  if (output_state.NumElements() != static_cast<int64_t>(s.batch) * s.n_output ||
      cell_state.NumElements() != static_cast<int64_t>(s.batch) * s.n_cell)
    return Status::Error("state sizes do not fit batch and cells");
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kInt8, "output"));
  std::vector<int32_t> out = in.shape;
  out.back() = s.n_output;
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), out));
  return s;
}

float ScaleOf(const RuntimeTensor& t) { return t.quantization->scale[0]; }
int32_t ZeroPointOf(const RuntimeTensor& t) {
  return t.quantization->zero_point.empty() ? 0
                                            : static_cast<int32_t>(t.quantization->zero_point[0]);
}

// Everything upstream's Prepare precomputes (unidirectional_sequence_lstm.cc
// PopulateQuantizedLstmParams8x8_16 and PopulatePrecomputedZPTimesWeightsWithBias).
struct IntegerLstmParams {
  std::array<QuantizedMultiplier, kGates> input_scale, recurrent_scale, peephole_scale;
  QuantizedMultiplier hidden_scale, projection_scale;
  // The gate biases with -zero_point * row sums of the weights folded in.
  std::array<std::vector<int32_t>, kGates> input_bias, recurrent_bias;
  std::vector<int32_t> projection_bias;
  int cell_scale = 0;  // log2 of the cell state's scale
  int16_t cell_clip = 0;
  int8_t projection_clip = 0;
  int32_t hidden_zero_point = 0, output_state_zero_point = 0;
};

// bias (or 0) + scalar * the row sums of `weights` (MatrixScalarMultiplyAccumulate).
std::vector<int32_t> EffectiveBias(const RuntimeTensor& weights, const RuntimeTensor* bias,
                                   int32_t scalar) {
  const int32_t rows = weights.Dim(0), cols = weights.Dim(1);
  std::vector<int32_t> out(static_cast<size_t>(rows), 0);
  if (bias) std::copy_n(bias->Data<const int32_t>(), rows, out.begin());
  const int8_t* w = weights.Data<const int8_t>();
  for (int32_t r = 0; r < rows; ++r) {
    int32_t row_sum = 0;
    for (int32_t c = 0; c < cols; ++c) row_sum += w[r * cols + c];
    out[static_cast<size_t>(r)] += row_sum * scalar;
  }
  return out;
}

Result<IntegerLstmParams> Params(const KernelContext& context, const IntegerLstmShape& s) {
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    if (context.has_input(i) && i != kBiases[0] && i != kBiases[1] && i != kBiases[2] &&
        i != kBiases[3] && i != kProjectionBias)
      TFA_RETURN_IF_ERROR(PerTensorParams(context.input(i), "LSTM operand").status());
  }
  TFA_RETURN_IF_ERROR(PerTensorParams(context.output(0), "output").status());
  const RuntimeTensor& hidden = *context.intermediates[kHiddenIntermediate];
  TFA_RETURN_IF_ERROR(PerTensorParams(hidden, "hidden intermediate").status());
  IntegerLstmParams p;
  // CheckedLog2: the cell state's scale must be a power of two.
  const float cell_log2 = std::log(ScaleOf(context.input(kCellState))) * (1.0f / std::log(2.0f));
  const float cell_log2_rounded = std::round(cell_log2);
  if (std::abs(cell_log2 - cell_log2_rounded) >= 1e-3f)
    return Status::Error("the cell state's scale is not a power of two");
  p.cell_scale = static_cast<int>(cell_log2_rounded);
  // ApplyTanh takes 0 to 6 integer bits (portable_tensor_utils.cc).
  if (15 + p.cell_scale < 0 || 15 + p.cell_scale > 6)
    return Status::Error("the cell state's scale 2^" + std::to_string(p.cell_scale) +
                         " leaves tanh outside 0 to 6 integer bits");
  const float cell_clip = context.node_data ? context.node_data->cell_clip : 0.0f;
  const float proj_clip = context.node_data ? context.node_data->proj_clip : 0.0f;
  if (cell_clip > 0) {
    p.cell_clip = static_cast<int16_t>(
        std::min(std::max(cell_clip / ScaleOf(context.input(kCellState)), -32768.0f), 32767.0f));
  }
  if (proj_clip > 0) {
    p.projection_clip = static_cast<int8_t>(
        std::min(std::max(proj_clip / ScaleOf(context.output(0)), -128.0f), 127.0f));
  }
  // Scales in float, as upstream computes them; the gates' intermediates are Q3.12.
  const float gate_scale = static_cast<float>(std::pow(2, -12));
  const float hidden_scale = ScaleOf(hidden);
  const float input_scale = ScaleOf(context.input(kInput));
  const float output_state_scale = ScaleOf(context.input(kOutputState));
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    const float input_to_gate = ScaleOf(context.input(kInputWeights[g])) * input_scale / gate_scale;
    const float recurrent_to_gate =
        ScaleOf(context.input(kRecurrentWeights[g])) * output_state_scale / gate_scale;
    p.input_scale[g] = QuantizeMultiplier(input_to_gate);
    p.recurrent_scale[g] = QuantizeMultiplier(recurrent_to_gate);
    if (s.peephole && g != kCellGate) {
      const float cell_to_gate = static_cast<float>(
          std::pow(2, p.cell_scale) * ScaleOf(context.input(kPeepholes[g])) / gate_scale);
      p.peephole_scale[g] = QuantizeMultiplier(cell_to_gate);
    }
  }
  p.hidden_scale =
      QuantizeMultiplier(static_cast<float>(std::pow(2, -15) / hidden_scale * std::pow(2, -15)));
  p.hidden_zero_point = ZeroPointOf(hidden);
  p.output_state_zero_point = ZeroPointOf(context.input(kOutputState));
  const int32_t input_zero_point = ZeroPointOf(context.input(kInput));
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    p.input_bias[g] = EffectiveBias(context.input(kInputWeights[g]), &context.input(kBiases[g]),
                                    -input_zero_point);
    p.recurrent_bias[g] =
        EffectiveBias(context.input(kRecurrentWeights[g]), nullptr, -p.output_state_zero_point);
  }
  if (s.projection) {
    p.projection_scale = QuantizeMultiplier(ScaleOf(context.input(kProjectionWeights)) *
                                            hidden_scale / output_state_scale);
    // Upstream folds +hidden_zp here and subtracts it when it quantizes the hidden vector.
    p.projection_bias = EffectiveBias(
        context.input(kProjectionWeights),
        context.has_input(kProjectionBias) ? &context.input(kProjectionBias) : nullptr,
        p.hidden_zero_point);
  }
  return p;
}

// Upstream's six temporaries [batch, cells]: four int16 gates, the int8 hidden vector of the
// projection and an int32 scratch its portable kernels never touch.
WorkingBuffers Buffers(const KernelContext& context, const IntegerLstmShape& s) {
  const uint64_t cells = static_cast<uint64_t>(s.batch) * s.n_cell;
  return WorkingBuffers(context, {cells * 2, cells * 2, cells * 2, cells * 2, cells, cells * 4});
}

// output[b][r] = saturate(output[b][r] + zp + rescale(bias[r] + weights[r] . input_b))
// (MatrixBatchVectorMultiplyAccumulate of the integer LSTM, int16 or int8 output).
template <typename T>
void MatrixAccumulate(const int8_t* input, const std::vector<int32_t>& bias,
                      const RuntimeTensor& weights, QuantizedMultiplier scale, int32_t batch,
                      int32_t zero_point, T* output) {
  const int32_t rows = weights.Dim(0), cols = weights.Dim(1);
  const int8_t* w = weights.Data<const int8_t>();
  for (int32_t b = 0; b < batch; ++b) {
    for (int32_t r = 0; r < rows; ++r) {
      int32_t acc = bias[static_cast<size_t>(r)];
      for (int32_t c = 0; c < cols; ++c) acc += input[b * cols + c] * w[r * cols + c];
      acc = MultiplyByQuantizedMultiplier(acc, scale) + zero_point + output[b * rows + r];
      output[b * rows + r] = static_cast<T>(
          std::clamp<int32_t>(acc, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    }
  }
}

struct IntegerLstmStep {
  const KernelContext* context = nullptr;
  IntegerLstmShape s;
  IntegerLstmParams p;
  std::array<int16_t*, kGates> gates = {};
  int8_t* hidden = nullptr;
  int8_t* output_state = nullptr;
  int16_t* cell_state = nullptr;

  int64_t Cells() const { return static_cast<int64_t>(s.batch) * s.n_cell; }

  // CalculateLstmGateInteger8x8_16 without layer normalisation.
  void Gate(int g, const int8_t* input) const {
    int16_t* gate = gates[g];
    std::fill_n(gate, Cells(), int16_t{0});
    MatrixAccumulate(input, p.input_bias[g], context->input(kInputWeights[g]), p.input_scale[g],
                     s.batch, 0, gate);
    MatrixAccumulate(output_state, p.recurrent_bias[g], context->input(kRecurrentWeights[g]),
                     p.recurrent_scale[g], s.batch, 0, gate);
    if (s.peephole && g != kCellGate) {
      // Upstream passes n_output as the peephole vector's size
      // (VectorBatchVectorCwiseProductAccumulate in lstm_eval.cc); it equals n_cell without
      // projection.
      const int16_t* weights = context->input(kPeepholes[g]).Data<const int16_t>();
      for (int64_t i = 0; i < static_cast<int64_t>(s.batch) * s.n_output; ++i) {
        const int32_t product = MultiplyByQuantizedMultiplier(
            int32_t{weights[i % s.n_output]} * cell_state[i], p.peephole_scale[g]);
        gate[i] = static_cast<int16_t>(std::clamp(product + gate[i], -32768, 32767));
      }
    }
    for (int64_t i = 0; i < Cells(); ++i) {
      gate[i] = g == kCellGate ? FixedPointTanh(gate[i], 3) : FixedPointLogistic(gate[i], 3);
    }
  }

  // UpdateLstmCellInteger: products rounded by shifts, the sum saturated, then the clip.
  void UpdateCell() const {
    const int16_t* forget = gates[kForgetGate];
    const int16_t* cell_gate = gates[kCellGate];
    for (int64_t i = 0; i < Cells(); ++i) {
      const int16_t kept = static_cast<int16_t>(RoundingDivideByPOT(forget[i] * cell_state[i], 15));
      const int16_t input_gate =
          s.cifg ? static_cast<int16_t>(32767 - forget[i]) : gates[kInputGate][i];
      const int16_t added =
          static_cast<int16_t>(RoundingDivideByPOT(input_gate * cell_gate[i], 30 + p.cell_scale));
      int32_t c = std::clamp(kept + added, -32768, 32767);
      if (p.cell_clip > 0) c = std::clamp<int32_t>(c, -p.cell_clip, p.cell_clip);
      cell_state[i] = static_cast<int16_t>(c);
    }
  }

  // CalculateLstmOutputInteger8x8_16; tanh(cell) goes to the input gate's buffer as upstream.
  void Output() const {
    int16_t* tanh_cell = gates[kInputGate];
    for (int64_t i = 0; i < Cells(); ++i)
      tanh_cell[i] = FixedPointTanh(cell_state[i], 15 + p.cell_scale);
    const int16_t* output_gate = gates[kOutputGate];
    // b/246629213 upstream: with projection the hidden vector takes -hidden_zp.
    const int32_t zero_point = s.projection ? -p.hidden_zero_point : p.hidden_zero_point;
    int8_t* target = s.projection ? hidden : output_state;
    for (int64_t i = 0; i < Cells(); ++i) {
      const int32_t v =
          MultiplyByQuantizedMultiplier(output_gate[i] * tanh_cell[i], p.hidden_scale) + zero_point;
      target[i] = static_cast<int8_t>(std::clamp(v, -128, 127));
    }
    if (!s.projection) return;
    std::fill_n(output_state, static_cast<int64_t>(s.batch) * s.n_output, int8_t{0});
    MatrixAccumulate(hidden, p.projection_bias, context->input(kProjectionWeights),
                     p.projection_scale, s.batch, p.output_state_zero_point, output_state);
    if (p.projection_clip > 0) {
      for (int64_t i = 0; i < static_cast<int64_t>(s.batch) * s.n_output; ++i)
        output_state[i] = std::clamp<int8_t>(
            output_state[i], static_cast<int8_t>(-p.projection_clip), p.projection_clip);
    }
  }

  // LstmStepInteger8x8_16 for the batch rows of one time step, contiguous in `input`.
  void Run(const int8_t* input) const {
    if (!s.cifg) Gate(kInputGate, input);
    Gate(kForgetGate, input);
    Gate(kCellGate, input);
    UpdateCell();
    Gate(kOutputGate, input);
    Output();
  }
};

}  // namespace

Status PrepareIntegerLstm(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  if (context.options().fused_activation != Activation::kTanh)
    return Status::Error("the integer LSTM kernel applies tanh; the model asks for " +
                         std::string(ActivationName(context.options().fused_activation)));
  TFA_RETURN_IF_ERROR(Params(context, *s).status());
  context.scratch_bytes = Buffers(context, *s).scratch_bytes();
  return Status::Ok();
}

Status EvalIntegerLstm(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  auto params = Params(context, *s);
  if (!params.ok()) return params.status();
  const WorkingBuffers buffers = Buffers(context, *s);
  IntegerLstmStep step;
  step.context = &context;
  step.s = *s;
  step.p = std::move(*params);
  for (size_t g = 0; g < kGates; ++g) step.gates[g] = buffers.Get<int16_t>(g);
  step.hidden = buffers.Get<int8_t>(4);
  step.output_state = context.input(kOutputState).Data<int8_t>();
  step.cell_state = context.input(kCellState).Data<int16_t>();
  const bool time_major = context.options().time_major;
  const int8_t* in = context.input(kInput).Data<const int8_t>();
  int8_t* out = context.output(0).Data<int8_t>();
  std::vector<int8_t> step_input(static_cast<size_t>(s->batch) * s->n_input);
  for (int32_t t = 0; t < s->time; ++t) {
    // Upstream runs batch-major sequences one batch row at a time; the rows are independent.
    for (int32_t b = 0; b < s->batch; ++b) {
      const int64_t row = time_major ? static_cast<int64_t>(t) * s->batch + b
                                     : static_cast<int64_t>(b) * s->time + t;
      std::copy_n(in + row * s->n_input, s->n_input, step_input.data() + b * s->n_input);
    }
    step.Run(step_input.data());
    for (int32_t b = 0; b < s->batch; ++b) {
      const int64_t row = time_major ? static_cast<int64_t>(t) * s->batch + b
                                     : static_cast<int64_t>(b) * s->time + t;
      std::copy_n(step.output_state + b * s->n_output, s->n_output, out + row * s->n_output);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
