#include "runtime/kernels/cpu/svdf.h"

#include <algorithm>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/working_buffers.h"

namespace tfa::runtime {
namespace {

constexpr size_t kInput = 0, kWeightsFeature = 1, kWeightsTime = 2, kBias = 3, kState = 4;

struct SvdfShape {
  int32_t batch = 0, inputs = 0, filters = 0, units = 0, rank = 0, memory = 0;
  bool integer = false;  // int8 input, else float32
};

Result<SvdfShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 5, 1));
  if (context.inputs.size() != 5) return Status::Error("expects 5 inputs");
  if (!context.has_input(kState)) return Status::Error("the state input is missing");
  const RuntimeTensor& in = context.input(kInput);
  const RuntimeTensor& feature = context.input(kWeightsFeature);
  const RuntimeTensor& time = context.input(kWeightsTime);
  TFA_RETURN_IF_ERROR(CheckRank(in, 2, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(feature, 2, "feature weights"));
  TFA_RETURN_IF_ERROR(CheckRank(time, 2, "time weights"));
  SvdfShape s;
  s.integer = in.type == TensorType::kInt8;
  s.batch = in.Dim(0);
  s.inputs = in.Dim(1);
  s.filters = feature.Dim(0);
  s.rank = context.options().svdf_rank;
  if (s.rank <= 0 || s.filters % s.rank != 0)
    return Status::Error("rank must be positive and divide the " + std::to_string(s.filters) +
                         " filters");
  s.units = s.filters / s.rank;
  s.memory = time.Dim(1);
  if (feature.Dim(1) != s.inputs || time.Dim(0) != s.filters)
    return Status::Error("feature weights " + ShapeString(feature.shape) + " and time weights " +
                         ShapeString(time.shape) + " do not fit input " + ShapeString(in.shape));
  if (context.has_input(kBias) && context.input(kBias).NumElements() != s.units)
    return Status::Error("bias size differs from the " + std::to_string(s.units) + " units");
  const RuntimeTensor& state = context.input(kState);
  TFA_RETURN_IF_ERROR(CheckRank(state, 2, "state"));
  if (state.Dim(0) != s.batch || state.Dim(1) != s.memory * s.filters)
    return Status::Error("state " + ShapeString(state.shape) + " does not fit batch " +
                         std::to_string(s.batch) + " and memory x filters " +
                         std::to_string(s.memory * s.filters));
  // Types: float32 throughout, or upstream's full integer combination.
  const TensorType activations = s.integer ? TensorType::kInt8 : TensorType::kFloat32;
  if (!s.integer) TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(feature, activations, "feature weights"));
  TFA_RETURN_IF_ERROR(
      CheckType(time, s.integer ? TensorType::kInt16 : TensorType::kFloat32, "time weights"));
  if (context.has_input(kBias)) {
    TFA_RETURN_IF_ERROR(CheckType(context.input(kBias),
                                  s.integer ? TensorType::kInt32 : TensorType::kFloat32, "bias"));
  }
  TFA_RETURN_IF_ERROR(
      CheckType(state, s.integer ? TensorType::kInt16 : TensorType::kFloat32, "state"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), activations, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {s.batch, s.units}));
  return s;
}

// Upstream's temporaries (svdf.cc Prepare): 0 the [batch, filters] time products (int32 for the
// integer kernel, else float32); 1 the integer kernel's int32 sums per unit [units, batch].
WorkingBuffers Buffers(const KernelContext& context, const SvdfShape& s) {
  const uint64_t products = static_cast<uint64_t>(s.batch) * s.filters * 4;
  if (!s.integer) return WorkingBuffers(context, {products});
  return WorkingBuffers(context, {products, static_cast<uint64_t>(s.units) * s.batch * 4});
}

struct IntegerScales {
  QuantizedMultiplier to_state;   // input x feature weights -> state
  QuantizedMultiplier to_output;  // state x time weights -> output
  int32_t input_zero_point = 0, output_zero_point = 0;
};

Result<IntegerScales> ReadIntegerScales(const KernelContext& context) {
  auto in = PerTensorParams(context.input(kInput), "input");
  auto feature = PerTensorParams(context.input(kWeightsFeature), "feature weights");
  auto time = PerTensorParams(context.input(kWeightsTime), "time weights");
  auto state = PerTensorParams(context.input(kState), "state");
  auto out = PerTensorParams(context.output(0), "output");
  for (const auto* p : {&in, &feature, &time, &state, &out}) {
    if (!p->ok()) return p->status();
  }
  if (state->scale == 0 || out->scale == 0) return Status::Error("state or output scale is 0");
  IntegerScales scales;
  scales.to_state =
      QuantizeMultiplier(static_cast<double>(in->scale) * static_cast<double>(feature->scale) /
                         static_cast<double>(state->scale));
  scales.to_output =
      QuantizeMultiplier(static_cast<double>(state->scale) * static_cast<double>(time->scale) /
                         static_cast<double>(out->scale));
  scales.input_zero_point = in->zero_point;
  scales.output_zero_point = out->zero_point;
  return scales;
}

// Shifts every batch's memory left by one. Upstream shifts the whole state as one vector (the
// first slot of each filter receives the previous filter's last, overwritten next).
template <typename T>
void ShiftState(T* state, const SvdfShape& s) {
  const int64_t size = static_cast<int64_t>(s.batch) * s.memory * s.filters;
  std::copy(state + 1, state + size, state);
}

// a + b; int32 sums wrap as upstream's (two's complement in practice) without undefined behaviour.
template <typename T>
T Add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                          static_cast<std::make_unsigned_t<T>>(b));
  } else {
    return a + b;
  }
}

// products[b][f] = weights_time[f] . state[b][f] over the memory
// (BatchVectorBatchVectorDotProduct).
template <typename T, typename Accumulator>
void TimeProducts(const T* weights_time, const T* state, const SvdfShape& s,
                  Accumulator* products) {
  for (int32_t b = 0; b < s.batch; ++b) {
    for (int32_t f = 0; f < s.filters; ++f) {
      const T* w = weights_time + static_cast<int64_t>(f) * s.memory;
      const T* v = state + (static_cast<int64_t>(b) * s.filters + f) * s.memory;
      Accumulator dot = 0;
      for (int32_t m = 0; m < s.memory; ++m) dot = Add(dot, static_cast<Accumulator>(w[m] * v[m]));
      products[static_cast<int64_t>(b) * s.filters + f] = dot;
    }
  }
}

// sums[u] = the rank products of unit u (ReductionSumVector), then bias added per batch.
template <typename T>
void SumRanks(const T* products, const T* bias, const SvdfShape& s, T* sums) {
  const int64_t units = static_cast<int64_t>(s.batch) * s.units;
  for (int64_t u = 0; u < units; ++u) {
    T sum = 0;
    for (int32_t r = 0; r < s.rank; ++r) sum = Add(sum, products[u * s.rank + r]);
    sums[u] = Add(sum, bias ? bias[u % s.units] : T{0});
  }
}

Status EvalFloat(const KernelContext& context, const SvdfShape& s, const WorkingBuffers& buffers) {
  auto activation = GetActivationRange(context.options().fused_activation);
  if (!activation.ok()) return activation.status();
  const float* in = context.input(kInput).Data<const float>();
  const float* feature = context.input(kWeightsFeature).Data<const float>();
  const float* bias = context.has_input(kBias) ? context.input(kBias).Data<const float>() : nullptr;
  float* state = context.input(kState).Data<float>();
  float* products = buffers.Get<float>(0);
  ShiftState(state, s);
  for (int32_t b = 0; b < s.batch; ++b) {
    for (int32_t f = 0; f < s.filters; ++f) {
      float dot = 0;
      for (int32_t i = 0; i < s.inputs; ++i) {
        dot += feature[static_cast<int64_t>(f) * s.inputs + i] *
               in[static_cast<int64_t>(b) * s.inputs + i];
      }
      state[(static_cast<int64_t>(b) * s.filters + f + 1) * s.memory - 1] = dot;
    }
  }
  TimeProducts(context.input(kWeightsTime).Data<const float>(), state, s, products);
  float* out = context.output(0).Data<float>();
  SumRanks(products, bias, s, out);
  for (int64_t i = 0; i < static_cast<int64_t>(s.batch) * s.units; ++i)
    out[i] = activation->Apply(out[i]);
  return Status::Ok();
}

// reference/svdf.h EvalIntegerSVDF: the feature products are rescaled to the state's scale and
// saturated to int16; the output ignores the fused activation beyond clamping to int8 (upstream
// accepts only RELU and relies on the output's range).
Status EvalInteger(const KernelContext& context, const SvdfShape& s,
                   const WorkingBuffers& buffers) {
  auto scales = ReadIntegerScales(context);
  if (!scales.ok()) return scales.status();
  const int8_t* in = context.input(kInput).Data<const int8_t>();
  const int8_t* feature = context.input(kWeightsFeature).Data<const int8_t>();
  const int32_t* bias =
      context.has_input(kBias) ? context.input(kBias).Data<const int32_t>() : nullptr;
  int16_t* state = context.input(kState).Data<int16_t>();
  int32_t* products = buffers.Get<int32_t>(0);
  int32_t* sums = buffers.Get<int32_t>(1);
  ShiftState(state, s);
  for (int32_t b = 0; b < s.batch; ++b) {
    for (int32_t f = 0; f < s.filters; ++f) {
      int32_t dot = 0;
      for (int32_t i = 0; i < s.inputs; ++i) {
        dot += feature[static_cast<int64_t>(f) * s.inputs + i] *
               (in[static_cast<int64_t>(b) * s.inputs + i] - scales->input_zero_point);
      }
      dot = std::clamp(MultiplyByQuantizedMultiplier(dot, scales->to_state), -32768, 32767);
      state[(static_cast<int64_t>(b) * s.filters + f + 1) * s.memory - 1] =
          static_cast<int16_t>(dot);
    }
  }
  TimeProducts(context.input(kWeightsTime).Data<const int16_t>(), state, s, products);
  SumRanks(products, bias, s, sums);
  int8_t* out = context.output(0).Data<int8_t>();
  for (int64_t i = 0; i < static_cast<int64_t>(s.batch) * s.units; ++i) {
    const int32_t v =
        MultiplyByQuantizedMultiplier(sums[i], scales->to_output) + scales->output_zero_point;
    out[i] = static_cast<int8_t>(std::clamp(v, -128, 127));
  }
  return Status::Ok();
}

}  // namespace

Status PrepareSvdf(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  if (s->integer) {
    TFA_RETURN_IF_ERROR(ReadIntegerScales(context).status());
    // svdf.cc Eval: "Currently supports only ReLU".
    if (context.options().fused_activation != Activation::kRelu)
      return Status::Error("upstream's integer SVDF kernel takes only a RELU activation");
  } else {
    TFA_RETURN_IF_ERROR(GetActivationRange(context.options().fused_activation).status());
  }
  context.scratch_bytes = Buffers(context, *s).scratch_bytes();
  return Status::Ok();
}

Status EvalSvdf(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  const WorkingBuffers buffers = Buffers(context, *s);
  return s->integer ? EvalInteger(context, *s, buffers) : EvalFloat(context, *s, buffers);
}

}  // namespace tfa::runtime
