// Shape rules of convolutions, pools, matrix products and image resizes.

#include <algorithm>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa::shape_rules {

using prepare_internal::Elements;
using prepare_internal::Operand;

namespace {

// tflite/kernels/padding.h ComputeOutSize.
Result<int32_t> WindowOutSize(const RuleInput& in, int32_t image, int32_t filter, int32_t stride,
                              int32_t dilation) {
  if (stride <= 0) return Fail(in, "stride " + std::to_string(stride) + " is not positive");
  const int64_t effective_filter = (static_cast<int64_t>(filter) - 1) * dilation + 1;
  int64_t out = 0;
  switch (in.node.options->padding) {
    case Padding::kSame:
      out = (static_cast<int64_t>(image) + stride - 1) / stride;
      break;
    case Padding::kValid:
      out = (static_cast<int64_t>(image) + stride - effective_filter) / stride;
      break;
    case Padding::kUnknown:
      break;
  }
  if (out < 0) {
    return Fail(in, "input size " + std::to_string(image) + " is smaller than the filter (" +
                        std::to_string(effective_filter) + ")");
  }
  return static_cast<int32_t>(out);
}

}  // namespace

// CONV_2D / DEPTHWISE_CONV_2D (conv.cc, depthwise_conv.cc): NHWC input, OHWI filter (1HWO for
// depthwise); the output channels are the filter's first (depthwise: last) dimension.
Outcome Conv2DRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  auto filter = InputShape(in, 1);
  if (!filter.ok()) return filter.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 4, "input"));
  TFA_RETURN_IF_ERROR(RequireRank(in, *filter, 4, "filter"));
  const OpOptions& o = in.node.options;
  const bool depthwise = in.node.op == "DEPTHWISE_CONV_2D";
  if (!depthwise && ((*filter)[3] <= 0 || (*input)[3] % (*filter)[3] != 0)) {
    return Fail(in, "input channels " + std::to_string((*input)[3]) +
                        " are not a multiple of the filter's " + std::to_string((*filter)[3]));
  }
  auto h = WindowOutSize(in, (*input)[1], (*filter)[1], o.stride_h, o.dilation_h);
  if (!h.ok()) return h.status();
  auto w = WindowOutSize(in, (*input)[2], (*filter)[2], o.stride_w, o.dilation_w);
  if (!w.ok()) return w.status();
  return OneShape({(*input)[0], *h, *w, depthwise ? (*filter)[3] : (*filter)[0]});
}

// CONV_3D (conv3d.cc): NDHWC input, DHWIO filter.
Outcome Conv3DRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  auto filter = InputShape(in, 1);
  if (!filter.ok()) return filter.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 5, "input"));
  TFA_RETURN_IF_ERROR(RequireRank(in, *filter, 5, "filter"));
  if ((*input)[4] != (*filter)[3]) {
    return Fail(in, "input channels " + std::to_string((*input)[4]) + " differ from the filter's " +
                        std::to_string((*filter)[3]));
  }
  const OpOptions& o = in.node.options;
  auto d = WindowOutSize(in, (*input)[1], (*filter)[0], o.stride_d, o.dilation_d);
  if (!d.ok()) return d.status();
  auto h = WindowOutSize(in, (*input)[2], (*filter)[1], o.stride_h, o.dilation_h);
  if (!h.ok()) return h.status();
  auto w = WindowOutSize(in, (*input)[3], (*filter)[2], o.stride_w, o.dilation_w);
  if (!w.ok()) return w.status();
  return OneShape({(*input)[0], *d, *h, *w, (*filter)[4]});
}

// Pools (pooling.cc): the window is in the options, dilation 1.
Outcome PoolRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 4, "input"));
  const OpOptions& o = in.node.options;
  auto h = WindowOutSize(in, (*input)[1], o.filter_h, o.stride_h, 1);
  if (!h.ok()) return h.status();
  auto w = WindowOutSize(in, (*input)[2], o.filter_w, o.stride_w, 1);
  if (!w.ok()) return w.status();
  return OneShape({(*input)[0], *h, *w, (*input)[3]});
}

// FULLY_CONNECTED (fully_connected.cc): [elements / input depth, units], or with keep_num_dims the
// input's shape with its last dimension replaced by the units. A second output (the shuffled
// weights format's workspace) keeps the shape the converter gave it.
Outcome FullyConnectedRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  auto filter = InputShape(in, 1);
  if (!filter.ok()) return filter.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *filter, 2, "weights"));
  const int32_t units = (*filter)[0];
  const int32_t depth = (*filter)[1];
  Shape out;
  if (in.node.options->keep_num_dims) {
    if (input->empty() || input->back() != depth) {
      return Fail(in, "input " + ShapeText(*input) + " does not end in the weights' depth " +
                          std::to_string(depth));
    }
    out = *input;
    out.back() = units;
  } else {
    const auto elements = Elements(*input);
    if (!elements || depth <= 0 || *elements % static_cast<uint64_t>(depth) != 0) {
      return Fail(in, "input " + ShapeText(*input) + " is not a whole number of rows of depth " +
                          std::to_string(depth));
    }
    auto batch = ToDimension(in, static_cast<int64_t>(*elements / static_cast<uint64_t>(depth)));
    if (!batch.ok()) return batch.status();
    out = {*batch, units};
  }
  std::vector<Shape> shapes = {out};
  for (size_t i = 1; i < in.node.outputs.size(); ++i) {
    const Tensor* extra = Operand(in.subgraph, in.node.outputs, i);
    shapes.push_back(extra == nullptr ? Shape{} : Shape(extra->shape));
  }
  return Shapes(std::move(shapes));
}

// BATCH_MATMUL (batch_matmul.cc): batch dimensions broadcast; rows of the (adjointed) lhs times
// columns of the (adjointed) rhs.
Outcome BatchMatMulRule(const RuleInput& in) {
  auto lhs = InputShape(in, 0);
  if (!lhs.ok()) return lhs.status();
  auto rhs = InputShape(in, 1);
  if (!rhs.ok()) return rhs.status();
  if (lhs->size() < 2 || lhs->size() > 5 || rhs->size() < 2 || rhs->size() > 5) {
    return Fail(
        in, "operands " + ShapeText(*lhs) + " and " + ShapeText(*rhs) + " are not of rank 2 to 5");
  }
  const size_t rank = std::max(lhs->size(), rhs->size());
  Shape l(rank - lhs->size(), 1), r(rank - rhs->size(), 1);
  l.insert(l.end(), lhs->begin(), lhs->end());
  r.insert(r.end(), rhs->begin(), rhs->end());
  const bool adj_x = in.node.options->adj_x, adj_y = in.node.options->adj_y;
  const int32_t lhs_depth = adj_x ? l[rank - 2] : l[rank - 1];
  const int32_t rhs_depth = adj_y ? r[rank - 1] : r[rank - 2];
  if (lhs_depth != rhs_depth) {
    return Fail(in, "operands " + ShapeText(*lhs) + " and " + ShapeText(*rhs) +
                        " do not multiply (depths " + std::to_string(lhs_depth) + " and " +
                        std::to_string(rhs_depth) + ")");
  }
  Shape out(rank);
  for (size_t i = 0; i + 2 < rank; ++i) {
    if (l[i] != r[i] && l[i] != 1 && r[i] != 1) {
      return Fail(in, "batch dimensions of " + ShapeText(*lhs) + " and " + ShapeText(*rhs) +
                          " do not broadcast");
    }
    out[i] = l[i] == 1 ? r[i] : l[i];
  }
  out[rank - 2] = adj_x ? l[rank - 1] : l[rank - 2];
  out[rank - 1] = adj_y ? r[rank - 2] : r[rank - 1];
  return OneShape(std::move(out));
}

// RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR: height and width from the size input.
Outcome ResizeRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 4, "input"));
  const auto size = KnownValues(in, 1);
  if (!size) return Dynamic();
  if (size->size() != 2) return Fail(in, "size does not have two entries");
  auto h = ToDimension(in, (*size)[0]);
  if (!h.ok()) return h.status();
  auto w = ToDimension(in, (*size)[1]);
  if (!w.ok()) return w.status();
  return OneShape({(*input)[0], *h, *w, (*input)[3]});
}

}  // namespace tfa::shape_rules
