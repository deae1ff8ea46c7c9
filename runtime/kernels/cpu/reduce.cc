#include "runtime/kernels/cpu/reduce.h"

#include <algorithm>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// Which input dimensions are reduced, after checking the output shape.
Result<std::vector<bool>> ReducedDims(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
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

Status Reduce(KernelContext& context, bool mean) {
  auto reduced = ReducedDims(context);
  if (!reduced.ok()) return reduced.status();
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const float* x = in.Data<const float>();
  float* y = out.Data<float>();
  const int64_t out_count = out.NumElements();
  std::fill(y, y + out_count, 0.0f);
  // Output strides of the kept dimensions; reduced ones contribute nothing to the index.
  const int rank = in.Rank();
  std::vector<int64_t> strides(static_cast<size_t>(rank), 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if ((*reduced)[static_cast<size_t>(d)]) continue;
    strides[static_cast<size_t>(d)] = stride;
    stride *= in.Dim(d);
  }
  const int64_t total = in.NumElements();
  std::vector<int32_t> index(static_cast<size_t>(rank), 0);
  int64_t o = 0;
  for (int64_t i = 0; i < total; ++i) {
    y[o] += x[i];
    for (int d = rank - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      o += strides[ud];
      if (++index[ud] < in.Dim(d)) break;
      o -= strides[ud] * in.Dim(d);
      index[ud] = 0;
    }
  }
  if (mean && out_count > 0) {
    const float count = static_cast<float>(total / out_count);
    for (int64_t i = 0; i < out_count; ++i) y[i] /= count;
  }
  return Status::Ok();
}

}  // namespace

Status PrepareReduce(KernelContext& context) { return ReducedDims(context).status(); }
Status EvalMean(KernelContext& context) { return Reduce(context, true); }
Status EvalSum(KernelContext& context) { return Reduce(context, false); }

}  // namespace tfa::runtime
