#include "runtime/kernels/cpu/quantized_reduce.h"

#include <algorithm>
#include <bit>
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
    sums[static_cast<size_t>(o)] += x[i];
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
  const bool spatial_4d = in.Rank() == 4 && context.options().keep_dims &&
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

}  // namespace

Status PrepareQuantizedMean(KernelContext& context) { return Plan(context).status(); }

Status EvalQuantizedMean(KernelContext& context) {
  auto plan = Plan(context);
  if (!plan.ok()) return plan.status();
  if (context.input(0).type == TensorType::kInt8) {
    Mean<int8_t>(context, *plan);
  } else {
    Mean<uint8_t>(context, *plan);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
