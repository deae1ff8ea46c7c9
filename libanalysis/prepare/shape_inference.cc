#include "libanalysis/prepare/shape_inference.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <string_view>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {
namespace {

using prepare_internal::Elements;
using prepare_internal::NodeError;
using prepare_internal::Operand;

using Values = std::vector<int64_t>;

// What a rule reads: the node, the subgraph's current shapes and the values the caller knows.
struct RuleInput {
  const Subgraph& subgraph;
  const Node& node;
  const IntValuesOf& values;
};

using Outcome = Result<InferredShapes>;
using ShapeRule = Outcome (*)(const RuleInput&);

std::string ShapeText(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

Outcome Shapes(std::vector<Shape> shapes) { return InferredShapes{std::move(shapes), false}; }
Outcome OneShape(Shape shape) { return Shapes({std::move(shape)}); }
Outcome Dynamic() { return InferredShapes{{}, true}; }
Status Fail(const RuleInput& in, const std::string& reason) { return NodeError(in.node, reason); }

Result<const Tensor*> Input(const RuleInput& in, size_t position) {
  const Tensor* tensor = Operand(in.subgraph, in.node.inputs, position);
  if (tensor == nullptr) return Fail(in, "input " + std::to_string(position) + " is missing");
  return tensor;
}

Result<Shape> InputShape(const RuleInput& in, size_t position) {
  auto tensor = Input(in, position);
  if (!tensor.ok()) return tensor.status();
  return Shape((*tensor)->shape);
}

// The values of input `position` when Prepare knows them: a model constant (upstream's
// IsConstantOrPersistentTensor), or what the caller knows. nullopt: the kernel sizes its output
// at Eval.
std::optional<Values> KnownValues(const RuleInput& in, size_t position) {
  if (position >= in.node.inputs.size() || in.node.inputs[position] < 0) return std::nullopt;
  const int32_t index = in.node.inputs[position];
  const Tensor* tensor = Operand(in.subgraph, in.node.inputs, position);
  if (tensor == nullptr) return std::nullopt;
  if (tensor->is_constant() && Elements(tensor->shape) == tensor->int_values->size()) {
    return tensor->int_values;
  }
  if (in.values) return in.values(index);
  return std::nullopt;
}

// `axis` in [-rank, rank) as a dimension index.
Result<int32_t> ResolveAxis(const RuleInput& in, int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    return Fail(in, "axis " + std::to_string(axis) + " is outside rank " + std::to_string(rank));
  }
  return static_cast<int32_t>(axis < 0 ? axis + r : axis);
}

Result<int32_t> ToDimension(const RuleInput& in, int64_t value) {
  if (value < 0 || value > std::numeric_limits<int32_t>::max()) {
    return Fail(in, "output dimension " + std::to_string(value) + " is out of range");
  }
  return static_cast<int32_t>(value);
}

Status RequireRank(const RuleInput& in, const Shape& shape, size_t rank, const char* what) {
  if (shape.size() != rank) {
    return Fail(
        in, std::string(what) + " " + ShapeText(shape) + " is not of rank " + std::to_string(rank));
  }
  return Status::Ok();
}

// kernel_util.cc CalculateShapeForBroadcast over any number of inputs: shapes align at their last
// dimension; each column is equal or 1.
Result<Shape> BroadcastShapes(const RuleInput& in, const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int32_t dim = 1;
    for (const Shape& s : shapes) {
      const int32_t d = i < s.size() ? s[s.size() - 1 - i] : 1;
      if (d == 1 || d == dim) continue;
      if (dim != 1) {
        std::string text;
        for (size_t k = 0; k < shapes.size(); ++k) {
          text += (k == 0 ? "" : k + 1 == shapes.size() ? " and " : ", ") + ShapeText(shapes[k]);
        }
        return Fail(in, "shapes " + text + " do not broadcast");
      }
      dim = d;
    }
    out[rank - 1 - i] = dim;
  }
  return out;
}

Outcome BroadcastRule(const RuleInput& in) {
  std::vector<Shape> shapes;
  for (size_t i = 0; i < in.node.inputs.size(); ++i) {
    auto shape = InputShape(in, i);
    if (!shape.ok()) return shape.status();
    shapes.push_back(std::move(*shape));
  }
  auto out = BroadcastShapes(in, shapes);
  if (!out.ok()) return out.status();
  return OneShape(std::move(*out));
}

// Ops whose output has their first input's shape (activations, casts, unary math, softmax).
Outcome SameAsInputRule(const RuleInput& in) {
  auto shape = InputShape(in, 0);
  if (!shape.ok()) return shape.status();
  return OneShape(std::move(*shape));
}

// Ops without outputs (ASSIGN_VARIABLE).
Outcome NoOutputsRule(const RuleInput& /*in*/) { return Shapes({}); }

// Outputs sized from runtime state (READ_VARIABLE: the variable's current value).
Outcome AlwaysDynamicRule(const RuleInput& /*in*/) { return Dynamic(); }

// VAR_HANDLE: a resource scalar.
Outcome ScalarRule(const RuleInput& /*in*/) { return OneShape({}); }

// CONCATENATION (tflite/kernels/concatenation.cc): same rank, equal dimensions except on the
// axis, whose sizes add up. A negative axis counts from the end.
Outcome ConcatenationRule(const RuleInput& in) {
  auto first = InputShape(in, 0);
  if (!first.ok()) return first.status();
  Shape out = *first;
  auto axis = ResolveAxis(in, in.node.options->axis, out.size());
  if (!axis.ok()) return axis.status();
  for (size_t i = 1; i < in.node.inputs.size(); ++i) {
    auto shape = InputShape(in, i);
    if (!shape.ok()) return shape.status();
    bool compatible = shape->size() == out.size();
    for (size_t d = 0; compatible && d < out.size(); ++d) {
      compatible = static_cast<int32_t>(d) == *axis || (*shape)[d] == out[d];
    }
    if (!compatible) {
      return Fail(in, "input " + std::to_string(i) + " " + ShapeText(*shape) +
                          " does not concatenate with " + ShapeText(*first) + " on axis " +
                          std::to_string(*axis));
    }
    out[static_cast<size_t>(*axis)] += (*shape)[static_cast<size_t>(*axis)];
  }
  return OneShape(std::move(out));
}

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

// The output shape an int vector input states (TRANSPOSE_CONV, CONV_3D_TRANSPOSE, FILL): known at
// Prepare only when constant, else sized at Eval.
Outcome ShapeFromValuesRule(const RuleInput& in, size_t position) {
  const auto values = KnownValues(in, position);
  if (!values) return Dynamic();
  Shape out;
  for (int64_t v : *values) {
    auto d = ToDimension(in, v);
    if (!d.ok()) return d.status();
    out.push_back(*d);
  }
  return OneShape(std::move(out));
}

Outcome ShapeFromInput0Rule(const RuleInput& in) { return ShapeFromValuesRule(in, 0); }

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

// RESHAPE (reshape.cc): the shape input when it is an int32 vector, else the new_shape option
// ([0] meaning a scalar in old models); one -1 takes what remains. A shape input Prepare cannot
// read leaves the output to Eval, as do string outputs.
Outcome ReshapeRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const Tensor* output = Operand(in.subgraph, in.node.outputs, 0);
  if (output != nullptr && output->type == TensorType::kString) return Dynamic();
  const Tensor* shape_tensor = Operand(in.subgraph, in.node.inputs, 1);
  std::vector<int64_t> requested;
  if (in.node.inputs.size() == 2 && shape_tensor != nullptr) {
    const auto values = KnownValues(in, 1);
    if (!values) return Dynamic();
    if (shape_tensor->shape.size() == 1 && shape_tensor->type == TensorType::kInt32) {
      requested = *values;
    }
  }
  const bool from_tensor = in.node.inputs.size() == 2 && shape_tensor != nullptr &&
                           shape_tensor->shape.size() == 1 &&
                           shape_tensor->type == TensorType::kInt32;
  if (!from_tensor) {
    const std::vector<int32_t>& option = in.node.options->new_shape;
    if (!(option.size() == 1 && option[0] == 0)) requested.assign(option.begin(), option.end());
  }
  const auto elements = Elements(*input);
  if (!elements || *elements > (uint64_t{1} << 62)) {
    return Fail(in, "input " + ShapeText(*input) + " is too large");
  }
  int64_t input_elements = 1, nonzero_input_elements = 1;
  for (int32_t d : *input) {
    input_elements *= d;
    if (d != 0) nonzero_input_elements *= d;
  }
  int64_t output_elements = 1, nonzero_output_elements = 1;
  int stretch = -1;
  for (size_t i = 0; i < requested.size(); ++i) {
    if (requested[i] == -1) {
      if (stretch != -1) return Fail(in, "the new shape has more than one -1");
      stretch = static_cast<int>(i);
      continue;
    }
    if (requested[i] < 0 || requested[i] > std::numeric_limits<int32_t>::max()) {
      return Fail(in, "new shape dimension " + std::to_string(requested[i]) + " is invalid");
    }
    if (requested[i] != 0) nonzero_output_elements *= requested[i];
    output_elements *= requested[i];
    if (nonzero_output_elements > (int64_t{1} << 40)) {
      return Fail(in, "the new shape is too large");
    }
  }
  if (stretch != -1) {
    requested[static_cast<size_t>(stretch)] =
        input_elements == 0 && output_elements != 0
            ? 0
            : nonzero_input_elements / nonzero_output_elements;
    output_elements *= requested[static_cast<size_t>(stretch)];
  }
  if (input_elements != output_elements) {
    std::string text = "[";
    for (size_t i = 0; i < requested.size(); ++i) {
      text += (i ? "," : "") + std::to_string(requested[i]);
    }
    return Fail(in, "input " + ShapeText(*input) + " does not reshape to " + text + "]");
  }
  Shape out;
  for (int64_t v : requested) {
    auto d = ToDimension(in, v);
    if (!d.ok()) return d.status();
    out.push_back(*d);
  }
  return OneShape(std::move(out));
}

// TRANSPOSE (transpose.cc): output dimension i is input dimension perm[i].
Outcome TransposeRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto perm = KnownValues(in, 1);
  if (!perm) return Dynamic();
  if (perm->size() != input->size()) {
    return Fail(
        in, "perm of " + std::to_string(perm->size()) + " entries for input " + ShapeText(*input));
  }
  Shape out;
  for (int64_t p : *perm) {
    auto axis = ResolveAxis(in, p, input->size());
    if (!axis.ok()) return axis.status();
    out.push_back((*input)[static_cast<size_t>(*axis)]);
  }
  return OneShape(std::move(out));
}

// GATHER (gather.cc): params[:axis] + positions[batch_dims:] + params[axis + 1:]. A negative
// batch_dims counts from the end of positions; the batch dimensions of both must agree and lie
// before the axis.
Outcome GatherRule(const RuleInput& in) {
  auto params = InputShape(in, 0);
  if (!params.ok()) return params.status();
  auto positions = InputShape(in, 1);
  if (!positions.ok()) return positions.status();
  auto axis = ResolveAxis(in, in.node.options->axis, params->size());
  if (!axis.ok()) return axis.status();
  int64_t batch_dims = in.node.options->batch_dims;
  if (batch_dims < 0) batch_dims += static_cast<int64_t>(positions->size());
  if (batch_dims < 0 || batch_dims > *axis || static_cast<size_t>(batch_dims) > positions->size()) {
    return Fail(in, "batch_dims " + std::to_string(in.node.options->batch_dims) +
                        " does not fit axis " + std::to_string(*axis) + " and positions " +
                        ShapeText(*positions));
  }
  for (int64_t d = 0; d < batch_dims; ++d) {
    if ((*params)[static_cast<size_t>(d)] != (*positions)[static_cast<size_t>(d)]) {
      return Fail(in, "batch dimensions of params " + ShapeText(*params) + " and positions " +
                          ShapeText(*positions) + " differ");
    }
  }
  Shape out(params->begin(), params->begin() + *axis);
  out.insert(out.end(), positions->begin() + batch_dims, positions->end());
  out.insert(out.end(), params->begin() + *axis + 1, params->end());
  return OneShape(std::move(out));
}

// GATHER_ND (gather_nd.cc): indices[:-1] + params[indices[-1]:].
Outcome GatherNdRule(const RuleInput& in) {
  auto params = InputShape(in, 0);
  if (!params.ok()) return params.status();
  auto indices = InputShape(in, 1);
  if (!indices.ok()) return indices.status();
  if (indices->empty() || indices->back() < 0 ||
      static_cast<size_t>(indices->back()) > params->size()) {
    return Fail(in,
                "indices " + ShapeText(*indices) + " do not index params " + ShapeText(*params));
  }
  Shape out(indices->begin(), indices->end() - 1);
  out.insert(out.end(), params->begin() + indices->back(), params->end());
  return OneShape(std::move(out));
}

// MEAN, SUM and the REDUCE_* ops (reduce.cc): the axes input's dimensions become 1 (keep_dims) or
// go; repeated axes count once.
Outcome ReduceRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto axes = KnownValues(in, 1);
  if (!axes) return Dynamic();
  if (input->empty()) return OneShape({});
  std::set<int32_t> reduced;
  for (int64_t a : *axes) {
    auto axis = ResolveAxis(in, a, input->size());
    if (!axis.ok()) return axis.status();
    reduced.insert(*axis);
  }
  Shape out;
  for (size_t d = 0; d < input->size(); ++d) {
    if (!reduced.count(static_cast<int32_t>(d))) {
      out.push_back((*input)[d]);
    } else if (in.node.options->keep_dims) {
      out.push_back(1);
    }
  }
  return OneShape(std::move(out));
}

// STRIDED_SLICE (strided_slice.cc BuildStridedSliceParams + ResizeOutputTensor and
// strided_slice_logic.h): the ellipsis expands to the dimensions begin does not name, a new axis
// is an input dimension of 1, shrunk axes go; with `offset`, end holds sizes.
Outcome StridedSliceRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto strides = KnownValues(in, 3);
  const auto begin = KnownValues(in, 1);
  const auto end = KnownValues(in, 2);
  const OpOptions& o = in.node.options;
  if (!strides || !end || (!o.offset && !begin)) return Dynamic();
  const int count = static_cast<int>(end->size());
  if (strides->size() != end->size() || (begin && begin->size() != end->size()) || count > 31) {
    return Fail(in, "begin, end and strides differ in length or exceed 31 entries");
  }
  const auto bit = [](uint32_t mask, int i) { return ((mask >> i) & 1u) != 0; };
  const auto ellipsis = static_cast<uint32_t>(o.ellipsis_mask);
  const auto new_axis = static_cast<uint32_t>(o.new_axis_mask);
  const int input_rank = static_cast<int>(input->size());
  int added = 0;
  for (int i = 0; i < count; ++i) {
    if (!bit(ellipsis, i) && bit(new_axis, i)) ++added;
  }
  const int dims = input_rank + added;
  uint32_t effective_ellipsis = 0, effective_new_axis = 0;
  int ellipsis_start = dims, expanded = 0;
  for (int i = 0; i < dims;) {
    if (bit(ellipsis, i)) {
      ellipsis_start = i;
      const int ellipsis_end = std::max(i + 1, std::min(i + 1 + added + input_rank - count, dims));
      expanded = ellipsis_end - ellipsis_start - 1;
      for (; i < ellipsis_end; ++i) effective_ellipsis |= 1u << i;
      continue;
    }
    if (bit(new_axis, i - expanded)) effective_new_axis |= 1u << i;
    ++i;
  }
  Shape out;
  int added_ellipsis = 0, added_axes = 0;
  for (int i = 0; i < dims; ++i) {
    int64_t size = 0;
    int64_t start = 0, stop = 0, stride = 1;
    bool begin_masked = false, end_masked = false, shrink = false;
    // Masks that do not fit the input (a malformed model) would index past it.
    const int source = i - added_axes;
    if (!bit(effective_new_axis, i) && (source < 0 || source >= input_rank)) {
      return Fail(in, "the masks do not fit input " + ShapeText(*input));
    }
    if (bit(effective_ellipsis, i)) {
      added_ellipsis = std::max(0, i - ellipsis_start);
      begin_masked = end_masked = true;
      size = (*input)[static_cast<size_t>(source)];
    } else if (bit(effective_new_axis, i)) {
      stop = 1;
      size = 1;
      ++added_axes;
    } else if (i >= count + expanded) {
      begin_masked = end_masked = true;
      size = (*input)[static_cast<size_t>(source)];
    } else {
      const int k = i - added_ellipsis;
      if (k < 0 || k >= count) return Fail(in, "the masks do not fit begin, end and strides");
      if (!o.offset) start = (*begin)[static_cast<size_t>(k)];
      stop = (*end)[static_cast<size_t>(k)];
      stride = (*strides)[static_cast<size_t>(k)];
      begin_masked = bit(static_cast<uint32_t>(o.begin_mask), k);
      end_masked = bit(static_cast<uint32_t>(o.end_mask), k);
      shrink = bit(static_cast<uint32_t>(o.shrink_axis_mask), k);
      size = (*input)[static_cast<size_t>(source)];
    }
    if (stride == 0) return Fail(in, "stride value has to be non-zero");
    if (shrink) continue;
    int64_t extent = 0;
    if (o.offset) {
      extent = stop;
    } else {
      int64_t first = 0;
      if (size != 0) {
        first = begin_masked ? (stride > 0 ? 0 : size - 1) : start;
        if (!begin_masked && first < 0) first += size;
        first = stride > 0 ? std::clamp<int64_t>(first, 0, size)
                           : std::clamp<int64_t>(first, -1, size - 1);
      }
      int64_t last = stop;
      if (last < 0) last += size;
      last =
          stride > 0 ? std::clamp<int64_t>(last, 0, size) : std::clamp<int64_t>(last, -1, size - 1);
      if (end_masked) last = stride > 0 ? size : -1;
      extent = last - first;
    }
    int64_t dim = 0;
    if ((extent < 0) == (stride < 0)) {
      dim = stride < 0 ? (extent + 1) / stride + 1 : (extent == 0 ? 0 : (extent - 1) / stride + 1);
    }
    auto d = ToDimension(in, dim);
    if (!d.ok()) return d.status();
    out.push_back(*d);
  }
  return OneShape(std::move(out));
}

// SLICE (slice.cc): size -1 takes the rest of the dimension.
Outcome SliceRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto begin = KnownValues(in, 1);
  const auto size = KnownValues(in, 2);
  if (!begin || !size) return Dynamic();
  if (begin->size() != input->size() || size->size() != input->size()) {
    return Fail(in, "begin and size do not match input " + ShapeText(*input));
  }
  Shape out;
  for (size_t d = 0; d < input->size(); ++d) {
    const int64_t extent = (*size)[d] == -1 ? (*input)[d] - (*begin)[d] : (*size)[d];
    if ((*begin)[d] < 0 || extent < 0 || (*begin)[d] + extent > (*input)[d]) {
      return Fail(in, "slice [" + std::to_string((*begin)[d]) + ", +" + std::to_string(extent) +
                          ") is outside dimension " + std::to_string(d) + " of " +
                          ShapeText(*input));
    }
    out.push_back(static_cast<int32_t>(extent));
  }
  return OneShape(std::move(out));
}

// PAD, PADV2, MIRROR_PAD (pad.cc, mirror_pad.cc): each dimension grows by its two paddings.
Outcome PadRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto paddings = KnownValues(in, 1);
  if (!paddings) return Dynamic();
  if (paddings->size() != 2 * input->size()) {
    return Fail(in, "paddings do not have two entries per dimension of " + ShapeText(*input));
  }
  Shape out;
  for (size_t d = 0; d < input->size(); ++d) {
    const int64_t before = (*paddings)[2 * d], after = (*paddings)[2 * d + 1];
    if (before < 0 || after < 0 || before > std::numeric_limits<int32_t>::max() ||
        after > std::numeric_limits<int32_t>::max()) {
      return Fail(in, "padding " + std::to_string(before) + ", " + std::to_string(after) +
                          " is out of range");
    }
    auto dim = ToDimension(in, (*input)[d] + before + after);
    if (!dim.ok()) return dim.status();
    out.push_back(*dim);
  }
  return OneShape(std::move(out));
}

// SPLIT (split.cc): inputs (axis, value); the axis divides evenly among the outputs.
Outcome SplitRule(const RuleInput& in) {
  auto input = InputShape(in, 1);
  if (!input.ok()) return input.status();
  const auto axis_value = KnownValues(in, 0);
  if (!axis_value) return Dynamic();
  if (axis_value->size() != 1) return Fail(in, "axis is not a single value");
  auto axis = ResolveAxis(in, axis_value->front(), input->size());
  if (!axis.ok()) return axis.status();
  const auto parts = static_cast<int32_t>(in.node.outputs.size());
  const int32_t extent = (*input)[static_cast<size_t>(*axis)];
  if (parts == 0 || extent % parts != 0) {
    return Fail(in, "dimension " + std::to_string(extent) + " does not split into " +
                        std::to_string(parts));
  }
  Shape out = *input;
  out[static_cast<size_t>(*axis)] = extent / parts;
  return Shapes(std::vector<Shape>(static_cast<size_t>(parts), out));
}

// SPLIT_V (split_v.cc): inputs (value, size_splits, axis); one size -1 takes the rest.
Outcome SplitVRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto sizes = KnownValues(in, 1);
  const auto axis_value = KnownValues(in, 2);
  if (!sizes || !axis_value) return Dynamic();
  if (axis_value->size() != 1) return Fail(in, "axis is not a single value");
  auto axis = ResolveAxis(in, axis_value->front(), input->size());
  if (!axis.ok()) return axis.status();
  if (sizes->size() != in.node.outputs.size()) {
    return Fail(in, "size_splits has " + std::to_string(sizes->size()) + " entries for " +
                        std::to_string(in.node.outputs.size()) + " outputs");
  }
  const int32_t extent = (*input)[static_cast<size_t>(*axis)];
  int64_t known = 0;
  int unknown = -1;
  for (size_t i = 0; i < sizes->size(); ++i) {
    if ((*sizes)[i] == -1) {
      if (unknown != -1) return Fail(in, "size_splits has more than one -1");
      unknown = static_cast<int>(i);
    } else {
      known += (*sizes)[i];
    }
  }
  std::vector<Shape> shapes;
  for (size_t i = 0; i < sizes->size(); ++i) {
    const int64_t part = static_cast<int>(i) == unknown ? extent - known : (*sizes)[i];
    if (part < 0) return Fail(in, "size_splits exceed dimension " + std::to_string(extent));
    Shape out = *input;
    out[static_cast<size_t>(*axis)] = static_cast<int32_t>(part);
    shapes.push_back(std::move(out));
  }
  if (unknown == -1 && known != extent) {
    return Fail(in,
                "size_splits sum to " + std::to_string(known) + ", not " + std::to_string(extent));
  }
  return Shapes(std::move(shapes));
}

// SQUEEZE (squeeze.cc): the listed dimensions (all dimensions of 1 when none are listed) go.
Outcome SqueezeRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  std::vector<bool> drop(input->size(), false);
  if (in.node.options->squeeze_dims.empty()) {
    for (size_t d = 0; d < input->size(); ++d) drop[d] = (*input)[d] == 1;
  }
  for (int32_t s : in.node.options->squeeze_dims) {
    auto axis = ResolveAxis(in, s, input->size());
    if (!axis.ok()) return axis.status();
    if ((*input)[static_cast<size_t>(*axis)] != 1) {
      return Fail(in,
                  "dimension " + std::to_string(*axis) + " of " + ShapeText(*input) + " is not 1");
    }
    drop[static_cast<size_t>(*axis)] = true;
  }
  Shape out;
  for (size_t d = 0; d < input->size(); ++d) {
    if (!drop[d]) out.push_back((*input)[d]);
  }
  return OneShape(std::move(out));
}

// EXPAND_DIMS (expand_dims.cc): a 1 inserted at the axis; a negative axis counts from rank + 1.
Outcome ExpandDimsRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto axis_value = KnownValues(in, 1);
  if (!axis_value) return Dynamic();
  if (axis_value->size() != 1) return Fail(in, "axis is not a single value");
  auto axis = ResolveAxis(in, axis_value->front(), input->size() + 1);
  if (!axis.ok()) return axis.status();
  Shape out = *input;
  out.insert(out.begin() + *axis, 1);
  return OneShape(std::move(out));
}

// PACK (pack.cc): equal inputs stacked on a new axis.
Outcome PackRule(const RuleInput& in) {
  auto first = InputShape(in, 0);
  if (!first.ok()) return first.status();
  for (size_t i = 1; i < in.node.inputs.size(); ++i) {
    auto shape = InputShape(in, i);
    if (!shape.ok()) return shape.status();
    if (*shape != *first) {
      return Fail(in, "input " + std::to_string(i) + " " + ShapeText(*shape) + " differs from " +
                          ShapeText(*first));
    }
  }
  auto axis = ResolveAxis(in, in.node.options->axis, first->size() + 1);
  if (!axis.ok()) return axis.status();
  Shape out = *first;
  out.insert(out.begin() + *axis, static_cast<int32_t>(in.node.inputs.size()));
  return OneShape(std::move(out));
}

// UNPACK (unpack.cc): one output per entry of the axis, without it.
Outcome UnpackRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  auto axis = ResolveAxis(in, in.node.options->axis, input->size());
  if (!axis.ok()) return axis.status();
  const int32_t extent = (*input)[static_cast<size_t>(*axis)];
  if (static_cast<size_t>(extent) != in.node.outputs.size()) {
    return Fail(in, "dimension " + std::to_string(extent) + " does not unpack into " +
                        std::to_string(in.node.outputs.size()) + " outputs");
  }
  Shape out = *input;
  out.erase(out.begin() + *axis);
  return Shapes(std::vector<Shape>(in.node.outputs.size(), out));
}

// TILE (tile.cc): each dimension times its multiple.
Outcome TileRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto multiples = KnownValues(in, 1);
  if (!multiples) return Dynamic();
  if (multiples->size() != input->size()) {
    return Fail(in, "multiples do not match input " + ShapeText(*input));
  }
  Shape out;
  for (size_t d = 0; d < input->size(); ++d) {
    if ((*multiples)[d] < 0 || (*multiples)[d] > std::numeric_limits<int32_t>::max()) {
      return Fail(in, "multiple " + std::to_string((*multiples)[d]) + " is out of range");
    }
    auto dim = ToDimension(in, static_cast<int64_t>((*input)[d]) * (*multiples)[d]);
    if (!dim.ok()) return dim.status();
    out.push_back(*dim);
  }
  return OneShape(std::move(out));
}

// BROADCAST_TO (broadcast_to.cc): the shape input, which the input must broadcast to.
Outcome BroadcastToRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  auto target = ShapeFromValuesRule(in, 1);
  if (!target.ok() || target->dynamic) return target;
  const Shape& out = target->shapes[0];
  if (input->size() > out.size()) return Fail(in, "input has a higher rank than the shape");
  for (size_t i = 0; i < input->size(); ++i) {
    const int32_t d = (*input)[input->size() - 1 - i];
    if (d != 1 && d != out[out.size() - 1 - i]) {
      return Fail(in, "input " + ShapeText(*input) + " does not broadcast to " + ShapeText(out));
    }
  }
  return target;
}

// SHAPE (shape.cc): the input's rank.
Outcome ShapeOpRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  return OneShape({static_cast<int32_t>(input->size())});
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

// SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND (space_to_batch_nd.cc, batch_to_space_nd.cc): the M
// spatial dimensions after the batch are padded and divided by block_shape (their blocks move
// to the batch), or multiplied and cropped (the batch divides back into them).
Outcome SpaceBatchRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto block = KnownValues(in, 1);
  const auto margins = KnownValues(in, 2);
  if (!block || !margins) return Dynamic();
  const size_t spatial = block->size();
  if (spatial == 0 || input->size() < spatial + 1 || margins->size() != 2 * spatial) {
    return Fail(in, "block_shape and paddings/crops do not fit input " + ShapeText(*input));
  }
  const bool to_batch = in.node.op == "SPACE_TO_BATCH_ND";
  Shape out = *input;
  int64_t blocks = 1;
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t b = (*block)[i];
    if (b < 1) return Fail(in, "block_shape entry " + std::to_string(b) + " is below 1");
    blocks *= b;
    const int64_t extent = (*input)[i + 1];
    const int64_t before = (*margins)[2 * i], after = (*margins)[2 * i + 1];
    int64_t dim = 0;
    if (to_batch) {
      if ((extent + before + after) % b != 0) {
        return Fail(in, "padded dimension " + std::to_string(extent + before + after) +
                            " is not a multiple of block " + std::to_string(b));
      }
      dim = (extent + before + after) / b;
    } else {
      dim = extent * b - before - after;
    }
    auto d = ToDimension(in, dim);
    if (!d.ok()) return d.status();
    out[i + 1] = *d;
  }
  if (!to_batch && (*input)[0] % blocks != 0) {
    return Fail(in, "batch " + std::to_string((*input)[0]) + " is not a multiple of the " +
                        std::to_string(blocks) + " blocks");
  }
  auto batch = ToDimension(in, to_batch ? (*input)[0] * blocks : (*input)[0] / blocks);
  if (!batch.ok()) return batch.status();
  out[0] = *batch;
  return OneShape(std::move(out));
}

// DEPTH_TO_SPACE / SPACE_TO_DEPTH (depth_to_space.cc, space_to_depth.cc), NHWC: the depth's
// block_size^2 factor moves into height and width, or back.
Outcome DepthSpaceRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 4, "input"));
  const int64_t bs = in.node.options->block_size;
  if (bs < 1) return Fail(in, "block_size " + std::to_string(bs) + " is below 1");
  const int64_t height = (*input)[1], width = (*input)[2], depth = (*input)[3];
  Shape out = *input;
  if (in.node.op == "DEPTH_TO_SPACE") {
    if (depth % (bs * bs) != 0) {
      return Fail(in, "depth " + std::to_string(depth) + " is not a multiple of block_size^2");
    }
    auto h = ToDimension(in, height * bs);
    if (!h.ok()) return h.status();
    auto w = ToDimension(in, width * bs);
    if (!w.ok()) return w.status();
    out[1] = *h;
    out[2] = *w;
    out[3] = static_cast<int32_t>(depth / (bs * bs));
  } else {
    if (height % bs != 0 || width % bs != 0) {
      return Fail(in, "height and width of " + ShapeText(*input) +
                          " are not multiples of block_size " + std::to_string(bs));
    }
    auto d = ToDimension(in, depth * bs * bs);
    if (!d.ok()) return d.status();
    out[1] = static_cast<int32_t>(height / bs);
    out[2] = static_cast<int32_t>(width / bs);
    out[3] = *d;
  }
  return OneShape(std::move(out));
}

// ARG_MAX / ARG_MIN (arg_min_max.cc): the axis goes.
Outcome ArgMinMaxRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto axis_value = KnownValues(in, 1);
  if (!axis_value) return Dynamic();
  if (axis_value->size() != 1) return Fail(in, "axis is not a single value");
  auto axis = ResolveAxis(in, axis_value->front(), input->size());
  if (!axis.ok()) return axis.status();
  Shape out = *input;
  out.erase(out.begin() + *axis);
  return OneShape(std::move(out));
}

// SELECT (select.cc, version one): the condition's shape when all three agree; otherwise a
// scalar or per-row condition picks whole rows of the branches.
Outcome SelectRule(const RuleInput& in) {
  auto condition = InputShape(in, 0);
  if (!condition.ok()) return condition.status();
  auto x = InputShape(in, 1);
  if (!x.ok()) return x.status();
  auto y = InputShape(in, 2);
  if (!y.ok()) return y.status();
  if (*condition == *x && *x == *y) return OneShape(*condition);
  const bool scalar = condition->empty();
  const bool per_row = condition->size() == 1 && !x->empty() && (*condition)[0] == (*x)[0];
  if (*x != *y || !(scalar || per_row)) {
    return Fail(in, "condition " + ShapeText(*condition) + " does not select between " +
                        ShapeText(*x) + " and " + ShapeText(*y));
  }
  return OneShape(*y);
}

// The sequence ops' outputs: the input's shape with its last dimension replaced by the units.
Result<Shape> WithLastDimension(const RuleInput& in, size_t rank, int32_t units) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, rank, "input"));
  Shape out = *input;
  out.back() = units;
  return out;
}

Result<int32_t> Dimension(const RuleInput& in, size_t position, size_t rank, size_t dim) {
  auto shape = InputShape(in, position);
  if (!shape.ok()) return shape.status();
  if (shape->size() != rank) {
    return Fail(in, "input " + std::to_string(position) + " " + ShapeText(*shape) +
                        " is not of rank " + std::to_string(rank));
  }
  return (*shape)[dim];
}

// LSTM (full kernel) and UNIDIRECTIONAL_SEQUENCE_LSTM (lstm.cc, unidirectional_sequence_lstm.cc):
// the output's depth is recurrent_to_output_weights' second dimension (input 8).
Outcome LstmRule(const RuleInput& in) {
  if (in.node.options->lstm_basic_kernel) return Fail(in, "no shape rule for the basic kernel");
  auto units = Dimension(in, 8, 2, 1);
  if (!units.ok()) return units.status();
  auto out = WithLastDimension(in, in.node.op == "LSTM" ? 2 : 3, *units);
  if (!out.ok()) return out.status();
  return OneShape(std::move(*out));
}

// BIDIRECTIONAL_SEQUENCE_LSTM (bidirectional_sequence_lstm.cc): forward and backward outputs, or
// one output of both depths with merge_outputs. The backward recurrent_to_output weights are
// input 25.
Outcome BidirectionalLstmRule(const RuleInput& in) {
  auto fw = Dimension(in, 8, 2, 1);
  if (!fw.ok()) return fw.status();
  auto bw = Dimension(in, 25, 2, 1);
  if (!bw.ok()) return bw.status();
  if (in.node.options->merge_outputs) {
    auto out = WithLastDimension(in, 3, *fw + *bw);
    if (!out.ok()) return out.status();
    return OneShape(std::move(*out));
  }
  auto fw_out = WithLastDimension(in, 3, *fw);
  if (!fw_out.ok()) return fw_out.status();
  auto bw_out = WithLastDimension(in, 3, *bw);
  if (!bw_out.ok()) return bw_out.status();
  return Shapes({std::move(*fw_out), std::move(*bw_out)});
}

// RNN and UNIDIRECTIONAL_SEQUENCE_RNN (basic_rnn.cc, unidirectional_sequence_rnn.cc): the units
// are the input weights' first dimension.
Outcome RnnRule(const RuleInput& in) {
  auto units = Dimension(in, 1, 2, 0);
  if (!units.ok()) return units.status();
  auto out = WithLastDimension(in, in.node.op == "RNN" ? 2 : 3, *units);
  if (!out.ok()) return out.status();
  return OneShape(std::move(*out));
}

// SVDF (svdf.cc): [batch, feature filters / rank].
Outcome SvdfRule(const RuleInput& in) {
  auto filters = Dimension(in, 1, 2, 0);
  if (!filters.ok()) return filters.status();
  const int32_t rank = in.node.options->svdf_rank;
  if (rank <= 0 || *filters % rank != 0) {
    return Fail(in, std::to_string(*filters) + " filters are not a multiple of rank " +
                        std::to_string(rank));
  }
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *input, 2, "input"));
  return OneShape({(*input)[0], *filters / rank});
}

// RFFT2D (rfft2d.cc): the last two dimensions become fft_length[0] x (fft_length[1] / 2 + 1).
Outcome Rfft2dRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  if (input->size() < 2) return Fail(in, "input " + ShapeText(*input) + " has rank below 2");
  const auto fft_length = KnownValues(in, 1);
  if (!fft_length) return Dynamic();
  if (fft_length->size() != 2) return Fail(in, "fft_length does not have two entries");
  auto rows = ToDimension(in, (*fft_length)[0]);
  if (!rows.ok()) return rows.status();
  auto columns = ToDimension(in, (*fft_length)[1] / 2 + 1);
  if (!columns.ok()) return columns.status();
  Shape out(input->begin(), input->end() - 2);
  out.push_back(*rows);
  out.push_back(*columns);
  return OneShape(std::move(out));
}

// EMBEDDING_LOOKUP (embedding_lookup.cc): one row of the table per id.
Outcome EmbeddingLookupRule(const RuleInput& in) {
  auto ids = InputShape(in, 0);
  if (!ids.ok()) return ids.status();
  auto table = InputShape(in, 1);
  if (!table.ok()) return table.status();
  TFA_RETURN_IF_ERROR(RequireRank(in, *ids, 1, "ids"));
  if (table->empty()) return Fail(in, "the table is a scalar");
  Shape out = *table;
  out[0] = (*ids)[0];
  return OneShape(std::move(out));
}

// TOPK_V2 (topk_v2.cc): values and indices keep all but the last dimension, which becomes k.
Outcome TopKRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  const auto k = KnownValues(in, 1);
  if (!k) return Dynamic();
  if (k->size() != 1) return Fail(in, "k has " + std::to_string(k->size()) + " values, not 1");
  if (input->empty() || k->front() > input->back() || k->front() < 0) {
    return Fail(in, "k = " + std::to_string(k->front()) + " does not fit input " +
                        ShapeText(*input) + " (0 <= k <= its last dimension)");
  }
  Shape out = *input;
  out.back() = static_cast<int32_t>(k->front());
  return Shapes({out, out});
}

// WHERE (where.cc): one row per true element, known at Prepare only for a constant condition,
// whose element values this replay does not keep: the file's shape stands then.
Outcome WhereRule(const RuleInput& in) {
  auto condition = Input(in, 0);
  if (!condition.ok()) return condition.status();
  if (!prepare_internal::IsConstantOrPersistent(**condition)) return Dynamic();
  return Fail(in, "the count of true elements of a constant condition is not kept");
}

// SCATTER_ND (scatter_nd.cc): the shape input's values.
Outcome ScatterNdRule(const RuleInput& in) { return ShapeFromValuesRule(in, 2); }

// SEGMENT_SUM (segment_sum.cc): the data's shape with its first dimension the last segment id + 1,
// known at Prepare only when the ids are (the kernel waits for constant data and ids).
Outcome SegmentSumRule(const RuleInput& in) {
  auto data = InputShape(in, 0);
  if (!data.ok()) return data.status();
  auto data_tensor = Input(in, 0);
  if (!data_tensor.ok()) return data_tensor.status();
  const auto ids = KnownValues(in, 1);
  if (!ids || !prepare_internal::IsConstantOrPersistent(**data_tensor)) return Dynamic();
  if (ids->empty() || data->empty())
    return Fail(in, "needs segment ids and data of rank 1 or more");
  auto rows = ToDimension(in, ids->back() + 1);
  if (!rows.ok()) return rows.status();
  Shape out = *data;
  out[0] = *rows;
  return OneShape(std::move(out));
}

// RANGE (range.cc): ceil(|limit - start| / |delta|) values, known at Prepare when the three
// scalars are. Integer bounds are read; float ones are not (Tensor keeps integer values only), so a
// float RANGE of constants keeps the model file's static shape and any other is sized at Eval.
Outcome RangeRule(const RuleInput& in) {
  auto start = Input(in, 0);
  if (!start.ok()) return start.status();
  const auto first = KnownValues(in, 0), limit = KnownValues(in, 1), delta = KnownValues(in, 2);
  if ((*start)->type == TensorType::kFloat32) {
    const Tensor* output = Operand(in.subgraph, in.node.outputs, 0);
    bool constant_bounds = in.node.inputs.size() == 3;
    for (size_t i = 0; i < 3 && constant_bounds; ++i) {
      const Tensor* bound = Operand(in.subgraph, in.node.inputs, i);
      constant_bounds = bound && prepare_internal::IsConstantOrPersistent(*bound);
    }
    if (constant_bounds && output && output->shape.size() == 1 && output->shape[0] >= 0 &&
        !output->has_dynamic_shape()) {
      return OneShape(Shape(output->shape.begin(), output->shape.end()));
    }
    return Dynamic();
  }
  if (!first || !limit || !delta) return Dynamic();
  if (first->size() != 1 || limit->size() != 1 || delta->size() != 1) {
    return Fail(in, "start, limit and delta must be scalars");
  }
  const int64_t s = first->front(), l = limit->front(), d = delta->front();
  if (d == 0) return Fail(in, "delta is 0");
  if (!((s >= l && d < 0) || (s <= l && d > 0)))
    return Fail(in, "delta points away from the limit");
  const double count = std::ceil(std::abs(static_cast<double>(l) - static_cast<double>(s)) /
                                 std::abs(static_cast<double>(d)));
  if (!(count <= static_cast<double>(std::numeric_limits<int32_t>::max()))) {
    return Fail(in, "more values than an int32 dimension holds");
  }
  return OneShape({static_cast<int32_t>(count)});
}

// ONE_HOT (one_hot.cc): the indices' shape with the depth inserted at `axis` (-1: last), known
// at Prepare when the depth is.
Outcome OneHotRule(const RuleInput& in) {
  auto indices = InputShape(in, 0);
  if (!indices.ok()) return indices.status();
  const auto depth = KnownValues(in, 1);
  if (!depth) return Dynamic();
  if (depth->size() != 1) return Fail(in, "depth must be a scalar");
  auto size = ToDimension(in, depth->front());
  if (!size.ok()) return size.status();
  const auto rank = static_cast<int32_t>(indices->size());
  const int32_t axis = in.node.options->axis == -1 ? rank : in.node.options->axis;
  if (axis < 0 || axis > rank) {
    return Fail(in, "axis " + std::to_string(in.node.options->axis) + " is outside [-1, " +
                        std::to_string(rank) + "]");
  }
  Shape out = *indices;
  out.insert(out.begin() + axis, *size);
  return OneShape(std::move(out));
}

// UNSORTED_SEGMENT_SUM/PROD/MAX/MIN (unsorted_segment.cc): [num_segments] then the data's
// dimensions past the ids' rank, known at Prepare when the ids and num_segments are constant or
// persistent; every id must be below num_segments.
Outcome UnsortedSegmentRule(const RuleInput& in) {
  auto data = InputShape(in, 0);
  if (!data.ok()) return data.status();
  auto ids = Input(in, 1);
  if (!ids.ok()) return ids.status();
  const auto count = KnownValues(in, 2);
  if (!count || !prepare_internal::IsConstantOrPersistent(**ids)) return Dynamic();
  if (count->size() != 1) return Fail(in, "num_segments must hold one value");
  const Shape ids_shape((*ids)->shape.begin(), (*ids)->shape.end());
  if (ids_shape.size() > data->size() ||
      !std::equal(ids_shape.begin(), ids_shape.end(), data->begin())) {
    return Fail(in, "segment_ids " + ShapeText(ids_shape) + " is not a prefix of the data's " +
                        ShapeText(*data));
  }
  auto segments = ToDimension(in, count->front());
  if (!segments.ok()) return segments.status();
  if (const auto id_values = KnownValues(in, 1)) {
    for (int64_t id : *id_values) {
      if (id >= *segments) {
        return Fail(in, "segment id " + std::to_string(id) + " is not below num_segments " +
                            std::to_string(*segments));
      }
    }
  }
  Shape out = {*segments};
  out.insert(out.end(), data->begin() + static_cast<std::ptrdiff_t>(ids_shape.size()), data->end());
  return OneShape(std::move(out));
}

// ATAN2 (atan2.cc): y's shape, no broadcasting; upstream's Prepare compares only the ranks.
Outcome Atan2Rule(const RuleInput& in) {
  auto y = InputShape(in, 0);
  if (!y.ok()) return y.status();
  auto x = InputShape(in, 1);
  if (!x.ok()) return x.status();
  if (y->size() != x->size()) {
    return Fail(in, "inputs " + ShapeText(*y) + " and " + ShapeText(*x) + " differ in rank");
  }
  return OneShape(std::move(*y));
}

// MATRIX_DIAG (matrix_diag.cc): the diagonals [..., n] become matrices [..., n, n].
Outcome MatrixDiagRule(const RuleInput& in) {
  auto diagonal = InputShape(in, 0);
  if (!diagonal.ok()) return diagonal.status();
  if (diagonal->empty()) return Fail(in, "the diagonal is a scalar");
  Shape out = *diagonal;
  out.push_back(diagonal->back());
  return OneShape(std::move(out));
}

struct NamedShapeRule {
  std::string_view op;
  ShapeRule rule;
};

constexpr std::array kShapeRules = {
    NamedShapeRule{"ADD", BroadcastRule},
    NamedShapeRule{"SUB", BroadcastRule},
    NamedShapeRule{"MUL", BroadcastRule},
    NamedShapeRule{"DIV", BroadcastRule},
    NamedShapeRule{"POW", BroadcastRule},
    NamedShapeRule{"MAXIMUM", BroadcastRule},
    NamedShapeRule{"MINIMUM", BroadcastRule},
    NamedShapeRule{"SQUARED_DIFFERENCE", BroadcastRule},
    NamedShapeRule{"FLOOR_DIV", BroadcastRule},
    NamedShapeRule{"FLOOR_MOD", BroadcastRule},
    NamedShapeRule{"LESS", BroadcastRule},
    NamedShapeRule{"LESS_EQUAL", BroadcastRule},
    NamedShapeRule{"GREATER", BroadcastRule},
    NamedShapeRule{"GREATER_EQUAL", BroadcastRule},
    NamedShapeRule{"EQUAL", BroadcastRule},
    NamedShapeRule{"NOT_EQUAL", BroadcastRule},
    NamedShapeRule{"LOGICAL_AND", BroadcastRule},
    NamedShapeRule{"LOGICAL_OR", BroadcastRule},
    NamedShapeRule{"PRELU", BroadcastRule},  // prelu.cc broadcasts input and alpha
    NamedShapeRule{"SELECT_V2", BroadcastRule},
    NamedShapeRule{"SELECT", SelectRule},
    NamedShapeRule{"CONCATENATION", ConcatenationRule},
    NamedShapeRule{"RELU", SameAsInputRule},
    NamedShapeRule{"RELU6", SameAsInputRule},
    NamedShapeRule{"RELU_N1_TO_1", SameAsInputRule},
    NamedShapeRule{"RELU_0_TO_1", SameAsInputRule},
    NamedShapeRule{"LEAKY_RELU", SameAsInputRule},
    NamedShapeRule{"ELU", SameAsInputRule},
    NamedShapeRule{"GELU", SameAsInputRule},
    NamedShapeRule{"HARD_SWISH", SameAsInputRule},
    NamedShapeRule{"LOGISTIC", SameAsInputRule},
    NamedShapeRule{"TANH", SameAsInputRule},
    NamedShapeRule{"ABS", SameAsInputRule},
    NamedShapeRule{"NEG", SameAsInputRule},
    NamedShapeRule{"SIGN", SameAsInputRule},
    NamedShapeRule{"EXP", SameAsInputRule},
    NamedShapeRule{"LOG", SameAsInputRule},
    NamedShapeRule{"SIN", SameAsInputRule},
    NamedShapeRule{"COS", SameAsInputRule},
    NamedShapeRule{"SQRT", SameAsInputRule},
    NamedShapeRule{"RSQRT", SameAsInputRule},
    NamedShapeRule{"SQUARE", SameAsInputRule},
    NamedShapeRule{"FLOOR", SameAsInputRule},
    NamedShapeRule{"CEIL", SameAsInputRule},
    NamedShapeRule{"ROUND", SameAsInputRule},
    NamedShapeRule{"CAST", SameAsInputRule},
    NamedShapeRule{"QUANTIZE", SameAsInputRule},
    NamedShapeRule{"DEQUANTIZE", SameAsInputRule},
    NamedShapeRule{"DENSIFY", SameAsInputRule},
    NamedShapeRule{"LOGICAL_NOT", SameAsInputRule},
    NamedShapeRule{"ZEROS_LIKE", SameAsInputRule},
    NamedShapeRule{"ONES_LIKE", SameAsInputRule},
    NamedShapeRule{"SOFTMAX", SameAsInputRule},
    NamedShapeRule{"LOG_SOFTMAX", SameAsInputRule},
    NamedShapeRule{"L2_NORMALIZATION", SameAsInputRule},
    NamedShapeRule{"LOCAL_RESPONSE_NORMALIZATION", SameAsInputRule},
    NamedShapeRule{"REVERSE_V2", SameAsInputRule},
    NamedShapeRule{"CUMSUM", SameAsInputRule},
    NamedShapeRule{"BUCKETIZE", SameAsInputRule},
    NamedShapeRule{"REVERSE_SEQUENCE", SameAsInputRule},
    NamedShapeRule{"ADD_N", SameAsInputRule},
    NamedShapeRule{"COMPLEX_ABS", SameAsInputRule},
    NamedShapeRule{"REAL", SameAsInputRule},
    NamedShapeRule{"IMAG", SameAsInputRule},
    NamedShapeRule{"DYNAMIC_UPDATE_SLICE", SameAsInputRule},
    NamedShapeRule{"CONV_2D", Conv2DRule},
    NamedShapeRule{"DEPTHWISE_CONV_2D", Conv2DRule},
    NamedShapeRule{"CONV_3D", Conv3DRule},
    NamedShapeRule{"TRANSPOSE_CONV", ShapeFromInput0Rule},
    NamedShapeRule{"CONV_3D_TRANSPOSE", ShapeFromInput0Rule},
    NamedShapeRule{"FILL", ShapeFromInput0Rule},
    NamedShapeRule{"AVERAGE_POOL_2D", PoolRule},
    NamedShapeRule{"MAX_POOL_2D", PoolRule},
    NamedShapeRule{"L2_POOL_2D", PoolRule},
    NamedShapeRule{"FULLY_CONNECTED", FullyConnectedRule},
    NamedShapeRule{"BATCH_MATMUL", BatchMatMulRule},
    NamedShapeRule{"RESHAPE", ReshapeRule},
    NamedShapeRule{"TRANSPOSE", TransposeRule},
    NamedShapeRule{"GATHER", GatherRule},
    NamedShapeRule{"GATHER_ND", GatherNdRule},
    NamedShapeRule{"MEAN", ReduceRule},
    NamedShapeRule{"SUM", ReduceRule},
    NamedShapeRule{"REDUCE_PROD", ReduceRule},
    NamedShapeRule{"REDUCE_MAX", ReduceRule},
    NamedShapeRule{"REDUCE_MIN", ReduceRule},
    NamedShapeRule{"REDUCE_ANY", ReduceRule},
    NamedShapeRule{"REDUCE_ALL", ReduceRule},
    NamedShapeRule{"STRIDED_SLICE", StridedSliceRule},
    NamedShapeRule{"SLICE", SliceRule},
    NamedShapeRule{"PAD", PadRule},
    NamedShapeRule{"PADV2", PadRule},
    NamedShapeRule{"MIRROR_PAD", PadRule},
    NamedShapeRule{"SPLIT", SplitRule},
    NamedShapeRule{"SPLIT_V", SplitVRule},
    NamedShapeRule{"SQUEEZE", SqueezeRule},
    NamedShapeRule{"EXPAND_DIMS", ExpandDimsRule},
    NamedShapeRule{"PACK", PackRule},
    NamedShapeRule{"UNPACK", UnpackRule},
    NamedShapeRule{"TILE", TileRule},
    NamedShapeRule{"BROADCAST_TO", BroadcastToRule},
    NamedShapeRule{"SHAPE", ShapeOpRule},
    NamedShapeRule{"RANK", ScalarRule},  // rank.cc: an int32 scalar
    NamedShapeRule{"RESIZE_BILINEAR", ResizeRule},
    NamedShapeRule{"RESIZE_NEAREST_NEIGHBOR", ResizeRule},
    NamedShapeRule{"SPACE_TO_BATCH_ND", SpaceBatchRule},
    NamedShapeRule{"DEPTH_TO_SPACE", DepthSpaceRule},
    NamedShapeRule{"SPACE_TO_DEPTH", DepthSpaceRule},
    NamedShapeRule{"BATCH_TO_SPACE_ND", SpaceBatchRule},
    NamedShapeRule{"ARG_MAX", ArgMinMaxRule},
    NamedShapeRule{"ARG_MIN", ArgMinMaxRule},
    NamedShapeRule{"LSTM", LstmRule},
    NamedShapeRule{"UNIDIRECTIONAL_SEQUENCE_LSTM", LstmRule},
    NamedShapeRule{"BIDIRECTIONAL_SEQUENCE_LSTM", BidirectionalLstmRule},
    NamedShapeRule{"RNN", RnnRule},
    NamedShapeRule{"UNIDIRECTIONAL_SEQUENCE_RNN", RnnRule},
    NamedShapeRule{"SVDF", SvdfRule},
    NamedShapeRule{"RFFT2D", Rfft2dRule},
    NamedShapeRule{"EMBEDDING_LOOKUP", EmbeddingLookupRule},
    NamedShapeRule{"TOPK_V2", TopKRule},
    NamedShapeRule{"WHERE", WhereRule},
    NamedShapeRule{"SCATTER_ND", ScatterNdRule},
    NamedShapeRule{"SEGMENT_SUM", SegmentSumRule},
    NamedShapeRule{"UNSORTED_SEGMENT_SUM", UnsortedSegmentRule},
    NamedShapeRule{"UNSORTED_SEGMENT_PROD", UnsortedSegmentRule},
    NamedShapeRule{"UNSORTED_SEGMENT_MAX", UnsortedSegmentRule},
    NamedShapeRule{"UNSORTED_SEGMENT_MIN", UnsortedSegmentRule},
    NamedShapeRule{"ATAN2", Atan2Rule},
    NamedShapeRule{"MATRIX_DIAG", MatrixDiagRule},
    NamedShapeRule{"RANGE", RangeRule},
    NamedShapeRule{"ONE_HOT", OneHotRule},
    NamedShapeRule{"VAR_HANDLE", ScalarRule},
    NamedShapeRule{"READ_VARIABLE", AlwaysDynamicRule},
    NamedShapeRule{"ASSIGN_VARIABLE", NoOutputsRule},
};

const NamedShapeRule* FindRule(const Node& node) {
  if (node.kind != NodeKind::kBuiltin) return nullptr;
  for (const NamedShapeRule& rule : kShapeRules) {
    if (rule.op == node.op) return &rule;
  }
  return nullptr;
}

}  // namespace

bool HasShapeRule(const std::string& op) {
  Node node;
  node.op = op;
  return FindRule(node) != nullptr;
}

Result<InferredShapes> InferOutputShapesOrDynamic(const Subgraph& subgraph, const Node& node,
                                                  const IntValuesOf& values) {
  const NamedShapeRule* rule = FindRule(node);
  if (rule == nullptr) return NodeError(node, "no shape rule");
  return rule->rule(RuleInput{subgraph, node, values});
}

Result<std::vector<Shape>> InferOutputShapes(const Subgraph& subgraph, const Node& node,
                                             const IntValuesOf& values) {
  auto inferred = InferOutputShapesOrDynamic(subgraph, node, values);
  if (!inferred.ok()) return inferred.status();
  if (inferred->dynamic) {
    return NodeError(node, "its output shape depends on values unknown at Prepare");
  }
  return std::move(inferred->shapes);
}

namespace {

// `changed`: when given, the tensors whose shape changed so far; nodes reading none of them are
// left as they are.
Result<std::vector<int32_t>> Propagate(Subgraph& subgraph, const IntValuesOf& values,
                                       bool allow_dynamic, std::vector<bool>* changed) {
  std::vector<bool> sized_at_eval(subgraph.tensors.size(), false);
  std::vector<int32_t> dynamic_nodes;
  for (int32_t n : subgraph.execution_plan.empty() ? IdentityExecutionPlan(subgraph)
                                                   : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[static_cast<size_t>(n)];
    const std::string where = "node " + std::to_string(n);
    const auto reads = [&node](const std::vector<bool>& marked) {
      for (int32_t input : node.inputs) {
        if (input >= 0 && static_cast<size_t>(input) < marked.size() &&
            marked[static_cast<size_t>(input)]) {
          return true;
        }
      }
      return false;
    };
    if (changed != nullptr && !reads(*changed)) continue;
    bool dynamic = reads(sized_at_eval);
    std::vector<Shape> shapes;
    if (!dynamic) {
      auto inferred = InferOutputShapesOrDynamic(subgraph, node, values);
      if (!inferred.ok()) return inferred.status().WithContext(where);
      dynamic = inferred->dynamic;
      shapes = std::move(inferred->shapes);
    }
    if (dynamic) {
      if (!allow_dynamic) {
        return NodeError(node, "its output shape depends on values unknown at Prepare")
            .WithContext(where);
      }
      dynamic_nodes.push_back(n);
      for (int32_t output : node.outputs) {
        if (output < 0) continue;
        sized_at_eval[static_cast<size_t>(output)] = true;
        if (changed != nullptr) (*changed)[static_cast<size_t>(output)] = true;
      }
      continue;
    }
    if (shapes.size() != node.outputs.size()) {
      return Status::Error(where + ": " + node.op + ": its shape rule gives " +
                           std::to_string(shapes.size()) + " outputs where the node has " +
                           std::to_string(node.outputs.size()));
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (node.outputs[i] < 0) continue;
      Tensor& tensor = subgraph.tensors[static_cast<size_t>(node.outputs[i])];
      if (changed != nullptr && tensor.shape != shapes[i]) {
        (*changed)[static_cast<size_t>(node.outputs[i])] = true;
      }
      tensor.bytes = ShapeBytes(tensor.type, shapes[i]);
      tensor.shape = std::move(shapes[i]);
    }
  }
  return dynamic_nodes;
}

}  // namespace

Status PropagateShapes(Subgraph& subgraph, const IntValuesOf& values) {
  auto propagated = Propagate(subgraph, values, false, nullptr);
  return propagated.ok() ? Status::Ok() : propagated.status();
}

Result<std::vector<int32_t>> PropagateShapesAllowingDynamic(Subgraph& subgraph,
                                                            const IntValuesOf& values) {
  return Propagate(subgraph, values, true, nullptr);
}

Result<std::vector<int32_t>> PropagateResizedShapes(Subgraph& subgraph,
                                                    const std::vector<int32_t>& resized,
                                                    const IntValuesOf& values) {
  std::vector<bool> changed(subgraph.tensors.size(), false);
  for (int32_t t : resized) {
    if (t >= 0 && static_cast<size_t>(t) < changed.size()) changed[static_cast<size_t>(t)] = true;
  }
  return Propagate(subgraph, values, true, &changed);
}

}  // namespace tfa
