#include "runtime/kernels/cpu/reduce.h"

#include <algorithm>
#include <array>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// Which input dimensions are reduced, after checking the output shape.
Result<std::vector<bool>> ReducedDims(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  constexpr std::array kTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt64};
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  auto axes = ReadIndexTensor(context.input(1), "axis");
  if (!axes.ok()) return axes.status();
  std::vector<bool> reduced(static_cast<size_t>(in.Rank()), false);
  for (int64_t a : *axes) {
    auto axis = ResolveAxis(a, in.Rank());
    if (!axis.ok()) return axis.status();
    reduced[static_cast<size_t>(*axis)] = true;
  }
  std::vector<int32_t> shape;
  for (int d = 0; d < in.Rank(); ++d) {
    if (!reduced[static_cast<size_t>(d)]) {
      shape.push_back(in.Dim(d));
    } else if (context.options().keep_dims) {
      shape.push_back(1);
    }
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return reduced;
}

// Float sums in float; integer ones in the accumulator upstream uses (int64 for MEAN's temporary,
// the element type for SUM), wrapping, and MEAN divides them with truncation.
template <typename T, typename Accumulator>
void Reduce(KernelContext& context, const std::vector<bool>& reduced, bool mean) {
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const T* x = in.Data<const T>();
  const int64_t out_count = out.NumElements();
  std::vector<Accumulator> sums(static_cast<size_t>(out_count), Accumulator{0});
  // Output strides of the kept dimensions; reduced ones contribute nothing to the index.
  const int rank = in.Rank();
  std::vector<int64_t> strides(static_cast<size_t>(rank), 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (reduced[static_cast<size_t>(d)]) continue;
    strides[static_cast<size_t>(d)] = stride;
    stride *= in.Dim(d);
  }
  const int64_t total = in.NumElements();
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  int64_t o = 0;
  for (int64_t i = 0; i < total; ++i) {
    Accumulator& sum = sums[static_cast<size_t>(o)];
    if constexpr (std::is_floating_point_v<Accumulator>) {
      sum += x[i];
    } else {
      using U = std::make_unsigned_t<Accumulator>;
      sum = static_cast<Accumulator>(static_cast<U>(sum) + static_cast<U>(x[i]));
    }
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      o += strides[ud];
      if (++index[ud] < in.Dim(d)) break;
      o -= strides[ud] * in.Dim(d);
      index[ud] = 0;
    }
  }
  T* y = out.Data<T>();
  const int64_t count = out_count > 0 ? total / out_count : 0;
  for (int64_t i = 0; i < out_count; ++i) {
    const Accumulator sum = sums[static_cast<size_t>(i)];
    if (!mean || count == 0) {
      y[i] = static_cast<T>(sum);
    } else if constexpr (std::is_floating_point_v<Accumulator>) {
      y[i] = sum / static_cast<Accumulator>(count);
    } else {
      y[i] = static_cast<T>(sum / static_cast<Accumulator>(count));
    }
  }
}

Status Reduce(KernelContext& context, bool mean) {
  auto reduced = ReducedDims(context);
  if (!reduced.ok()) return reduced.status();
  switch (context.input(0).type) {
    case TensorType::kInt32:
      if (mean) {
        Reduce<int32_t, int64_t>(context, *reduced, mean);
      } else {
        Reduce<int32_t, int32_t>(context, *reduced, mean);
      }
      break;
    case TensorType::kInt64:
      Reduce<int64_t, int64_t>(context, *reduced, mean);
      break;
    default:
      Reduce<float, float>(context, *reduced, mean);
      break;
  }
  return Status::Ok();
}

}  // namespace

Status PrepareReduce(KernelContext& context) { return ReducedDims(context).status(); }
Status EvalMean(KernelContext& context) { return Reduce(context, true); }
Status EvalSum(KernelContext& context) { return Reduce(context, false); }

}  // namespace tfa::runtime
