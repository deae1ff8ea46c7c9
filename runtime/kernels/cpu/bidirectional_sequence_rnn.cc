#include "runtime/kernels/cpu/bidirectional_sequence_rnn.h"

#include <string>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/rnn_batch_step.h"
#include "runtime/kernels/cpu/working_buffers.h"

namespace tfa::runtime {
namespace {

// Upstream's tensor positions (bidirectional_sequence_rnn.cc).
constexpr size_t kInput = 0, kAuxInput = 9;
struct DirectionInputs {
  size_t weights, recurrent, bias, hidden, aux_weights;
};
constexpr DirectionInputs kForward = {1, 2, 3, 4, 10}, kBackward = {5, 6, 7, 8, 11};

struct BidiShape {
  int32_t batch = 0, time = 0, input_size = 0, aux_size = 0, fw_units = 0, bw_units = 0;
  bool time_major = false, merge = false, hybrid = false;
  bool cross_links = false;   // auxiliary weights: the auxiliary input is added
  bool aux_replaces = false;  // an auxiliary input without weights: the backward cell's input
  int64_t fw_step() const { return merge ? fw_units + bw_units : fw_units; }
  int64_t bw_step() const { return merge ? fw_units + bw_units : bw_units; }
};

std::string Dims(std::initializer_list<int32_t> dims) {
  return ShapeString(std::vector<int32_t>(dims));
}

Status ExpectShape(const RuntimeTensor& t, std::initializer_list<int32_t> dims,
                   const std::string& role, const char* what) {
  if (t.shape == std::vector<int32_t>(dims)) return Status::Ok();
  return Status::Error(role + " " + ShapeString(t.shape) + " is not " + Dims(dims) + " (" + what +
                       ")");
}

// One direction's weights, bias and hidden state against the input size and batch.
Result<int32_t> DirectionUnits(const KernelContext& context, const DirectionInputs& d,
                               const char* name, int32_t input_size, int32_t batch) {
  const RuntimeTensor& weights = context.input(d.weights);
  const std::string prefix = std::string(name) + " ";
  TFA_RETURN_IF_ERROR(CheckRank(weights, 2, (prefix + "input weights").c_str()));
  const int32_t units = weights.Dim(0);
  TFA_RETURN_IF_ERROR(
      ExpectShape(weights, {units, input_size}, prefix + "input weights", "units, input"));
  TFA_RETURN_IF_ERROR(ExpectShape(context.input(d.recurrent), {units, units},
                                  prefix + "recurrent weights", "units, units"));
  TFA_RETURN_IF_ERROR(ExpectShape(context.input(d.bias), {units}, prefix + "bias", "units"));
  TFA_RETURN_IF_ERROR(ExpectShape(context.input(d.hidden), {batch, units}, prefix + "hidden state",
                                  "batch, units"));
  TFA_RETURN_IF_ERROR(CheckRnnFloat(context.input(d.bias), (prefix + "bias").c_str()));
  TFA_RETURN_IF_ERROR(CheckRnnFloat(context.input(d.hidden), (prefix + "hidden state").c_str()));
  return units;
}

// Upstream's Prepare checks, plus the ranks and types it takes for granted and the auxiliary
// inputs its Eval would index out of their bounds.
Result<BidiShape> Shape(const KernelContext& context) {
  BidiShape s;
  s.merge = context.options().merge_outputs;
  TFA_RETURN_IF_ERROR(CheckArity(context, 9, 12, s.merge ? 1 : 2));
  if (context.inputs.size() != 12) return Status::Error("expects 12 inputs");
  const bool fw_aux = context.has_input(kForward.aux_weights);
  if (fw_aux != context.has_input(kBackward.aux_weights))
    return Status::Error("auxiliary weights for one direction only");
  s.cross_links = fw_aux;
  s.aux_replaces = !fw_aux && context.has_input(kAuxInput);
  if (s.cross_links && !context.has_input(kAuxInput))
    return Status::Error("auxiliary weights without an auxiliary input");
  const RuntimeTensor& in = context.input(kInput);
  TFA_RETURN_IF_ERROR(CheckRank(in, 3, "input"));
  s.time_major = context.options().time_major;
  s.batch = in.Dim(s.time_major ? 1 : 0);
  s.time = in.Dim(s.time_major ? 0 : 1);
  s.input_size = in.Dim(2);
  auto fw = DirectionUnits(context, kForward, "forward", s.input_size, s.batch);
  if (!fw.ok()) return fw.status();
  auto bw = DirectionUnits(context, kBackward, "backward", s.input_size, s.batch);
  if (!bw.ok()) return bw.status();
  s.fw_units = *fw;
  s.bw_units = *bw;
  const auto weights = [&context](size_t i) {
    return context.has_input(i) ? &context.input(i) : nullptr;
  };
  auto hybrid =
      RnnWeightsAreHybrid(in, {weights(kForward.weights), weights(kForward.recurrent),
                               weights(kBackward.weights), weights(kBackward.recurrent),
                               weights(kForward.aux_weights), weights(kBackward.aux_weights)});
  if (!hybrid.ok()) return hybrid.status();
  s.hybrid = *hybrid;
  // Batch-major, an auxiliary input without weights is never read (see the header).
  if (s.cross_links || (s.aux_replaces && s.time_major)) {
    const RuntimeTensor& aux = context.input(kAuxInput);
    TFA_RETURN_IF_ERROR(CheckRank(aux, 3, "auxiliary input"));
    TFA_RETURN_IF_ERROR(CheckRnnFloat(aux, "the auxiliary input"));
    s.aux_size = aux.Dim(2);
    if (aux.Dim(0) != in.Dim(0) || aux.Dim(1) != in.Dim(1)) {
      return Status::Error("auxiliary input " + ShapeString(aux.shape) +
                           " does not share the input's first two dimensions " +
                           ShapeString(in.shape));
    }
    // Upstream steps through the auxiliary input with the input's size where it is time-major,
    // and where the hybrid kernel adds it (batch-major, the float kernel uses its own size).
    const bool indexed_as_input = s.time_major || (s.cross_links && s.hybrid);
    if (indexed_as_input && s.aux_size != s.input_size) {
      return Status::Error("auxiliary input " + ShapeString(aux.shape) + " is not the input's " +
                           ShapeString(in.shape) +
                           ": upstream's kernel indexes it with the input's sizes here");
    }
  }
  if (s.cross_links) {
    TFA_RETURN_IF_ERROR(ExpectShape(context.input(kForward.aux_weights), {s.fw_units, s.aux_size},
                                    "forward auxiliary weights", "units, auxiliary input"));
    TFA_RETURN_IF_ERROR(ExpectShape(context.input(kBackward.aux_weights), {s.bw_units, s.aux_size},
                                    "backward auxiliary weights", "units, auxiliary input"));
  }
  TFA_RETURN_IF_ERROR(CheckRnnActivation(context.options().fused_activation));
  const int32_t d0 = in.Dim(0), d1 = in.Dim(1);
  TFA_RETURN_IF_ERROR(CheckRnnFloat(context.output(0), "the forward output"));
  if (s.merge) {
    TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {d0, d1, s.fw_units + s.bw_units}));
    return s;
  }
  TFA_RETURN_IF_ERROR(CheckRnnFloat(context.output(1), "the backward output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {d0, d1, s.fw_units}));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(1), {d0, d1, s.bw_units}));
  return s;
}

// Upstream's hybrid temporaries: 0 the input quantized (its shape), 1 and 2 the forward and
// backward hidden states quantized, 3 the scaling factors [batch], 4 int32 accumulators it leaves
// unused (no CPU backend context reaches the product), 5 the zero points [batch], 6 and 7 the
// forward and backward row sums [2, or 3 with auxiliary weights, units] (persistent), 8 the
// auxiliary input quantized (with auxiliary weights). The float kernel needs nothing.
WorkingBuffers Buffers(const KernelContext& context, const BidiShape& s) {
  if (!s.hybrid) return WorkingBuffers(context, {});
  const auto elements = [](const RuntimeTensor& t) {
    return static_cast<uint64_t>(t.NumElements());
  };
  const auto batch = static_cast<uint64_t>(s.batch);
  const uint64_t row_sums = s.cross_links ? 3 : 2;
  return WorkingBuffers(context,
                        {elements(context.input(kInput)), elements(context.input(kForward.hidden)),
                         elements(context.input(kBackward.hidden)), batch * 4, 0, batch * 4,
                         row_sums * static_cast<uint64_t>(s.fw_units) * 4,
                         row_sums * static_cast<uint64_t>(s.bw_units) * 4,
                         s.cross_links ? elements(context.input(kAuxInput)) : 0});
}

RnnCell Cell(const KernelContext& context, const BidiShape& s, const DirectionInputs& d,
             int32_t units) {
  RnnCell cell;
  cell.input_weights = &context.input(d.weights);
  cell.recurrent_weights = &context.input(d.recurrent);
  cell.bias = context.input(d.bias).Data<const float>();
  cell.units = units;
  cell.input_size = s.input_size;
  if (s.cross_links) {
    cell.aux_weights = &context.input(d.aux_weights);
    cell.aux_size = s.aux_size;
  }
  cell.activation = context.options().fused_activation;
  cell.hybrid = s.hybrid;
  cell.asymmetric = context.options().asymmetric_quantize_inputs;
  return cell;
}

}  // namespace

Status PrepareBidirectionalSequenceRnn(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  context.scratch_bytes = Buffers(context, *s).scratch_bytes();
  return Status::Ok();
}

Status EvalBidirectionalSequenceRnn(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  const WorkingBuffers buffers = Buffers(context, *s);
  RnnCell fw = Cell(context, *s, kForward, s->fw_units);
  RnnCell bw = Cell(context, *s, kBackward, s->bw_units);
  if (s->hybrid) {
    fw.quantized_input = bw.quantized_input = buffers.Get<int8_t>(0);
    fw.quantized_hidden = buffers.Get<int8_t>(1);
    bw.quantized_hidden = buffers.Get<int8_t>(2);
    fw.quantized_aux = bw.quantized_aux = buffers.Get<int8_t>(8);
    fw.scaling_factors = bw.scaling_factors = buffers.Get<float>(3);
    fw.zero_points = bw.zero_points = buffers.Get<int32_t>(5);
    fw.row_sums = buffers.Get<int32_t>(6);
    bw.row_sums = buffers.Get<int32_t>(7);
  }
  const float* in = context.input(kInput).Data<const float>();
  const float* aux =
      s->cross_links || s->aux_replaces ? context.input(kAuxInput).Data<const float>() : nullptr;
  const float* cross = s->cross_links ? aux : nullptr;
  float* fw_hidden = context.input(kForward.hidden).Data<float>();
  float* bw_hidden = context.input(kBackward.hidden).Data<float>();
  float* fw_out = context.output(0).Data<float>();
  float* bw_out = s->merge ? fw_out + s->fw_units : context.output(1).Data<float>();
  const int64_t batch = s->batch, time = s->time, input_size = s->input_size;
  const int64_t fw_step = s->fw_step(), bw_step = s->bw_step();
  if (s->time_major) {
    const float* bw_in = s->aux_replaces ? aux : in;
    const int32_t passes = s->hybrid ? s->time : 1;  // upstream's hybrid Eval, see the header
    for (int32_t pass = 0; pass < passes; ++pass) {
      for (int64_t t = 0; t < time; ++t) {
        const int64_t row = t * batch * input_size;
        RnnBatchStep(fw, in + row, cross ? cross + row : nullptr, s->batch, fw_hidden,
                     fw_out + t * batch * fw_step, fw_step);
      }
      for (int64_t t = time - 1; t >= 0; --t) {
        const int64_t row = t * batch * input_size;
        RnnBatchStep(bw, bw_in + row, cross ? cross + row : nullptr, s->batch, bw_hidden,
                     bw_out + t * batch * bw_step, bw_step);
      }
    }
    return Status::Ok();
  }
  // Batch-major: each batch row through the forward then the backward cell; the backward cell
  // reads `in` even where the auxiliary input replaces it (upstream's Eval, see the header).
  const int64_t aux_size = s->aux_size;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t t = 0; t < time; ++t) {
      const int64_t row = b * time + t;
      RnnBatchStep(fw, in + row * input_size, cross ? cross + row * aux_size : nullptr, 1,
                   fw_hidden + b * s->fw_units, fw_out + row * fw_step, fw_step);
    }
    for (int64_t t = time - 1; t >= 0; --t) {
      const int64_t row = b * time + t;
      RnnBatchStep(bw, in + row * input_size, cross ? cross + row * aux_size : nullptr, 1,
                   bw_hidden + b * s->bw_units, bw_out + row * bw_step, bw_step);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
