// Shape rules of the recurrent ops: LSTMs, RNNs, SVDF.

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa::shape_rules {

namespace {

// The sequence ops' outputs: the input's shape with its last dimension replaced by the units.
Result<Shape> WithLastDimension(const RuleInput& in, size_t rank, int32_t units) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, rank, "input"));
  Shape out = *input;
  out.back() = units;
  return out;
}

Result<int32_t> Dimension(const RuleInput& in, size_t position, size_t rank, size_t dim) {
  auto shape = InputShape(in, position);
  if (!shape.ok()) return shape.status();
  if (shape->size() != rank) {
    return Fail(in, "input " + std::to_string(position) + " " + ShapeText(*shape) +
                        " is not of rank " + std::to_string(rank));
  }
  return (*shape)[dim];
}

// LSTM's basic kernel (lstm.cc basic::Prepare): the activation and state outputs take the
// previous activation's and state's shapes, the two intermediates it keeps as outputs are
// [batch, input depth + depth] (the concatenation) and [batch, 4 x depth] (the gates).
Outcome BasicLstmRule(const RuleInput& in) {
  if (in.node.inputs.size() != 5 || in.node.outputs.size() != 4) {
    return Fail(in, "the basic kernel expects 5 inputs and 4 outputs");
  }
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 2, "input"));
  auto activation = InputShape(in, 1);
  if (!activation.ok()) return activation.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *activation, 2, "previous activation"));
  auto state = InputShape(in, 4);
  if (!state.ok()) return state.status();
  const int64_t depth = (*activation)[1];
  auto total_depth = ToDimension(in, int64_t{(*input)[1]} + depth);
  if (!total_depth.ok()) return total_depth.status();
  auto gate_depth = ToDimension(in, 4 * depth);
  if (!gate_depth.ok()) return gate_depth.status();
  const int32_t batch = (*input)[0];
  return Shapes({std::move(*activation), std::move(*state), Shape{batch, *total_depth},
                 Shape{batch, *gate_depth}});
}

// The outputs of a bidirectional sequence op of `fw` forward and `bw` backward units: one of
// both depths with merge_outputs, else the forward and the backward output.
Outcome BidirectionalOutputs(const RuleInput& in, int32_t fw, int32_t bw) {
  if (in.node.options->merge_outputs) {
    auto depth = ToDimension(in, int64_t{fw} + bw);
    if (!depth.ok()) return depth.status();
    auto out = WithLastDimension(in, 3, *depth);
    if (!out.ok()) return out.status();
    return OneShape(std::move(*out));
  }
  auto fw_out = WithLastDimension(in, 3, fw);
  if (!fw_out.ok()) return fw_out.status();
  auto bw_out = WithLastDimension(in, 3, bw);
  if (!bw_out.ok()) return bw_out.status();
  return Shapes({std::move(*fw_out), std::move(*bw_out)});
}

}  // namespace

// LSTM (full kernel) and UNIDIRECTIONAL_SEQUENCE_LSTM (lstm.cc, unidirectional_sequence_lstm.cc):
// the output's depth is recurrent_to_output_weights' second dimension (input 8).
Outcome LstmRule(const RuleInput& in) {
  if (in.node.options->lstm_basic_kernel) return BasicLstmRule(in);
  auto units = Dimension(in, 8, 2, 1);
  if (!units.ok()) return units.status();
  auto out = WithLastDimension(in, in.node.op == "LSTM" ? 2 : 3, *units);
  if (!out.ok()) return out.status();
  return OneShape(std::move(*out));
}

// BIDIRECTIONAL_SEQUENCE_LSTM (bidirectional_sequence_lstm.cc): forward and backward outputs, or
// one output of both depths with merge_outputs. The backward recurrent_to_output weights are
// input 25.
Outcome BidirectionalLstmRule(const RuleInput& in) {
  auto fw = Dimension(in, 8, 2, 1);
  if (!fw.ok()) return fw.status();
  auto bw = Dimension(in, 25, 2, 1);
  if (!bw.ok()) return bw.status();
  return BidirectionalOutputs(in, *fw, *bw);
}

// RNN and UNIDIRECTIONAL_SEQUENCE_RNN (basic_rnn.cc, unidirectional_sequence_rnn.cc): the units
// are the input weights' first dimension.
Outcome RnnRule(const RuleInput& in) {
  auto units = Dimension(in, 1, 2, 0);
  if (!units.ok()) return units.status();
  auto out = WithLastDimension(in, in.node.op == "RNN" ? 2 : 3, *units);
  if (!out.ok()) return out.status();
  return OneShape(std::move(*out));
}

// BIDIRECTIONAL_SEQUENCE_RNN (bidirectional_sequence_rnn.cc): the forward and backward units are
// the input weights' first dimensions (inputs 1 and 5); forward and backward outputs, or one of
// both depths with merge_outputs.
Outcome BidirectionalRnnRule(const RuleInput& in) {
  auto fw = Dimension(in, 1, 2, 0);
  if (!fw.ok()) return fw.status();
  auto bw = Dimension(in, 5, 2, 0);
  if (!bw.ok()) return bw.status();
  return BidirectionalOutputs(in, *fw, *bw);
}

// SVDF (svdf.cc): [batch, feature filters / rank].
Outcome SvdfRule(const RuleInput& in) {
  auto filters = Dimension(in, 1, 2, 0);
  if (!filters.ok()) return filters.status();
  const int32_t rank = in.node.options->svdf_rank;
  if (rank <= 0 || *filters % rank != 0) {
    return Fail(in, std::to_string(*filters) + " filters are not a multiple of rank " +
                        std::to_string(rank));
  }
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 2, "input"));
  return OneShape({(*input)[0], *filters / rank});
}

}  // namespace tfa::shape_rules
