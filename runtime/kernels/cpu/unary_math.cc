#include "runtime/kernels/cpu/unary_math.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <span>
#include <type_traits>

#include "runtime/kernels/cpu/activations.h"
#include "runtime/kernels/cpu/integer_layer_norm.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

// One input, one output of the input's type and shape, the input's type one of `types`.
Status PrepareSameTypeUnary(const KernelContext& context, std::span<const TensorType> types) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, types, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  return CheckOutputShape(context.output(0), in.shape);
}

template <typename T, typename F>
void MapElements(const KernelContext& context, F f) {
  const T* in = context.input(0).Data<const T>();
  T* out = context.output(0).Data<T>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
}

// Two's-complement negation: the most negative value stays itself, as upstream's int arithmetic
// does in practice, without the signed overflow.
template <typename T>
T WrappingNegate(T x) {
  using Unsigned = std::make_unsigned_t<T>;
  return static_cast<T>(Unsigned{0} - static_cast<Unsigned>(x));
}

template <typename T>
T SignOf(T x) {
  return static_cast<T>((T{0} < x) - (x < T{0}));
}

constexpr std::array kNegTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt64};
constexpr std::array kSignTypes = {TensorType::kFloat32, TensorType::kFloat64, TensorType::kInt32};
constexpr std::array kAbsTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt8,
                                  TensorType::kInt16};

bool IsQuantizedAbs(const RuntimeTensor& in) {
  return in.type == TensorType::kInt8 ||
         (in.type == TensorType::kInt16 && in.quantization && !in.quantization->scale.empty());
}

struct AbsRescale {
  QuantParams in, out;
  QuantizedMultiplier multiplier;
  bool needs_rescale = false;
};

Result<AbsRescale> GetAbsRescale(const KernelContext& context) {
  auto in = PerTensorParams(context.input(0), "input");
  if (!in.ok()) return in.status();
  auto out = PerTensorParams(context.output(0), "output");
  if (!out.ok()) return out.status();
  if (context.input(0).type == TensorType::kInt16 && (in->zero_point != 0 || out->zero_point != 0))
    return Status::Error("int16 input and output must have zero point 0");
  AbsRescale r{*in, *out, {}, in->scale != out->scale};
  if (r.needs_rescale) r.multiplier = QuantizeMultiplier(double{in->scale} / out->scale);
  return r;
}

template <typename T>
void QuantizedAbs(const KernelContext& context, const AbsRescale& r) {
  const QuantizedRange range = TypeRange(context.input(0).type);
  MapElements<T>(context, [&](T q) {
    const int32_t magnitude = std::abs(int32_t{q} - r.in.zero_point);
    const int32_t scaled =
        r.needs_rescale ? MultiplyByQuantizedMultiplier(magnitude, r.multiplier) : magnitude;
    return static_cast<T>(range.Clamp(scaled + r.out.zero_point));
  });
}

constexpr std::array kInt8Only = {TensorType::kInt8};

struct RsqrtRescale {
  QuantParams in, out;
  QuantizedMultiplier multiplier;  // 1 / (sqrt(s_in) * s_out)
};

Result<RsqrtRescale> GetRsqrtRescale(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareSameTypeUnary(context, kInt8Only));
  auto in = PerTensorParams(context.input(0), "input");
  if (!in.ok()) return in.status();
  auto out = PerTensorParams(context.output(0), "output");
  if (!out.ok()) return out.status();
  // SetRsqrtOutputMultiplier: the square root and the product in float, the inverse in double.
  const float denominator = std::sqrt(in->scale) * out->scale;
  return RsqrtRescale{*in, *out, QuantizeMultiplier(1.0 / static_cast<double>(denominator))};
}

}  // namespace

Status PrepareQuantizedRsqrt(KernelContext& context) { return GetRsqrtRescale(context).status(); }

Status EvalQuantizedRsqrt(KernelContext& context) {
  auto r = GetRsqrtRescale(context);
  if (!r.ok()) return r.status();
  const RuntimeTensor& in = context.input(0);
  const int8_t* x = in.Data<const int8_t>();
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    if (x[i] < r->in.zero_point) return Status::Error("Rsqrt is only defined for positive values");
  }
  constexpr int kShift = 20;  // elementwise.cc keeps 1 / sqrt(value) an integer this way
  const QuantizedMultiplier outer{r->multiplier.multiplier, r->multiplier.shift - kShift};
  MapElements<int8_t>(context, [&](int8_t q) {
    const int32_t value = q - r->in.zero_point;
    // A stored zero stands for the largest output.
    if (value == 0) return std::numeric_limits<int8_t>::max();
    const QuantizedMultiplier inverse = InverseSqrtMultiplier(value);
    const int32_t scaled =
        MultiplyByQuantizedMultiplier(1, {inverse.multiplier, inverse.shift + kShift});
    const int32_t v = MultiplyByQuantizedMultiplier(scaled, outer) + r->out.zero_point;
    return static_cast<int8_t>(TypeRange(TensorType::kInt8).Clamp(v));
  });
  return Status::Ok();
}

Status EvalRsqrt(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return 1.0f / std::sqrt(x); });
}

Status EvalLog(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::log(x); });
}

Status EvalGelu(KernelContext& context) {
  if (context.node_data && context.node_data->gelu_approximate) {
    return MapUnaryFloat(context, [](float x) {
      constexpr float kSqrt2OverPi = 0.7978845608028654f;
      return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
    });
  }
  return MapUnaryFloat(context, [](float x) {
    constexpr float kSqrtHalf = 0.7071067811865476f;
    return 0.5f * x * (1.0f + std::erf(x * kSqrtHalf));
  });
}

Status EvalExp(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::exp(x); });
}

Status EvalSqrt(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::sqrt(x); });
}

Status EvalSquare(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return x * x; });
}

Status PrepareNeg(KernelContext& context) { return PrepareSameTypeUnary(context, kNegTypes); }

Status EvalNeg(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareNeg(context));
  switch (context.input(0).type) {
    case TensorType::kInt32:
      MapElements<int32_t>(context, WrappingNegate<int32_t>);
      break;
    case TensorType::kInt64:
      MapElements<int64_t>(context, WrappingNegate<int64_t>);
      break;
    default:
      MapElements<float>(context, [](float x) { return -x; });
  }
  return Status::Ok();
}

Status PrepareSign(KernelContext& context) { return PrepareSameTypeUnary(context, kSignTypes); }

Status EvalSign(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareSign(context));
  switch (context.input(0).type) {
    case TensorType::kInt32:
      MapElements<int32_t>(context, SignOf<int32_t>);
      break;
    case TensorType::kFloat64:
      MapElements<double>(context, SignOf<double>);
      break;
    default:
      MapElements<float>(context, SignOf<float>);
  }
  return Status::Ok();
}

Status PrepareAbs(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareSameTypeUnary(context, kAbsTypes));
  if (!IsQuantizedAbs(context.input(0))) return Status::Ok();
  return GetAbsRescale(context).status();
}

Status EvalAbs(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareSameTypeUnary(context, kAbsTypes));
  const RuntimeTensor& in = context.input(0);
  if (IsQuantizedAbs(in)) {
    auto rescale = GetAbsRescale(context);
    if (!rescale.ok()) return rescale.status();
    if (in.type == TensorType::kInt8) {
      QuantizedAbs<int8_t>(context, *rescale);
    } else {
      QuantizedAbs<int16_t>(context, *rescale);
    }
    return Status::Ok();
  }
  switch (in.type) {
    case TensorType::kInt32:
      // Upstream's std::abs of INT32_MIN overflows; wrapping keeps it INT32_MIN.
      MapElements<int32_t>(context, [](int32_t x) { return x < 0 ? WrappingNegate(x) : x; });
      break;
    case TensorType::kInt16:
      // elementwise.cc AbsInt16EvalImpl: the abs in int32, narrowed (-32768 stays -32768).
      MapElements<int16_t>(context, [](int16_t x) { return static_cast<int16_t>(std::abs(x)); });
      break;
    default:
      MapElements<float>(context, [](float x) { return std::abs(x); });
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
