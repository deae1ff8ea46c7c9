#include "runtime/kernels/cpu/window_geometry.h"

#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Result<ConvGeometry> ConvGeometryOf(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& filter = context.input(1);
  TFA_RETURN_IF_ERROR(CheckRank(input, 4, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(filter, 4, "filter"));
  ConvGeometry g{};
  g.batches = input.Dim(0);
  g.in_h = input.Dim(1);
  g.in_w = input.Dim(2);
  g.in_c = input.Dim(3);
  g.out_c = filter.Dim(0);
  g.kh = filter.Dim(1);
  g.kw = filter.Dim(2);
  if (filter.Dim(3) != g.in_c) {
    return Status::Error("filter " + ShapeString(filter.shape) + " does not match input channels " +
                         std::to_string(g.in_c) + " (grouped convolution is not supported)");
  }
  TFA_RETURN_IF_ERROR(FillConvWindow(context.options(), g));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {g.batches, g.out_h, g.out_w, g.out_c}));
  return g;
}

Result<DepthwiseGeometry> DepthwiseGeometryOf(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& filter = context.input(1);
  TFA_RETURN_IF_ERROR(CheckRank(input, 4, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(filter, 4, "filter"));
  DepthwiseGeometry g{};
  g.batches = input.Dim(0);
  g.in_h = input.Dim(1);
  g.in_w = input.Dim(2);
  g.in_c = input.Dim(3);
  g.kh = filter.Dim(1);
  g.kw = filter.Dim(2);
  g.out_c = filter.Dim(3);
  if (filter.Dim(0) != 1 || g.in_c == 0 || g.out_c % g.in_c != 0) {
    return Status::Error("filter " + ShapeString(filter.shape) + " does not fit input " +
                         ShapeString(input.shape));
  }
  // Upstream derives the multiplier from the shapes; the option only has to agree.
  g.multiplier = g.out_c / g.in_c;
  TFA_RETURN_IF_ERROR(FillConvWindow(context.options(), g));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {g.batches, g.out_h, g.out_w, g.out_c}));
  return g;
}

Result<PoolGeometry> PoolGeometryOf(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& input = context.input(0);
  TFA_RETURN_IF_ERROR(CheckRank(input, 4, "input"));
  const OpOptions& o = context.options();
  if (o.stride_h <= 0 || o.stride_w <= 0 || o.filter_h <= 0 || o.filter_w <= 0) {
    return Status::Error("strides and filter sizes must be positive");
  }
  PoolGeometry g{};
  g.batches = input.Dim(0);
  g.in_h = input.Dim(1);
  g.in_w = input.Dim(2);
  g.channels = input.Dim(3);
  g.out_h = ConvOutputSize(o.padding, g.in_h, o.filter_h, o.stride_h, 1);
  g.out_w = ConvOutputSize(o.padding, g.in_w, o.filter_w, o.stride_w, 1);
  g.pad_top = ConvPaddingBefore(o.padding, g.in_h, o.filter_h, o.stride_h, 1, g.out_h);
  g.pad_left = ConvPaddingBefore(o.padding, g.in_w, o.filter_w, o.stride_w, 1, g.out_w);
  TFA_RETURN_IF_ERROR(
      CheckOutputShape(context.output(0), {g.batches, g.out_h, g.out_w, g.channels}));
  return g;
}

Result<FullyConnectedGeometry> FullyConnectedGeometryOf(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& weights = context.input(1);
  TFA_RETURN_IF_ERROR(CheckRank(weights, 2, "weights"));
  if (context.options().weights_format != 0)
    return Status::Error("only the default weights format is supported");
  TFA_RETURN_IF_ERROR(CheckDenseWeights(weights));
  FullyConnectedGeometry g{0, weights.Dim(1), weights.Dim(0)};
  if (g.in_dim == 0 || in.NumElements() % g.in_dim != 0) {
    return Status::Error("input " + ShapeString(in.shape) + " does not fit weights " +
                         ShapeString(weights.shape));
  }
  g.batch = in.NumElements() / g.in_dim;
  std::vector<int32_t> shape;
  if (context.options().keep_num_dims) {
    shape = in.shape;
    shape.back() = static_cast<int32_t>(g.units);
  } else {
    shape = {static_cast<int32_t>(g.batch), static_cast<int32_t>(g.units)};
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return g;
}

Status CheckDenseWeights(const RuntimeTensor& weights) {
  if (weights.sparsity == nullptr) return Status::Ok();
  return Status::Error(
      "sparse weights are not supported (upstream's sparse FULLY_CONNECTED paths are not "
      "modelled)");
}

}  // namespace tfa::runtime
