#include "runtime/kernels/cpu/integer_lstm.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "runtime/kernels/cpu/fixed_point_activations.h"
#include "runtime/kernels/cpu/integer_layer_norm.h"
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

// Upstream's 8x8->16 kernel keeps the hidden state's scale in the node's intermediate 4.
constexpr size_t kHiddenIntermediate = 4;

Result<Layout> Shape(const KernelContext& context) {
  if (context.intermediates.size() != 5 || context.intermediates[kHiddenIntermediate] == nullptr)
    return Status::Error("the runtime has no integer kernel for " +
                         std::to_string(context.intermediates.size()) +
                         " intermediates (it has the 8x8->16 one, with 5)");
  return ReadLayout(context, {.input = TensorType::kInt8,
                              .weights = TensorType::kInt8,
                              .bias = TensorType::kInt32,
                              .peephole = TensorType::kInt16,
                              .projection_bias = TensorType::kInt32,
                              .output_state = TensorType::kInt8,
                              .cell_state = TensorType::kInt16,
                              .output = TensorType::kInt8,
                              .layer_norm = TensorType::kInt16});
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
  // Layer normalisation: the coefficients' scales and the variance guards.
  std::array<QuantizedMultiplier, kGates> layer_norm_scale;
  std::array<int32_t, kGates> variance_guard = {};
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

Result<IntegerLstmParams> Params(const KernelContext& context, const Layout& s) {
  for (size_t i = 0; i < context.inputs.size(); ++i) {
    if (context.has_input(i) && i != kBiases[0] && i != kBiases[1] && i != kBiases[2] &&
        i != kBiases[3] && i != kProjectionBias)
      TFA_RETURN_IF_ERROR(PerTensorParams(context.input(i), "LSTM operand").status());
  }
  TFA_RETURN_IF_ERROR(PerTensorParams(context.output(0), "output").status());
  const RuntimeTensor& hidden = *context.intermediates[kHiddenIntermediate];
  TFA_RETURN_IF_ERROR(PerTensorParams(hidden, "hidden intermediate").status());
  IntegerLstmParams p;
  const std::optional<int> cell_log2 = CheckedLog2(ScaleOf(context.input(kCellState)));
  if (!cell_log2) return Status::Error("the cell state's scale is not a power of two");
  p.cell_scale = *cell_log2;
  // ApplyTanh takes 0 to 6 integer bits (portable_tensor_utils.cc).
  if (15 + p.cell_scale < 0 || 15 + p.cell_scale > 6)
    return Status::Error("the cell state's scale 2^" + std::to_string(p.cell_scale) +
                         " leaves tanh outside 0 to 6 integer bits");
  const float cell_clip = context.options().cell_clip;
  const float proj_clip = context.options().proj_clip;
  if (cell_clip > 0) {
    p.cell_clip = static_cast<int16_t>(
        std::min(std::max(cell_clip / ScaleOf(context.input(kCellState)), -32768.0f), 32767.0f));
  }
  if (proj_clip > 0) {
    p.projection_clip = static_cast<int8_t>(
        std::min(std::max(proj_clip / ScaleOf(context.output(0)), -128.0f), 127.0f));
  }
  // Scales in float, as upstream computes them. The gates' products land in Q3.12, or with layer
  // normalisation at the scales of intermediates 0 to 3, and normalisation brings them to Q3.12.
  std::array<float, kGates> gate_scale;
  gate_scale.fill(static_cast<float>(std::pow(2, -12)));
  const float hidden_scale = ScaleOf(hidden);
  const float input_scale = ScaleOf(context.input(kInput));
  const float output_state_scale = ScaleOf(context.input(kOutputState));
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    if (!s.layer_norm) continue;
    const RuntimeTensor* intermediate = context.intermediates[static_cast<size_t>(g)];
    if (intermediate == nullptr)
      return Status::Error("a layer-normalised integer LSTM needs intermediate " +
                           std::to_string(g) + " (the gate's scale)");
    TFA_RETURN_IF_ERROR(PerTensorParams(*intermediate, "gate intermediate").status());
    gate_scale[g] = ScaleOf(*intermediate);
    const float coefficient_scale = ScaleOf(context.input(kLayerNorms[g]));
    p.layer_norm_scale[g] = QuantizeMultiplier(coefficient_scale);
    // "10000 is used to make sure the kernel logic does not overflow" (upstream's Prepare).
    p.variance_guard[g] = std::max(1, static_cast<int32_t>(10000 * coefficient_scale));
  }
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    const float input_to_gate =
        ScaleOf(context.input(kInputWeights[g])) * input_scale / gate_scale[g];
    const float recurrent_to_gate =
        ScaleOf(context.input(kRecurrentWeights[g])) * output_state_scale / gate_scale[g];
    p.input_scale[g] = QuantizeMultiplier(input_to_gate);
    p.recurrent_scale[g] = QuantizeMultiplier(recurrent_to_gate);
    if (s.peephole && g != kCellGate) {
      const float cell_to_gate = static_cast<float>(
          std::pow(2, p.cell_scale) * ScaleOf(context.input(kPeepholes[g])) / gate_scale[g]);
      p.peephole_scale[g] = QuantizeMultiplier(cell_to_gate);
    }
  }
  p.hidden_scale =
      QuantizeMultiplier(static_cast<float>(std::pow(2, -15) / hidden_scale * std::pow(2, -15)));
  p.hidden_zero_point = ZeroPointOf(hidden);
  p.output_state_zero_point = ZeroPointOf(context.input(kOutputState));
  const int32_t input_zero_point = ZeroPointOf(context.input(kInput));
  for (int g = s.cifg ? kForgetGate : kInputGate; g < kGates; ++g) {
    // With layer normalisation the gate bias is added after it, not folded in here.
    p.input_bias[g] =
        EffectiveBias(context.input(kInputWeights[g]),
                      s.layer_norm ? nullptr : &context.input(kBiases[g]), -input_zero_point);
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
WorkingBuffers Buffers(const KernelContext& context, const Layout& s) {
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
  Layout s;
  IntegerLstmParams p;
  std::array<int16_t*, kGates> gates = {};
  int8_t* hidden = nullptr;
  int8_t* output_state = nullptr;
  int16_t* cell_state = nullptr;

  int64_t Cells() const { return static_cast<int64_t>(s.batch) * s.n_cell; }

  // CalculateLstmGateInteger8x8_16.
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
    if (s.layer_norm) {
      IntegerLayerNorm(gate, context->input(kLayerNorms[g]).Data<const int16_t>(),
                       context->input(kBiases[g]).Data<const int32_t>(), p.layer_norm_scale[g],
                       p.variance_guard[g], s.batch, s.n_cell);
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
