#include "runtime/kernels/cpu/reduce_generic.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

constexpr std::array kExtremumTypes = {TensorType::kFloat32, TensorType::kInt32,
                                       TensorType::kInt64,   TensorType::kInt8,
                                       TensorType::kUInt8,   TensorType::kInt16};
constexpr std::array kProdTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt64};
constexpr std::array kQuantizedProdTypes = {TensorType::kInt8, TensorType::kInt16};
constexpr std::array kLogicalTypes = {TensorType::kBool};

// The distinct reduced axes in the order first named, after checking types and the output shape.
Result<std::vector<int32_t>> ResolvedAxes(const KernelContext& context,
                                          std::span<const TensorType> types) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, types, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  auto axes = ReadIndexTensor(context.input(1), "axis");
  if (!axes.ok()) return axes.status();
  std::vector<int32_t> resolved;
  for (int64_t a : *axes) {
    auto axis = ResolveAxis(a, in.Rank());
    if (!axis.ok()) return axis.status();
    if (std::find(resolved.begin(), resolved.end(), *axis) == resolved.end()) {
      resolved.push_back(*axis);
    }
  }
  std::vector<int32_t> shape;
  for (int d = 0; d < in.Rank(); ++d) {
    const bool reduced = std::find(resolved.begin(), resolved.end(), d) != resolved.end();
    if (!reduced) {
      shape.push_back(in.Dim(d));
    } else if (context.options().keep_dims) {
      shape.push_back(1);
    }
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return resolved;
}

// reduce.cc compares stored int8/uint8/int16 values only when both sides share their
// quantization.
Status CheckSameQuantization(const KernelContext& context) {
  const RuntimeTensor& in = context.input(0);
  if (in.type != TensorType::kInt8 && in.type != TensorType::kUInt8 &&
      in.type != TensorType::kInt16) {
    return Status::Ok();
  }
  const auto params = [](const RuntimeTensor& t) {
    const Quantization* q = t.quantization;
    const float scale = q && !q->scale.empty() ? q->scale[0] : 0.0f;
    const int64_t zero_point = q && !q->zero_point.empty() ? q->zero_point[0] : 0;
    return std::pair{scale, zero_point};
  };
  if (params(in) != params(context.output(0))) {
    return Status::Error("input and output must share scale and zero point");
  }
  return Status::Ok();
}

template <typename T, typename Reducer>
void ReduceTyped(const KernelContext& context, const std::vector<int32_t>& axes, T init,
                 Reducer reduce) {
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const T* x = in.Data<const T>();
  T* y = out.Data<T>();
  const int rank = in.Rank();
  std::fill(y, y + out.NumElements(), init);
  std::vector<int64_t> strides(static_cast<size_t>(rank), 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (std::find(axes.begin(), axes.end(), d) != axes.end()) continue;
    strides[static_cast<size_t>(d)] = stride;
    stride *= in.Dim(d);
  }
  const int64_t total = in.NumElements();
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  int64_t o = 0;
  for (int64_t i = 0; i < total; ++i) {
    y[o] = reduce(y[o], x[i]);
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      o += strides[ud];
      if (++index[ud] < in.Dim(d)) break;
      o -= strides[ud] * in.Dim(d);
      index[ud] = 0;
    }
  }
}

// optimized_ops::ReduceGeneric's normalized dims: runs of adjacent dimensions that are all
// reduced or all kept, merged into their product.
std::vector<int32_t> NormalizedDims(const RuntimeTensor& in, const std::vector<int32_t>& axes) {
  std::vector<int32_t> dims;
  bool previous_reduced = false;
  for (int d = 0; d < in.Rank(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!dims.empty() && reduced == previous_reduced) {
      dims.back() *= in.Dim(d);
    } else {
      dims.push_back(in.Dim(d));
    }
    previous_reduced = reduced;
  }
  return dims;
}

Result<std::vector<int32_t>> PrepareAxes(KernelContext& context,
                                         std::span<const TensorType> types) {
  auto axes = ResolvedAxes(context, types);
  if (!axes.ok()) return axes.status();
  const auto bytes = static_cast<uint64_t>(axes->size()) * sizeof(int32_t);
  if (RuntimeTensor* t = context.temporary(1, bytes)) {
    std::copy(axes->begin(), axes->end(), t->Data<int32_t>());
  }
  const std::vector<int32_t> dims = NormalizedDims(context.input(0), *axes);
  if (RuntimeTensor* t = context.temporary(3, dims.size() * sizeof(int32_t))) {
    std::copy(dims.begin(), dims.end(), t->Data<int32_t>());
  }
  return axes;
}

template <typename T>
T Lowest() {
  return std::numeric_limits<T>::lowest();
}

template <typename T>
T Highest() {
  return std::numeric_limits<T>::max();
}

template <bool kMax>
Status EvalExtremum(KernelContext& context) {
  auto axes = PrepareAxes(context, kExtremumTypes);
  if (!axes.ok()) return axes.status();
  TFA_RETURN_IF_ERROR(CheckSameQuantization(context));
  const auto run = [&]<typename T>(T) {
    if constexpr (kMax) {
      ReduceTyped<T>(context, *axes, Lowest<T>(),
                     [](T current, T in) { return in > current ? in : current; });
    } else {
      ReduceTyped<T>(context, *axes, Highest<T>(),
                     [](T current, T in) { return in < current ? in : current; });
    }
  };
  switch (context.input(0).type) {
    case TensorType::kInt32:
      run(int32_t{});
      break;
    case TensorType::kInt64:
      run(int64_t{});
      break;
    case TensorType::kInt8:
      run(int8_t{});
      break;
    case TensorType::kUInt8:
      run(uint8_t{});
      break;
    case TensorType::kInt16:
      run(int16_t{});
      break;
    default:
      run(float{});
  }
  return Status::Ok();
}

// Integer products wrap, as upstream's MulTensorValuesWithExpectedOverflow.
template <typename T>
T WrappingMultiply(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using Unsigned = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<Unsigned>(a) * static_cast<Unsigned>(b));
  } else {
    return a * b;
  }
}

bool IsQuantized(const RuntimeTensor& t) {
  return t.quantization != nullptr && !t.quantization->scale.empty();
}

// The int64 overload of upstream's MultiplyByQuantizedMultiplier (common.cc): the multiplier cut
// to 15 bits, one rounding.
int32_t MultiplyWideByQuantizedMultiplier(int64_t x, QuantizedMultiplier m) {
  const int64_t reduced =
      m.multiplier < 0x7fff0000 ? (int64_t{m.multiplier} + (1 << 15)) >> 16 : 0x7fff;
  const int total_shift = 15 - m.shift;
  return static_cast<int32_t>((x * reduced + (int64_t{1} << (total_shift - 1))) >> total_shift);
}

struct QuantizedProdPlan {
  std::vector<int32_t> axes;
  QuantParams in, out;
  QuantizedMultiplier multiplier;  // per factor: s_in / s_out^(1 / reduced count)
};

Result<QuantizedProdPlan> PlanQuantizedProd(KernelContext& context) {
  auto axes = PrepareAxes(context, kQuantizedProdTypes);
  if (!axes.ok()) return axes.status();
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  if (in.type == TensorType::kInt16 && (pi->zero_point != 0 || po->zero_point != 0))
    return Status::Error("int16 quantization is symmetric: every zero point must be 0");
  QuantizedProdPlan plan{*axes, *pi, *po, {}};
  const int64_t outputs = out.NumElements();
  if (in.NumElements() != 0 && outputs != 0) {
    const auto count = static_cast<int>(in.NumElements() / outputs);
    plan.multiplier = QuantizeMultiplier(static_cast<double>(pi->scale) /
                                         std::pow(static_cast<double>(po->scale), 1.0 / count));
    // The int64 multiply's shift range (common.cc checks -31 <= shift < 8).
    if (plan.multiplier.shift >= 8)
      return Status::Error("REDUCE_PROD's per-factor scale is out of upstream's range");
  }
  return plan;
}

// reduce.cc EvalQuantizedProd (optimized QuantizedReduceProd): each output's first factor minus
// the zero point, every further one multiplied in and rescaled, the product rescaled once more.
template <typename T>
void QuantizedProd(KernelContext& context, const QuantizedProdPlan& plan) {
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  if (plan.axes.empty()) {
    // ReduceIsCopy: no axis copies the stored values, whatever the scales.
    if (in.bytes > 0) std::memcpy(out.data, in.data, in.bytes);
    return;
  }
  const int64_t outputs = out.NumElements();
  std::vector<int32_t> products(static_cast<size_t>(outputs), 0);
  std::vector<bool> started(static_cast<size_t>(outputs), false);
  const int rank = in.Rank();
  std::vector<int64_t> strides(static_cast<size_t>(rank), 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (std::find(plan.axes.begin(), plan.axes.end(), d) != plan.axes.end()) continue;
    strides[static_cast<size_t>(d)] = stride;
    stride *= in.Dim(d);
  }
  const T* x = in.Data<const T>();
  const int32_t zp = plan.in.zero_point;
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  int64_t o = 0;
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    const auto uo = static_cast<size_t>(o);
    const int32_t factor = int32_t{x[i]} - zp;
    products[uo] = started[uo] ? MultiplyWideByQuantizedMultiplier(int64_t{products[uo]} * factor,
                                                                   plan.multiplier)
                               : factor;
    started[uo] = true;
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      o += strides[ud];
      if (++index[ud] < in.Dim(d)) break;
      o -= strides[ud] * in.Dim(d);
      index[ud] = 0;
    }
  }
  const QuantizedRange range = TypeRange(out.type);
  T* y = out.Data<T>();
  for (int64_t i = 0; i < outputs; ++i) {
    const int32_t v =
        MultiplyWideByQuantizedMultiplier(products[static_cast<size_t>(i)], plan.multiplier) +
        plan.out.zero_point;
    y[i] = static_cast<T>(range.Clamp(v));
  }
}

Status EvalReduceLogical(KernelContext& context, bool any) {
  auto axes = PrepareAxes(context, kLogicalTypes);
  if (!axes.ok()) return axes.status();
  // Bytes normalised to 0/1 so the stored output is a proper bool.
  if (any) {
    ReduceTyped<uint8_t>(context, *axes, 0, [](uint8_t current, uint8_t in) -> uint8_t {
      return (in != 0 || current != 0) ? 1 : 0;
    });
  } else {
    ReduceTyped<uint8_t>(context, *axes, 1, [](uint8_t current, uint8_t in) -> uint8_t {
      return (in != 0 && current != 0) ? 1 : 0;
    });
  }
  return Status::Ok();
}

}  // namespace

Status PrepareReduceExtremum(KernelContext& context) {
  TFA_RETURN_IF_ERROR(ResolvedAxes(context, kExtremumTypes).status());
  return CheckSameQuantization(context);
}

Status EvalReduceMax(KernelContext& context) { return EvalExtremum<true>(context); }
Status EvalReduceMin(KernelContext& context) { return EvalExtremum<false>(context); }

Status PrepareReduceProd(KernelContext& context) {
  if (IsQuantized(context.input(0))) return PlanQuantizedProd(context).status();
  return ResolvedAxes(context, kProdTypes).status();
}

Status EvalReduceProd(KernelContext& context) {
  if (IsQuantized(context.input(0))) {
    auto plan = PlanQuantizedProd(context);
    if (!plan.ok()) return plan.status();
    if (context.input(0).NumElements() == 0) return Status::Ok();  // upstream writes nothing
    if (context.input(0).type == TensorType::kInt8) {
      QuantizedProd<int8_t>(context, *plan);
    } else {
      QuantizedProd<int16_t>(context, *plan);
    }
    return Status::Ok();
  }
  auto axes = PrepareAxes(context, kProdTypes);
  if (!axes.ok()) return axes.status();
  switch (context.input(0).type) {
    case TensorType::kInt32:
      ReduceTyped<int32_t>(context, *axes, 1, WrappingMultiply<int32_t>);
      break;
    case TensorType::kInt64:
      ReduceTyped<int64_t>(context, *axes, 1, WrappingMultiply<int64_t>);
      break;
    default:
      ReduceTyped<float>(context, *axes, 1.0f, WrappingMultiply<float>);
  }
  return Status::Ok();
}

Status PrepareReduceLogical(KernelContext& context) {
  return ResolvedAxes(context, kLogicalTypes).status();
}

Status EvalReduceAny(KernelContext& context) { return EvalReduceLogical(context, true); }
Status EvalReduceAll(KernelContext& context) { return EvalReduceLogical(context, false); }

}  // namespace tfa::runtime
