#include "runtime/kernels/cpu/rnn.h"

#include <string>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/rnn_batch_step.h"
#include "runtime/kernels/cpu/working_buffers.h"

namespace tfa::runtime {
namespace {

// Upstream's tensor positions (basic_rnn.cc, unidirectional_sequence_rnn.cc).
constexpr size_t kInput = 0, kWeights = 1, kRecurrentWeights = 2, kBias = 3, kHiddenState = 4;

struct RnnShape {
  bool sequence = false;
  int32_t batch = 0, time = 1, input_size = 0, units = 0;
  bool hybrid = false;
};

Status Mismatch(const char* role, const RuntimeTensor& t, const std::string& expected) {
  return Status::Error(std::string(role) + " " + ShapeString(t.shape) + " is not " + expected);
}

std::string Dims(std::initializer_list<int32_t> dims) {
  return ShapeString(std::vector<int32_t>(dims));
}

// Upstream's Prepare checks, plus the ranks and types it takes for granted.
Result<RnnShape> Shape(const KernelContext& context, bool sequence) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 5, 5, 1));
  const RuntimeTensor& in = context.input(kInput);
  const RuntimeTensor& weights = context.input(kWeights);
  const RuntimeTensor& recurrent = context.input(kRecurrentWeights);
  const RuntimeTensor& bias = context.input(kBias);
  const RuntimeTensor& hidden = context.input(kHiddenState);
  TFA_RETURN_IF_ERROR(CheckRank(in, sequence ? 3 : 2, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(weights, 2, "input weights"));
  TFA_RETURN_IF_ERROR(CheckRank(recurrent, 2, "recurrent weights"));
  TFA_RETURN_IF_ERROR(CheckRank(bias, 1, "bias"));
  TFA_RETURN_IF_ERROR(CheckRank(hidden, 2, "hidden state"));
  RnnShape s;
  s.sequence = sequence;
  const bool time_major = sequence && context.options().time_major;
  s.batch = in.Dim(time_major ? 1 : 0);
  s.time = sequence ? in.Dim(time_major ? 0 : 1) : 1;
  s.input_size = in.Dim(sequence ? 2 : 1);
  s.units = weights.Dim(0);
  if (weights.Dim(1) != s.input_size)
    return Mismatch("input weights", weights, Dims({s.units, s.input_size}) + " (units, input)");
  if (bias.Dim(0) != s.units) return Mismatch("bias", bias, Dims({s.units}) + " (units)");
  if (recurrent.Dim(0) != s.units || recurrent.Dim(1) != s.units)
    return Mismatch("recurrent weights", recurrent, Dims({s.units, s.units}) + " (units, units)");
  if (hidden.Dim(0) != s.batch || hidden.Dim(1) != s.units)
    return Mismatch("hidden state", hidden, Dims({s.batch, s.units}) + " (batch, units)");
  auto hybrid = RnnWeightsAreHybrid(in, {&weights, &recurrent});
  if (!hybrid.ok()) return hybrid.status();
  s.hybrid = *hybrid;
  TFA_RETURN_IF_ERROR(CheckRnnFloat(bias, "the bias"));
  TFA_RETURN_IF_ERROR(CheckRnnFloat(hidden, "the hidden state"));
  TFA_RETURN_IF_ERROR(CheckRnnFloat(context.output(0), "the output"));
  TFA_RETURN_IF_ERROR(CheckRnnActivation(context.options().fused_activation));
  const std::vector<int32_t> out = sequence ? std::vector<int32_t>{in.Dim(0), in.Dim(1), s.units}
                                            : std::vector<int32_t>{s.batch, s.units};
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), out));
  return s;
}

// Upstream's hybrid temporaries: 0 the input quantized (its whole shape, of which a step uses its
// rows), 1 the hidden state quantized, 2 the scaling factors [batch], 3 int32 accumulators it
// leaves unused (no CPU backend context reaches the product), 4 the zero points [batch], 5 the
// row sums [2, units] (persistent). The float kernel needs nothing.
WorkingBuffers Buffers(const KernelContext& context, const RnnShape& s) {
  if (!s.hybrid) return WorkingBuffers(context, {});
  const auto batch = static_cast<uint64_t>(s.batch), units = static_cast<uint64_t>(s.units);
  return WorkingBuffers(context, {static_cast<uint64_t>(context.input(kInput).NumElements()),
                                  batch * units, batch * 4, 0, batch * 4, 2 * units * 4});
}

Status Prepare(KernelContext& context, bool sequence) {
  auto s = Shape(context, sequence);
  if (!s.ok()) return s.status();
  context.scratch_bytes = Buffers(context, *s).scratch_bytes();
  return Status::Ok();
}

Status Eval(const KernelContext& context, bool sequence, bool reference) {
  auto s = Shape(context, sequence);
  if (!s.ok()) return s.status();
  const WorkingBuffers buffers = Buffers(context, *s);
  RnnCell cell;
  cell.input_weights = &context.input(kWeights);
  cell.recurrent_weights = &context.input(kRecurrentWeights);
  cell.bias = context.input(kBias).Data<const float>();
  cell.units = s->units;
  cell.input_size = s->input_size;
  cell.activation = context.options().fused_activation;
  cell.hybrid = s->hybrid;
  cell.reference = reference;
  if (s->hybrid) {
    cell.asymmetric = context.options().asymmetric_quantize_inputs;
    cell.quantized_input = buffers.Get<int8_t>(0);
    cell.quantized_hidden = buffers.Get<int8_t>(1);
    cell.scaling_factors = buffers.Get<float>(2);
    cell.zero_points = buffers.Get<int32_t>(4);
    cell.row_sums = buffers.Get<int32_t>(5);
  }
  const float* in = context.input(kInput).Data<const float>();
  float* hidden = context.input(kHiddenState).Data<float>();
  float* out = context.output(0).Data<float>();
  const int64_t units = s->units, input_size = s->input_size;
  if (!sequence || context.options().time_major) {
    for (int32_t t = 0; t < s->time; ++t) {
      const int64_t first_row = static_cast<int64_t>(t) * s->batch;
      RnnBatchStep(cell, in + first_row * input_size, nullptr, s->batch, hidden,
                   out + first_row * units, units);
    }
    return Status::Ok();
  }
  // Batch-major: each batch row runs through its whole sequence alone.
  for (int32_t b = 0; b < s->batch; ++b) {
    for (int32_t t = 0; t < s->time; ++t) {
      const int64_t row = static_cast<int64_t>(b) * s->time + t;
      RnnBatchStep(cell, in + row * input_size, nullptr, 1, hidden + b * units, out + row * units,
                   units);
    }
  }
  return Status::Ok();
}

}  // namespace

Status PrepareRnn(KernelContext& context) { return Prepare(context, false); }
Status EvalRnn(KernelContext& context) { return Eval(context, false, false); }
Status EvalRnnReference(KernelContext& context) { return Eval(context, false, true); }

Status PrepareUnidirectionalSequenceRnn(KernelContext& context) { return Prepare(context, true); }
Status EvalUnidirectionalSequenceRnn(KernelContext& context) { return Eval(context, true, false); }
Status EvalUnidirectionalSequenceRnnReference(KernelContext& context) {
  return Eval(context, true, true);
}

}  // namespace tfa::runtime
