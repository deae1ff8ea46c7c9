#include "runtime/kernels/cpu/quantized_reduce.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

struct MeanPlan {
  std::vector<bool> reduced;  // per input dimension
  QuantParams in, out;
};

Result<MeanPlan> Plan(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  auto axes = ReadIndexTensor(context.input(1), "axis");
  if (!axes.ok()) return axes.status();
  MeanPlan plan;
  plan.reduced.assign(static_cast<size_t>(in.Rank()), false);
  for (int64_t a : *axes) {
    auto axis = ResolveAxis(a, in.Rank());
    if (!axis.ok()) return axis.status();
    plan.reduced[static_cast<size_t>(*axis)] = true;
  }
  std::vector<int32_t> shape;
  for (int d = 0; d < in.Rank(); ++d) {
    if (!plan.reduced[static_cast<size_t>(d)]) {
      shape.push_back(in.Dim(d));
    } else if (context.options().keep_dims) {
      shape.push_back(1);
    }
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, shape));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  if (in.type == TensorType::kInt16 && (pi->zero_point != 0 || po->zero_point != 0))
    return Status::Error("int16 quantization is symmetric: every zero point must be 0");
  plan.in = *pi;
  plan.out = *po;
  return plan;
}

// Raw sums of the stored values over the reduced dimensions, one per output element (in the
// output's row-major order).
template <typename T>
std::vector<int32_t> Sums(const RuntimeTensor& in, const std::vector<bool>& reduced,
                          int64_t outputs) {
  std::vector<int32_t> sums(static_cast<size_t>(outputs), 0);
  const T* x = in.Data<const T>();
  const int rank = in.Rank();
  // Output strides of the kept dimensions (0 for reduced ones).
  std::vector<int64_t> stride(static_cast<size_t>(rank), 0);
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (reduced[static_cast<size_t>(d)]) continue;
    stride[static_cast<size_t>(d)] = s;
    s *= in.Dim(d);
  }
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  int64_t o = 0;
  const int64_t total = in.NumElements();
  for (int64_t i = 0; i < total; ++i) {
    // Wrapping, as upstream's int32 accumulator does in practice (int16 sums can overflow it).
    int32_t& sum = sums[static_cast<size_t>(o)];
    sum = static_cast<int32_t>(static_cast<uint32_t>(sum) + static_cast<uint32_t>(int32_t{x[i]}));
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      ++index[ud];
      o += stride[ud];
      if (index[ud] < in.Dim(d)) break;
      o -= stride[ud] * in.Dim(d);
      index[ud] = 0;
    }
  }
  return sums;
}

template <typename T>
void Mean(KernelContext& context, const MeanPlan& plan) {
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const int64_t outputs = out.NumElements();
  const int64_t count = outputs > 0 ? in.NumElements() / outputs : 0;
  T* y = out.Data<T>();
  const QuantizedRange range = TypeRange(out.type);
  if (in.NumElements() == 0 || count == 0) {
    std::fill(y, y + outputs, T{0});
    return;
  }
  const std::vector<int32_t> sums = Sums<T>(in, plan.reduced, outputs);
  const bool spatial_4d = in.type != TensorType::kInt16 && in.Rank() == 4 &&
                          context.options().keep_dims &&
                          plan.reduced == std::vector<bool>{false, true, true, false};
  if (spatial_4d) {
    // optimized_integer_ops::Mean (uint8: optimized_ops::Mean, same arithmetic).
    float folded = static_cast<float>(plan.in.zero_point) * plan.in.scale / plan.out.scale;
    folded = folded > 0 ? folded + 0.5f : folded - 0.5f;
    const int32_t bias = plan.out.zero_point - static_cast<int32_t>(folded);
    const float real = plan.in.scale / (static_cast<float>(count) * plan.out.scale);
    const QuantizedMultiplier m = QuantizeMultiplier(real);
    for (int64_t i = 0; i < outputs; ++i)
      y[i] = static_cast<T>(
          range.Clamp(MultiplyByQuantizedMultiplier(sums[static_cast<size_t>(i)], m) + bias));
    return;
  }
  QuantizedMultiplier m =
      QuantizeMultiplier(static_cast<double>(plan.in.scale) / static_cast<double>(plan.out.scale));
  int shift = 63 - std::countl_zero(static_cast<uint64_t>(count));
  shift = std::min({shift, 32, 31 + m.shift});
  m.multiplier = static_cast<int32_t>((static_cast<int64_t>(m.multiplier) << shift) / count);
  m.shift -= shift;
  const auto offset = static_cast<int32_t>(plan.in.zero_point * count);
  for (int64_t i = 0; i < outputs; ++i) {
    const int32_t v = MultiplyByQuantizedMultiplier(sums[static_cast<size_t>(i)] - offset, m) +
                      plan.out.zero_point;
    y[i] = static_cast<T>(range.Clamp(v));
  }
}

// optimized_ops::QuantizedMeanOrSum with compute_sum, the path upstream's SUM takes: the int32
// sum rescaled in float, the input zero point folded into a float bias, rounded half away from
// zero.
template <typename T>
void Sum(KernelContext& context, const MeanPlan& plan) {
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const int64_t outputs = out.NumElements();
  T* y = out.Data<T>();
  if (in.NumElements() == 0 || outputs == 0) {
    std::fill(y, y + outputs, T{0});
    return;
  }
  const int64_t count = in.NumElements() / outputs;
  const std::vector<int32_t> sums = Sums<T>(in, plan.reduced, outputs);
  const float scale = plan.in.scale / plan.out.scale;
  const float bias = static_cast<float>(-plan.in.zero_point) * scale * static_cast<float>(count);
  const QuantizedRange range = TypeRange(out.type);
  for (int64_t i = 0; i < outputs; ++i) {
    const float real = static_cast<float>(sums[static_cast<size_t>(i)]) * scale + bias;
    // Clamped first: a float beyond int32 has no defined conversion (every such value saturates).
    const float rounded = std::clamp(std::round(real), -2147483648.0f, 2147483520.0f);
    const int64_t v = static_cast<int64_t>(rounded) + plan.out.zero_point;
    y[i] = static_cast<T>(std::clamp<int64_t>(v, range.min, range.max));
  }
}

}  // namespace

Status PrepareQuantizedMean(KernelContext& context) { return Plan(context).status(); }

Status EvalQuantizedMean(KernelContext& context) {
  auto plan = Plan(context);
  if (!plan.ok()) return plan.status();
  switch (context.input(0).type) {
    case TensorType::kInt8:
      Mean<int8_t>(context, *plan);
      break;
    case TensorType::kInt16:
      Mean<int16_t>(context, *plan);
      break;
    default:
      Mean<uint8_t>(context, *plan);
      break;
  }
  return Status::Ok();
}

Status EvalQuantizedSum(KernelContext& context) {
  auto plan = Plan(context);
  if (!plan.ok()) return plan.status();
  switch (context.input(0).type) {
    case TensorType::kInt8:
      Sum<int8_t>(context, *plan);
      break;
    case TensorType::kInt16:
      Sum<int16_t>(context, *plan);
      break;
    default:
      Sum<uint8_t>(context, *plan);
      break;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
