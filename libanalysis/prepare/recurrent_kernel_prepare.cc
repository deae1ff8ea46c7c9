#include "libanalysis/prepare/recurrent_kernel_prepare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "libanalysis/prepare/added_tensors.h"

namespace tfa {
namespace {

using prepare_internal::Append;
using prepare_internal::ArenaTensor;
using prepare_internal::NodeError;
using prepare_internal::Operand;
using prepare_internal::SpareTensor;

// Inputs of the full LSTM layout (tflite/kernels/lstm_shared.h).
constexpr size_t kInputToInputWeights = 1;
constexpr size_t kInputToOutputWeights = 4;
constexpr size_t kRecurrentToOutputWeights = 8;
constexpr size_t kProjectionWeights = 16;
constexpr size_t kOutputState = 18;
constexpr size_t kCellState = 19;

constexpr int32_t kSequenceLstmTensors = 12;
constexpr int32_t kLstmTensors = 12;
constexpr int32_t kLstmLedgers = 9;
constexpr int32_t kRnnTensors = 6;
constexpr int32_t kSvdfTensors = 6;
constexpr int32_t kBidirectionalRnnTensors = 9;
constexpr int32_t kBidirectionalLstmTensors = 19;

bool IsHybrid(const Tensor& input, const Tensor& weights) {
  return input.type == TensorType::kFloat32 &&
         (weights.type == TensorType::kUInt8 || weights.type == TensorType::kInt8);
}

// Pads `effect` with spares up to the `count` tensors Init reserved.
void PadToInitCount(KernelPrepareEffect& effect, int32_t count) {
  effect.fills_init_tensors = true;
  while (effect.added.size() < static_cast<size_t>(count)) effect.added.push_back(SpareTensor());
}

struct LstmShape {
  int32_t n_batch = 0, n_cell = 0, n_output = 0;
  bool use_cifg = false, use_projection = false;
};

// The LSTM temporaries shared by lstm.cc's full kernel and unidirectional_sequence_lstm.cc, in
// their order. Float: one scratch buffer [batch, cells * (4 without an input gate, 5 with one) +
// `scratch_padding`]. Hybrid (float input, 8-bit weights): then the quantized input, output state
// and cell state (the weights' type), three scaling-factor vectors [batch], the recovered cell
// weights [cells], int32 accumulators [cells, batch], two zero-point vectors [batch] and the
// persistent row sums [6 or 8 (+ projection rows), cells]. Integer (int8 input): six [batch,
// cells] buffers (int16 x4, int8, int32), or with 12 intermediates (8x8->8) eight (int8 x2, int16
// x6).
Status AppendLstmTemporaries(KernelPrepareEffect& effect, const Subgraph& subgraph,
                             const Node& node, const LstmShape& shape, int32_t scratch_padding) {
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* input_to_output = Operand(subgraph, node.inputs, kInputToOutputWeights);
  const Tensor* output_state = Operand(subgraph, node.inputs, kOutputState);
  const Tensor* cell_state = Operand(subgraph, node.inputs, kCellState);
  const std::vector<int32_t> gate_shape = {shape.n_batch, shape.n_cell};
  if (input->type == TensorType::kInt8) {
    std::vector<TensorType> types = {TensorType::kInt16, TensorType::kInt16, TensorType::kInt16,
                                     TensorType::kInt16, TensorType::kInt8,  TensorType::kInt32};
    if (node.op == "LSTM" && node.intermediates.size() != 5) {
      types = {TensorType::kInt8,  TensorType::kInt8,  TensorType::kInt16, TensorType::kInt16,
               TensorType::kInt16, TensorType::kInt16, TensorType::kInt16, TensorType::kInt16};
    }
    for (TensorType type : types) {
      TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, type, gate_shape)));
    }
    return Status::Ok();
  }
  auto scratch_width =
      prepare_internal::CheckedInt32Product(node, {shape.n_cell, shape.use_cifg ? 4 : 5});
  if (!scratch_width.ok()) return scratch_width.status();
  TFA_RETURN_IF_ERROR(Append(
      effect, ArenaTensor(node, input->type, {shape.n_batch, *scratch_width + scratch_padding})));
  if (!IsHybrid(*input, *input_to_output)) return Status::Ok();
  const TensorType quantized = input_to_output->type;
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, input->shape)));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, output_state->shape)));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, cell_state->shape)));
  for (int i = 0; i < 3; ++i) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {shape.n_batch})));
  }
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {shape.n_cell})));
  TFA_RETURN_IF_ERROR(
      Append(effect, ArenaTensor(node, TensorType::kInt32, {shape.n_cell, shape.n_batch})));
  for (int i = 0; i < 2; ++i) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {shape.n_batch})));
  }
  int32_t row_sums_rows = shape.use_cifg ? 6 : 8;
  if (shape.use_projection && shape.n_cell > 0) {
    row_sums_rows += static_cast<int32_t>(
        std::ceil(static_cast<float>(shape.n_output) / static_cast<float>(shape.n_cell)));
  }
  return Append(effect, ArenaTensor(node, TensorType::kInt32, {row_sums_rows, shape.n_cell},
                                    AllocationType::kArenaRwPersistent, "Lstm_row_sums"));
}

// lstm.cc's sparse hybrid kernel: nine temporaries in the Init tensors after the twelve hybrid
// ones, all persistent uint8, one per weight matrix (input-to-{input, forget, cell, output},
// recurrent-to-{input, forget, cell, output}, projection); a sparse constant matrix's is its
// ledger, the others stay unsized. Upstream reads the projection weights without checking that
// they exist, so a sparse LSTM without projection is rejected here.
Status AppendLstmLedgers(KernelPrepareEffect& effect, const Subgraph& subgraph, const Node& node) {
  constexpr std::array<size_t, kLstmLedgers> kLedgerWeights = {
      1, 2, 3, 4, 5, 6, 7, 8, kProjectionWeights};
  for (size_t position : kLedgerWeights) {
    const Tensor* weights = Operand(subgraph, node.inputs, position);
    if (weights == nullptr && position == kProjectionWeights) {
      return NodeError(node,
                       "sparse hybrid weights need projection weights (upstream's Prepare "
                       "reads them unchecked)");
    }
    if (weights == nullptr || !prepare_internal::HasSparsity(*weights)) {
      TFA_RETURN_IF_ERROR(Append(
          effect,
          AddedTensor{
              "Lstm_ledger", TensorType::kUInt8, {}, AllocationType::kArenaRwPersistent, 0}));
      continue;
    }
    TFA_RETURN_IF_ERROR(
        prepare_internal::AppendSparseLedger(effect, node, *weights, "Lstm_ledger"));
  }
  return Status::Ok();
}

// The operands every full-layout LSTM needs; an error naming the node when one is missing.
Result<LstmShape> FullLstmShape(const Subgraph& subgraph, const Node& node, size_t batch_dim) {
  if (node.inputs.size() != 20 && node.inputs.size() != 24) {
    return NodeError(node, "expects 20 or 24 inputs, got " + std::to_string(node.inputs.size()));
  }
  if (node.outputs.size() != 1) return NodeError(node, "expects one output");
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* input_to_output = Operand(subgraph, node.inputs, kInputToOutputWeights);
  const Tensor* recurrent_to_output = Operand(subgraph, node.inputs, kRecurrentToOutputWeights);
  if (!input || !input_to_output || !recurrent_to_output ||
      !Operand(subgraph, node.inputs, kOutputState) ||
      !Operand(subgraph, node.inputs, kCellState)) {
    return NodeError(node,
                     "needs input, input-to-output and recurrent-to-output weights and both "
                     "state tensors");
  }
  if (input->shape.size() <= batch_dim || input->shape.size() < 2 ||
      input_to_output->shape.size() != 2 || recurrent_to_output->shape.empty()) {
    return NodeError(node, "input rank too small or input-to-output weights not 2-D");
  }
  LstmShape shape;
  shape.n_batch = input->shape[batch_dim];
  shape.n_cell = input_to_output->shape[0];
  shape.n_output = recurrent_to_output->shape.size() == 1 ? recurrent_to_output->shape[0]
                                                          : recurrent_to_output->shape[1];
  shape.use_cifg = Operand(subgraph, node.inputs, kInputToInputWeights) == nullptr;
  shape.use_projection = Operand(subgraph, node.inputs, kProjectionWeights) != nullptr;
  return shape;
}

}  // namespace

int32_t RecurrentKernelInitTensorCount(const Node& node) {
  const std::string_view op = node.op;
  if (op == "UNIDIRECTIONAL_SEQUENCE_LSTM") return kSequenceLstmTensors;
  if (op == "LSTM") return node.options->lstm_basic_kernel ? 0 : kLstmTensors + kLstmLedgers;
  if (op == "RNN" || op == "UNIDIRECTIONAL_SEQUENCE_RNN") return kRnnTensors;
  if (op == "SVDF") return kSvdfTensors;
  if (op == "BIDIRECTIONAL_SEQUENCE_RNN") return kBidirectionalRnnTensors;
  if (op == "BIDIRECTIONAL_SEQUENCE_LSTM") return kBidirectionalLstmTensors;
  return 0;
}

// Its 12 Init tensors are sized as AppendLstmTemporaries says, the scratch buffer padded by 16
// elements; the batch is input dimension 1 when time-major, else 0.
Result<KernelPrepareEffect> PrepareUnidirectionalSequenceLstm(const Subgraph& subgraph,
                                                              const Node& node) {
  auto shape = FullLstmShape(subgraph, node, node.options->time_major ? 1 : 0);
  if (!shape.ok()) return shape.status();
  if (Operand(subgraph, node.inputs, 0)->shape.size() != 3) {
    return NodeError(node, "input must be 3-D");
  }
  KernelPrepareEffect effect;
  TFA_RETURN_IF_ERROR(AppendLstmTemporaries(effect, subgraph, node, *shape, 16));
  PadToInitCount(effect, kSequenceLstmTensors);
  return effect;
}

// tflite/kernels/lstm.cc. The basic kernel (5 inputs, 4 outputs) adds nothing and moves its two
// state inputs to the persistent arena. The full kernel's Init reserves 12 tensors plus 9 ledgers
// for sparse hybrid weights; Prepare sizes them as AppendLstmTemporaries says (no scratch padding,
// batch = input dimension 0). Sparse hybrid weights (the input-to-output weights decide) also
// size the nine ledgers, see AppendLstmLedgers.
Result<KernelPrepareEffect> PrepareLstm(const Subgraph& subgraph, const Node& node) {
  KernelPrepareEffect effect;
  if (node.options->lstm_basic_kernel) {
    if (node.inputs.size() != 5 || node.outputs.size() != 4) {
      return NodeError(node, "the basic kernel expects 5 inputs and 4 outputs");
    }
    for (size_t state : {size_t{1}, size_t{4}}) {
      if (node.inputs[state] < 0) return NodeError(node, "missing state input");
      effect.reallocated.emplace_back(node.inputs[state], AllocationType::kArenaRwPersistent);
    }
    return effect;
  }
  auto shape = FullLstmShape(subgraph, node, 0);
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(AppendLstmTemporaries(effect, subgraph, node, *shape, 0));
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* input_to_output = Operand(subgraph, node.inputs, kInputToOutputWeights);
  if (IsHybrid(*input, *input_to_output) && prepare_internal::HasSparsity(*input_to_output)) {
    TFA_RETURN_IF_ERROR(AppendLstmLedgers(effect, subgraph, node));
  }
  PadToInitCount(effect, kLstmTensors + kLstmLedgers);
  return effect;
}

// tflite/kernels/basic_rnn.cc and unidirectional_sequence_rnn.cc: Init reserves six tensors; only
// the hybrid kernel (float input, 8-bit weights) sizes them: the quantized input and hidden state
// (the weights' type), scaling factors [batch], int32 accumulators [units, batch], int32 zero
// points [batch] and persistent row sums [2, units]. The float kernel leaves all six spare.
Result<KernelPrepareEffect> PrepareRnn(const Subgraph& subgraph, const Node& node) {
  if (node.inputs.size() != 5 || node.outputs.size() != 1) {
    return NodeError(node, "expects 5 inputs and 1 output");
  }
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* weights = Operand(subgraph, node.inputs, 1);
  const Tensor* hidden_state = Operand(subgraph, node.inputs, 4);
  if (!input || !weights || !hidden_state) {
    return NodeError(node, "needs input, weights and hidden state");
  }
  const bool sequence = node.op == "UNIDIRECTIONAL_SEQUENCE_RNN";
  const size_t batch_dim = sequence && node.options->time_major ? 1 : 0;
  if (input->shape.size() != (sequence ? 3u : 2u) || weights->shape.size() != 2) {
    return NodeError(node, "input or weights have the wrong rank");
  }
  KernelPrepareEffect effect;
  if (IsHybrid(*input, *weights)) {
    const int32_t batch = input->shape[batch_dim];
    const int32_t units = weights->shape[0];
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, weights->type, input->shape)));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, weights->type, hidden_state->shape)));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {batch})));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {units, batch})));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {batch})));
    TFA_RETURN_IF_ERROR(Append(
        effect, ArenaTensor(node, TensorType::kInt32, {2, units},
                            AllocationType::kArenaRwPersistent, sequence ? "" : "Rnn_row_sums")));
  }
  PadToInitCount(effect, kRnnTensors);
  return effect;
}

// tflite/kernels/svdf.cc: Init reserves six tensors. Every kernel has a scratch buffer [batch,
// filters] (int32 for int8 input, else float32); the hybrid kernel adds the quantized input, float
// scaling factors [batch], the dequantized time weights (persistent, their shape), float zero
// points [batch] and float row sums [filters] (persistent); the integer kernel adds an int32
// output buffer [units, batch], units = filters / rank.
Result<KernelPrepareEffect> PrepareSvdf(const Subgraph& subgraph, const Node& node) {
  if (node.inputs.size() != 5 || node.outputs.size() != 1) {
    return NodeError(node, "expects 5 inputs and 1 output");
  }
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* weights_feature = Operand(subgraph, node.inputs, 1);
  const Tensor* weights_time = Operand(subgraph, node.inputs, 2);
  if (!input || !weights_feature || !weights_time || input->shape.empty() ||
      weights_feature->shape.empty()) {
    return NodeError(node, "needs input, feature weights and time weights");
  }
  const int32_t rank = node.options->svdf_rank;
  const int32_t batch = input->shape[0];
  const int32_t filters = weights_feature->shape[0];
  if (rank <= 0 || filters % rank != 0) {
    return NodeError(node, "rank must be positive and divide the number of filters");
  }
  // Prepare's TF_LITE_ENSUREs on the state: [batch, memory size x filters], memory size being
  // the time weights' second dimension (a converter test model, svdf_quantized, fails them).
  const Tensor* state = Operand(subgraph, node.inputs, 4);
  if (state && weights_time->shape.size() == 2) {
    const int64_t memory = int64_t{weights_time->shape[1]} * filters;
    if (state->shape.size() != 2 || state->shape[0] != batch || state->shape[1] != memory) {
      return NodeError(node, "the state must be [" + std::to_string(batch) + ", " +
                                 std::to_string(memory) +
                                 "] (batch, memory size x filters), so AllocateTensors() fails");
    }
  }
  const bool integer = input->type == TensorType::kInt8;
  KernelPrepareEffect effect;
  TFA_RETURN_IF_ERROR(Append(
      effect,
      ArenaTensor(node, integer ? TensorType::kInt32 : TensorType::kFloat32, {batch, filters})));
  if (IsHybrid(*input, *weights_feature)) {
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, weights_feature->type, input->shape)));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {batch})));
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kFloat32, weights_time->shape,
                                   AllocationType::kArenaRwPersistent, "Svdf_row_sums")));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {batch})));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {filters},
                                                   AllocationType::kArenaRwPersistent)));
  } else if (integer) {
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kInt32, {filters / rank, batch})));
  }
  PadToInitCount(effect, kSvdfTensors);
  return effect;
}

// tflite/kernels/bidirectional_sequence_rnn.cc: Init reserves nine tensors; the hybrid kernel
// (float input, 8-bit weights) sizes the quantized input and both hidden states, scaling factors
// [batch], int32 accumulators [max(fw units, bw units), batch], int32 zero points [batch], the
// forward and backward persistent row sums [2 (3 with an auxiliary input), units] and, with an
// auxiliary input, its quantized copy. The float kernel leaves all nine spare.
Result<KernelPrepareEffect> PrepareBidirectionalSequenceRnn(const Subgraph& subgraph,
                                                            const Node& node) {
  if (node.inputs.size() != 12) return NodeError(node, "expects 12 inputs");
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* fw_weights = Operand(subgraph, node.inputs, 1);
  const Tensor* fw_hidden = Operand(subgraph, node.inputs, 4);
  const Tensor* bw_weights = Operand(subgraph, node.inputs, 5);
  const Tensor* bw_hidden = Operand(subgraph, node.inputs, 8);
  const Tensor* aux_input = Operand(subgraph, node.inputs, 9);
  const bool has_aux = Operand(subgraph, node.inputs, 10) != nullptr;
  if (!input || !fw_weights || !fw_hidden || !bw_weights || !bw_hidden ||
      input->shape.size() != 3 || fw_weights->shape.empty() || bw_weights->shape.empty() ||
      (has_aux && !aux_input)) {
    return NodeError(node, "needs a 3-D input, both directions' weights and hidden states");
  }
  KernelPrepareEffect effect;
  if (IsHybrid(*input, *fw_weights)) {
    const int32_t batch = input->shape[node.options->time_major ? 1 : 0];
    const int32_t fw_units = fw_weights->shape[0], bw_units = bw_weights->shape[0];
    const TensorType quantized = fw_weights->type;
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, input->shape)));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, fw_hidden->shape)));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, bw_hidden->shape)));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {batch})));
    TFA_RETURN_IF_ERROR(Append(
        effect, ArenaTensor(node, TensorType::kInt32, {std::max(fw_units, bw_units), batch})));
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {batch})));
    const int32_t row_sums = has_aux ? 3 : 2;
    // Upstream names them as if they were an LSTM's.
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kInt32, {row_sums, fw_units},
                                   AllocationType::kArenaRwPersistent, "Lstm_fw_row_sums")));
    TFA_RETURN_IF_ERROR(
        Append(effect, ArenaTensor(node, TensorType::kInt32, {row_sums, bw_units},
                                   AllocationType::kArenaRwPersistent, "Lstm_bw_row_sums")));
    if (has_aux) {
      TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, aux_input->shape)));
    }
  }
  PadToInitCount(effect, kBidirectionalRnnTensors);
  return effect;
}

// tflite/kernels/bidirectional_sequence_lstm.cc (48 inputs): Init reserves 19 tensors. Every
// kernel sizes a forward scratch buffer [batch, fw cells * (4 or 5) + 16] and a backward one
// [batch, bw cells * (4 or 5)] (upstream pads only the forward one). The hybrid kernel then sizes
// the quantized input and both directions' activation and cell states, four float vectors
// [batch] (input, auxiliary input, output state and product scaling factors), the recovered cell
// weights [fw cells], int32 accumulators [largest cell count, batch], three float zero-point
// vectors [batch], both directions' persistent row sums [rows, cells] (6 or 8, +3 or 4 with an
// auxiliary input, + projection rows) and, with an auxiliary input, its quantized copy.
Result<KernelPrepareEffect> PrepareBidirectionalSequenceLstm(const Subgraph& subgraph,
                                                             const Node& node) {
  enum : size_t {
    kFwInputToInput = 1,
    kFwInputToOutput = 4,
    kFwRecurrentToOutput = 8,
    kFwProjection = 16,
    kBwInputToInput = 18,
    kBwInputToOutput = 21,
    kBwRecurrentToOutput = 25,
    kBwProjection = 33,
    kFwActivationState = 35,
    kFwCellState = 36,
    kBwActivationState = 37,
    kBwCellState = 38,
    kAuxInput = 39,
    kFwAuxInputToForget = 41,
    kFwAuxInputToOutput = 43,
    kBwAuxInputToOutput = 47,
  };
  if (node.inputs.size() != 48) return NodeError(node, "expects 48 inputs");
  const Tensor* input = Operand(subgraph, node.inputs, 0);
  const Tensor* fw_input_to_output = Operand(subgraph, node.inputs, kFwInputToOutput);
  const Tensor* bw_input_to_output = Operand(subgraph, node.inputs, kBwInputToOutput);
  const Tensor* fw_recurrent_to_output = Operand(subgraph, node.inputs, kFwRecurrentToOutput);
  const Tensor* bw_recurrent_to_output = Operand(subgraph, node.inputs, kBwRecurrentToOutput);
  const Tensor* states[4] = {Operand(subgraph, node.inputs, kFwActivationState),
                             Operand(subgraph, node.inputs, kBwActivationState),
                             Operand(subgraph, node.inputs, kFwCellState),
                             Operand(subgraph, node.inputs, kBwCellState)};
  if (!input || input->shape.size() != 3 || !fw_input_to_output || !bw_input_to_output ||
      !fw_recurrent_to_output || !bw_recurrent_to_output || !states[0] || !states[1] ||
      !states[2] || !states[3] || fw_input_to_output->shape.size() != 2 ||
      bw_input_to_output->shape.size() != 2 || fw_recurrent_to_output->shape.size() != 2 ||
      bw_recurrent_to_output->shape.size() != 2) {
    return NodeError(node, "needs a 3-D input, 2-D weights and four state tensors");
  }
  const int32_t n_batch = input->shape[node.options->time_major ? 1 : 0];
  const int32_t n_fw_cell = fw_input_to_output->shape[0];
  const int32_t n_bw_cell = bw_input_to_output->shape[0];
  const bool fw_cifg = Operand(subgraph, node.inputs, kFwInputToInput) == nullptr;
  const bool bw_cifg = Operand(subgraph, node.inputs, kBwInputToInput) == nullptr;
  const bool has_aux = Operand(subgraph, node.inputs, kFwAuxInputToForget) != nullptr;
  const Tensor* aux_input = Operand(subgraph, node.inputs, kAuxInput);
  if (has_aux && !aux_input) return NodeError(node, "auxiliary weights without auxiliary input");

  KernelPrepareEffect effect;
  auto fw_width = prepare_internal::CheckedInt32Product(node, {n_fw_cell, fw_cifg ? 4 : 5});
  auto bw_width = prepare_internal::CheckedInt32Product(node, {n_bw_cell, bw_cifg ? 4 : 5});
  if (!fw_width.ok()) return fw_width.status();
  if (!bw_width.ok()) return bw_width.status();
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, input->type, {n_batch, *fw_width + 16})));
  TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, input->type, {n_batch, *bw_width})));
  if (IsHybrid(*input, *fw_input_to_output)) {
    const TensorType quantized = fw_input_to_output->type;
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, input->shape)));
    for (const Tensor* state : states) {
      TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, state->shape)));
    }
    for (int i = 0; i < 4; ++i) {
      TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {n_batch})));
    }
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {n_fw_cell})));
    int32_t n_cell = std::max(n_fw_cell, n_bw_cell);
    if (has_aux) {
      for (size_t aux_output : {size_t{kFwAuxInputToOutput}, size_t{kBwAuxInputToOutput}}) {
        const Tensor* weights = Operand(subgraph, node.inputs, aux_output);
        if (!weights || weights->shape.empty()) {
          return NodeError(node, "auxiliary input-to-output weights missing");
        }
        n_cell = std::max(n_cell, weights->shape[0]);
      }
    }
    TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {n_cell, n_batch})));
    for (int i = 0; i < 3; ++i) {
      TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kFloat32, {n_batch})));
    }
    struct Direction {
      bool cifg;
      int32_t cells;
      const Tensor* recurrent_to_output;
      size_t projection;
    };
    for (const Direction& d :
         {Direction{fw_cifg, n_fw_cell, fw_recurrent_to_output, kFwProjection},
          Direction{bw_cifg, n_bw_cell, bw_recurrent_to_output, kBwProjection}}) {
      int32_t rows = d.cifg ? 6 : 8;
      if (has_aux) rows += d.cifg ? 3 : 4;
      if (Operand(subgraph, node.inputs, d.projection) != nullptr && d.cells > 0) {
        rows += static_cast<int32_t>(std::ceil(static_cast<float>(d.recurrent_to_output->shape[1]) /
                                               static_cast<float>(d.cells)));
      }
      TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, TensorType::kInt32, {rows, d.cells},
                                                     AllocationType::kArenaRwPersistent)));
    }
    if (has_aux) {
      TFA_RETURN_IF_ERROR(Append(effect, ArenaTensor(node, quantized, aux_input->shape)));
    }
  }
  PadToInitCount(effect, kBidirectionalLstmTensors);
  return effect;
}

}  // namespace tfa
