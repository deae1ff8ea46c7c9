#include "runtime/kernels/cpu/bidirectional_sequence_lstm.h"

#include <algorithm>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/unidirectional_sequence_lstm.h"

namespace tfa::runtime {
namespace {

constexpr size_t kInputCount = 48;
constexpr size_t kInput = 0;
// Each direction's 17 tensors, in the LSTM's order (lstm_shared.h's inputs 1 to 17).
constexpr size_t kFwWeights = 1, kBwWeights = 18, kDirectionTensors = 17;
constexpr size_t kInputToOutput = 3, kRecurrentToOutput = 7;  // offsets among the 17
constexpr size_t kFwStates = 35, kBwStates = 37;              // activation, then cell state
constexpr size_t kAuxInput = 39;
constexpr size_t kFwAuxWeights = 40, kBwAuxWeights = 44;  // input, forget, cell, output gates

// Upstream's temporaries: 0 and 1 the directions' scratch buffers; hybrid: 2 the quantized input,
// 3 and 4 the directions' quantized activation states, 5 and 6 their quantized cell states, 11
// the recovered peephole weights, 18 the quantized auxiliary input.
RuntimeTensor* Temporary(const KernelContext& node, size_t i) {
  return i < node.temporaries.size() ? node.temporaries[i] : nullptr;
}

bool HasAuxWeights(const KernelContext& c, size_t first) {
  return c.has_input(first + 1) || c.has_input(first + 2) || c.has_input(first + 3);
}

// Upstream's Prepare checks that are not one direction's own (those are the pass's), and the
// cases where upstream's Eval would step outside its tensors.
Status CheckNode(const KernelContext& c) {
  const OpOptions& o = c.options();
  if (c.inputs.size() != kInputCount)
    return Status::Error("has " + std::to_string(c.inputs.size()) + " inputs, expected 48");
  const size_t outputs = o.merge_outputs ? 1 : 2;
  if (c.outputs.size() != outputs)
    return Status::Error("has " + std::to_string(c.outputs.size()) + " outputs, expected " +
                         std::to_string(outputs) + " with merge_outputs " +
                         (o.merge_outputs ? "true" : "false"));
  if (!c.has_input(kInput)) return Status::Error("input 0 is missing");
  const RuntimeTensor& in = c.input(kInput);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 3, "input"));
  if (o.cell_clip < 0 || o.proj_clip < 0)
    return Status::Error("cell_clip and proj_clip must not be negative");
  for (size_t weights : {kFwWeights, kBwWeights}) {
    for (size_t i : {kInputToOutput, kRecurrentToOutput}) {
      if (!c.has_input(weights + i))
        return Status::Error("input " + std::to_string(weights + i) + " (weights) is missing");
      TFA_RETURN_IF_ERROR(CheckRank(c.input(weights + i), 2, "output gate weights"));
    }
  }
  const RuntimeTensor& fw_weights = c.input(kFwWeights + kInputToOutput);
  const RuntimeTensor& bw_weights = c.input(kBwWeights + kInputToOutput);
  if (bw_weights.type != fw_weights.type)
    return Status::Error(std::string("backward weights are ") + TensorTypeName(bw_weights.type) +
                         ", forward weights " + TensorTypeName(fw_weights.type));
  // Upstream checks both directions' tensors against the forward sizes, then the backward ones.
  const int32_t cells = fw_weights.Dim(0);
  const int32_t units = c.input(kFwWeights + kRecurrentToOutput).Dim(1);
  if (bw_weights.Dim(0) != cells || c.input(kBwWeights + kRecurrentToOutput).Dim(1) != units)
    return Status::Error("forward and backward directions differ in cells or outputs");
  for (size_t i = kFwStates; i < kFwStates + 4; ++i) {
    if (!c.has_input(i) || c.input(i).is_constant)
      return Status::Error("state input " + std::to_string(i) + " is not a variable tensor");
  }
  const bool time_major = o.time_major;
  const int64_t time = in.Dim(time_major ? 0 : 1), batch = in.Dim(time_major ? 1 : 0);
  const int32_t n_input = in.Dim(2);
  // Upstream's batch-major pass offsets each batch row's state by the output's width
  // (lstm_eval.cc), which a merged output doubles: the state's last rows lie past its end.
  if (!time_major && o.merge_outputs && batch > 1)
    return Status::Error(
        "a batch-major merged output with batch > 1 (upstream's pass reads past its state)");
  const bool fw_aux = HasAuxWeights(c, kFwAuxWeights), bw_aux = HasAuxWeights(c, kBwAuxWeights);
  if (fw_aux != bw_aux) return Status::Error("auxiliary weights are given for one direction only");
  if (!c.has_input(kAuxInput)) {
    if (fw_aux) return Status::Error("auxiliary weights without an auxiliary input");
    return Status::Ok();
  }
  const RuntimeTensor& aux = c.input(kAuxInput);
  TFA_RETURN_IF_ERROR(CheckRank(aux, 3, "auxiliary input"));
  if (aux.Dim(0) != in.Dim(0) || aux.Dim(1) != in.Dim(1))
    return Status::Error("auxiliary input " + ShapeString(aux.shape) + " and input " +
                         ShapeString(in.shape) + " differ in time steps or batch");
  if (!fw_aux && aux.Dim(2) != n_input)
    return Status::Error("the auxiliary input, the backward direction's input, is " +
                         ShapeString(aux.shape) + ", the input " + ShapeString(in.shape));
  // Upstream steps through the auxiliary input by the input's row width (lstm_eval.cc).
  const bool one_row = time_major ? time == 1 : time * batch == 1;
  if (fw_aux && aux.Dim(2) != n_input && !one_row)
    return Status::Error("an auxiliary input " + std::to_string(aux.Dim(2)) +
                         " wide beside an input " + std::to_string(n_input) +
                         " wide (upstream reads it at the input's row offsets)");
  return Status::Ok();
}

struct Direction {
  KernelContext context;
  LstmPass pass;
};

// One direction as UNIDIRECTIONAL_SEQUENCE_LSTM's layout: its input, weights and states, its
// output, and the temporaries upstream gives its pass.
Direction MakeDirection(const KernelContext& node, bool forward) {
  const OpOptions& o = node.options();
  const bool cross_links = HasAuxWeights(node, kFwAuxWeights);
  Direction d;
  KernelContext& c = d.context;
  c = node;
  // Without auxiliary weights an auxiliary input is the backward direction's input (stacked
  // layers without cross links).
  const bool aux_is_input = !forward && !cross_links && node.has_input(kAuxInput);
  c.inputs = {node.inputs[aux_is_input ? kAuxInput : kInput]};
  const size_t weights = forward ? kFwWeights : kBwWeights;
  for (size_t i = 0; i < kDirectionTensors; ++i) c.inputs.push_back(node.inputs[weights + i]);
  const size_t states = forward ? kFwStates : kBwStates;
  c.inputs.push_back(node.inputs[states]);
  c.inputs.push_back(node.inputs[states + 1]);
  c.outputs = {node.outputs[forward || o.merge_outputs ? 0 : 1]};
  c.temporaries = {Temporary(node, forward ? 0 : 1),
                   Temporary(node, 2),
                   Temporary(node, forward ? 3 : 4),
                   Temporary(node, forward ? 5 : 6),
                   nullptr,
                   nullptr,
                   nullptr,
                   Temporary(node, 11),
                   Temporary(node, 18)};
  c.intermediates.clear();
  d.pass.forward = forward;
  if (cross_links) {
    d.pass.aux_input = node.inputs[kAuxInput];
    const size_t aux = forward ? kFwAuxWeights : kBwAuxWeights;
    for (size_t g = 0; g < 4; ++g) d.pass.aux_weights[g] = node.inputs[aux + g];
  }
  if (o.merge_outputs) {
    const int32_t fw_units = node.input(kFwWeights + kRecurrentToOutput).Dim(1);
    const int32_t bw_units = node.input(kBwWeights + kRecurrentToOutput).Dim(1);
    d.pass.other_direction_columns = forward ? bw_units : fw_units;
    d.pass.output_offset = forward ? 0 : fw_units;
  }
  return d;
}

const char* DirectionName(bool forward) { return forward ? "forward" : "backward"; }

}  // namespace

Status PrepareBidirectionalSequenceLstm(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckNode(context));
  uint64_t scratch = 0;
  for (bool forward : {true, false}) {
    Direction d = MakeDirection(context, forward);
    TFA_RETURN_IF_ERROR(PrepareLstmPass(d.context, d.pass).WithContext(DirectionName(forward)));
    scratch = std::max(scratch, d.context.scratch_bytes);
  }
  context.scratch_bytes = scratch;
  return Status::Ok();
}

Status EvalBidirectionalSequenceLstm(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckNode(context));
  for (bool forward : {true, false}) {
    const Direction d = MakeDirection(context, forward);
    TFA_RETURN_IF_ERROR(EvalLstmPass(d.context, d.pass).WithContext(DirectionName(forward)));
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
