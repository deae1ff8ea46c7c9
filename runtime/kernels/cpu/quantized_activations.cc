#include "runtime/kernels/cpu/quantized_activations.h"

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "runtime/kernels/cpu/int16_lut.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_softmax.h"
#include "runtime/model_data.h"

namespace tfa::runtime {
namespace {

struct UnaryParams {
  QuantParams in, out;
};

Result<UnaryParams> GetParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, in.shape));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  return UnaryParams{*pi, *po};
}

// Applies a 256-entry table indexed by the stored byte.
template <typename T>
void ApplyTable(KernelContext& context, const std::array<uint8_t, 256>& table) {
  const auto* in = context.input(0).Data<const uint8_t>();
  auto* out = context.output(0).Data<uint8_t>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = table[in[i]];
}

// The stored output of every stored input value v: f(v) as a table over bytes.
template <typename T, typename F>
std::array<uint8_t, 256> BuildTable(F f) {
  std::array<uint8_t, 256> table{};
  for (int32_t v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    const auto stored = static_cast<T>(f(v));
    table[static_cast<uint8_t>(static_cast<T>(v))] = static_cast<uint8_t>(stored);
  }
  return table;
}

template <typename T>
std::array<uint8_t, 256> FloatFunctionTable(const UnaryParams& p, float (*f)(float)) {
  const float inverse_scale = 1.0f / p.out.scale;
  const QuantizedRange range =
      TypeRange(std::is_same_v<T, int8_t> ? TensorType::kInt8 : TensorType::kUInt8);
  return BuildTable<T>([&](int32_t v) {
    const float x = p.in.scale * static_cast<float>(v - p.in.zero_point);
    const float rescaled = std::round(f(x) * inverse_scale);
    return range.Clamp(static_cast<int32_t>(rescaled + static_cast<float>(p.out.zero_point)));
  });
}

// Upstream's Prepare divides (and multiplies) the float scales in float, then widens the
// result to double for QuantizeMultiplier.
QuantizedMultiplier FloatRatio(float numerator, float denominator) {
  return QuantizeMultiplier(static_cast<double>(numerator / denominator));
}

// Rescale-then-clamp of the RELU family; [lo, hi] are real bounds (infinite = none).
template <typename T>
std::array<uint8_t, 256> ReluTable(const UnaryParams& p, float lo, float hi) {
  const QuantizedMultiplier m = FloatRatio(p.in.scale, p.out.scale);
  QuantizedRange range =
      TypeRange(std::is_same_v<T, int8_t> ? TensorType::kInt8 : TensorType::kUInt8);
  const int32_t q_lo = p.out.zero_point + static_cast<int32_t>(std::round(lo / p.out.scale));
  range.min = std::max(range.min, q_lo);
  if (std::isfinite(hi)) {
    range.max =
        std::min(range.max, p.out.zero_point + static_cast<int32_t>(std::round(hi / p.out.scale)));
  }
  return BuildTable<T>([&](int32_t v) {
    return range.Clamp(p.out.zero_point + MultiplyByQuantizedMultiplier(v - p.in.zero_point, m));
  });
}

Status Relu(KernelContext& context, float lo, float hi) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (context.input(0).type == TensorType::kInt8) {
    ApplyTable<int8_t>(context, ReluTable<int8_t>(*p, lo, hi));
  } else {
    ApplyTable<uint8_t>(context, ReluTable<uint8_t>(*p, lo, hi));
  }
  return Status::Ok();
}

Status FloatFunction(KernelContext& context, float (*f)(float)) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (context.input(0).type == TensorType::kInt8) {
    ApplyTable<int8_t>(context, FloatFunctionTable<int8_t>(*p, f));
  } else {
    ApplyTable<uint8_t>(context, FloatFunctionTable<uint8_t>(*p, f));
  }
  return Status::Ok();
}

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
float Elu(float x) { return x < 0.0f ? std::expm1(x) : x; }
// reference_ops::GeluTransform and GeluTransformApproximate (internal/reference/gelu.h).
float Gelu(float x) {
  return 0.5f * x * std::erfc(x * static_cast<float>(-0.70710678118654752440));
}
float GeluApproximate(float x) {
  constexpr auto kSqrt2OverPi = static_cast<float>(1.12837916709551257390 * 0.70710678118654752440);
  return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}
float Tanh(float x) { return std::tanh(x); }
float Exp(float x) { return std::exp(x); }

struct PreluParams {
  QuantParams in, alpha, out;
  QuantizedMultiplier positive, negative;
};

Result<PreluParams> GetPreluParams(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& alpha = context.input(1);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(alpha, in.type, "alpha"));
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  auto shape = BroadcastShape(in.shape, alpha.shape);
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, *shape));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto pa = PerTensorParams(alpha, "alpha");
  if (!pa.ok()) return pa.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  PreluParams p{*pi, *pa, *po, {}, {}};
  p.positive = FloatRatio(p.in.scale, p.out.scale);
  p.negative = FloatRatio(p.in.scale * p.alpha.scale, p.out.scale);
  return p;
}

template <typename T>
void RunPrelu(KernelContext& context, const PreluParams& p) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& alpha = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* x = in.Data<const T>();
  const T* a = alpha.Data<const T>();
  T* y = out.Data<T>();
  const QuantizedRange range = TypeRange(out.type);
  auto value = [&](T xv, T av) {
    const int32_t input = int32_t{xv} - p.in.zero_point;
    const int32_t v = input >= 0 ? MultiplyByQuantizedMultiplier(input, p.positive)
                                 : MultiplyByQuantizedMultiplier(
                                       input * (int32_t{av} - p.alpha.zero_point), p.negative);
    return static_cast<T>(range.Clamp(v + p.out.zero_point));
  };
  const int64_t n = out.NumElements();
  if (n == 0) return;
  // Alpha repeating along the inner dimensions of an input of the output's shape (the models'
  // per-channel alpha) is a periodic flat loop; anything else walks the broadcast.
  const int64_t alpha_size = alpha.NumElements();
  int leading_ones = 0;
  while (leading_ones < alpha.Rank() && alpha.Dim(leading_ones) == 1) ++leading_ones;
  const int alpha_rank = alpha.Rank() - leading_ones;
  bool periodic = in.shape == out.shape && alpha_rank <= out.Rank() && alpha_size > 0;
  for (int i = 0; periodic && i < alpha_rank; ++i)
    periodic = alpha.Dim(alpha.Rank() - 1 - i) == out.Dim(out.Rank() - 1 - i);
  if (periodic && alpha_size * 256 > n) {
    for (int64_t i = 0; i < n; ++i) y[i] = value(x[i], a[i % alpha_size]);
    return;
  }
  if (periodic) {
    // The output depends only on (stored input, alpha position): one table per position, when
    // the tensor is large enough to repay it.
    std::vector<T> table(static_cast<size_t>(alpha_size) * 256);
    for (int64_t i = 0; i < alpha_size; ++i) {
      for (int32_t v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
        table[static_cast<size_t>(i) * 256 + static_cast<uint8_t>(static_cast<T>(v))] =
            value(static_cast<T>(v), a[i]);
      }
    }
    for (int64_t o = 0; o < n; o += alpha_size) {
      for (int64_t i = 0; i < alpha_size; ++i)
        y[o + i] = table[static_cast<size_t>(i) * 256 + static_cast<uint8_t>(x[o + i])];
    }
    return;
  }
  const std::vector<int64_t> sx = BroadcastStrides(in.shape, out.shape);
  const std::vector<int64_t> sa = BroadcastStrides(alpha.shape, out.shape);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, ox = 0, oa = 0;
    for (int d = out.Rank() - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      const int64_t coord = rest % out.shape[ud];
      rest /= out.shape[ud];
      ox += coord * sx[ud];
      oa += coord * sa[ud];
    }
    y[i] = value(x[ox], a[oa]);
  }
}

template <typename T>
std::array<uint8_t, 256> LeakyReluTable(const UnaryParams& p, float alpha) {
  const QuantizedMultiplier identity = FloatRatio(p.in.scale, p.out.scale);
  const QuantizedMultiplier negative = FloatRatio(p.in.scale * alpha, p.out.scale);
  const QuantizedRange range =
      TypeRange(std::is_same_v<T, int8_t> ? TensorType::kInt8 : TensorType::kUInt8);
  return BuildTable<T>([&](int32_t v) {
    const int32_t input = v - p.in.zero_point;
    const int32_t scaled = MultiplyByQuantizedMultiplier(input, input >= 0 ? identity : negative);
    return range.Clamp(scaled + p.out.zero_point);
  });
}

}  // namespace

Status PrepareQuantizedUnary(KernelContext& context) { return GetParams(context).status(); }

Status EvalQuantizedRelu(KernelContext& context) {
  return Relu(context, 0.0f, std::numeric_limits<float>::infinity());
}
Status EvalQuantizedRelu6(KernelContext& context) { return Relu(context, 0.0f, 6.0f); }
Status EvalQuantizedReluN1To1(KernelContext& context) { return Relu(context, -1.0f, 1.0f); }
Status EvalQuantizedRelu0To1(KernelContext& context) { return Relu(context, 0.0f, 1.0f); }
// SigmoidPrepare (kGenericOptimized) requires the 8-bit output scale to be 1/256 exactly; it
// leaves the zero point free.
Status PrepareQuantizedLogistic(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  if (p->out.scale != 1.0f / 256)
    return Status::Error("8-bit output scale must be 1/256, got " + ScaleText(p->out.scale));
  return Status::Ok();
}

Status EvalQuantizedLogistic(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareQuantizedLogistic(context));
  return FloatFunction(context, Sigmoid);
}
Status EvalQuantizedTanh(KernelContext& context) { return FloatFunction(context, Tanh); }

// exp.cc takes int8 (a 256-entry table) and int16 (the 513-entry interpolated table, any zero
// points); uint8 fails its Eval.
Status PrepareQuantizedExp(KernelContext& context) {
  static constexpr TensorType kTypes[] = {TensorType::kInt8, TensorType::kInt16};
  TFA_RETURN_IF_ERROR(CheckTypeIn(context.input(0), kTypes, "input"));
  return GetParams(context).status();
}

Status EvalQuantizedExp(KernelContext& context) {
  if (context.input(0).type != TensorType::kInt16) {
    TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kInt8, "input"));
    return FloatFunction(context, Exp);
  }
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  const Int16Lut lut =
      PopulateInt16Lut(p->in.scale, p->in.zero_point, p->out.scale, p->out.zero_point, Exp);
  const auto* in = context.input(0).Data<const int16_t>();
  auto* out = context.output(0).Data<int16_t>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = Int16LutLookup(in[i], lut);
  return Status::Ok();
}

// EluPrepare builds its table for int8 only; EluEval refuses uint8.
Status PrepareQuantizedElu(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kInt8, "input"));
  return GetParams(context).status();
}

Status EvalQuantizedElu(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareQuantizedElu(context));
  return FloatFunction(context, Elu);
}

Status EvalQuantizedGelu(KernelContext& context) {
  const bool approximate = context.node_data && context.node_data->gelu_approximate;
  return FloatFunction(context, approximate ? GeluApproximate : Gelu);
}

Status EvalQuantizedLeakyRelu(KernelContext& context) {
  auto p = GetParams(context);
  if (!p.ok()) return p.status();
  const float alpha = context.options().alpha;
  if (context.input(0).type == TensorType::kInt8) {
    ApplyTable<int8_t>(context, LeakyReluTable<int8_t>(*p, alpha));
  } else {
    ApplyTable<uint8_t>(context, LeakyReluTable<uint8_t>(*p, alpha));
  }
  return Status::Ok();
}

Status PrepareQuantizedPrelu(KernelContext& context) { return GetPreluParams(context).status(); }

Status EvalQuantizedPrelu(KernelContext& context) {
  auto p = GetPreluParams(context);
  if (!p.ok()) return p.status();
  if (context.input(0).type == TensorType::kInt8) {
    RunPrelu<int8_t>(context, *p);
  } else {
    RunPrelu<uint8_t>(context, *p);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
