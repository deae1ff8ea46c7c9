// Shape rules of the ops that rearrange a tensor's elements: reshapes, transposes, concatenation,
// packing, tiling, padding, and the moves between space, depth and batch.

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "libanalysis/prepare/added_tensors.h"
#include "libanalysis/prepare/shape_rules.h"

namespace tfa::shape_rules {

using prepare_internal::Elements;
using prepare_internal::Operand;

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

// BROADCAST_ARGS (broadcast_args.cc): the broadcast of two 1-D shapes has the longer one's length.
Outcome BroadcastArgsRule(const RuleInput& in) {
  if (in.node.inputs.size() != 2) return Fail(in, "expects 2 inputs");
  auto first = InputShape(in, 0);
  if (!first.ok()) return first.status();
  auto second = InputShape(in, 1);
  if (!second.ok()) return second.status();
  if (first->size() != 1 || second->size() != 1) {
    return Fail(in,
                "shapes " + ShapeText(*first) + " and " + ShapeText(*second) + " are not both 1-D");
  }
  return OneShape({std::max((*first)[0], (*second)[0])});
}

// BITCAST (bitcast.cc): the input's bytes as the output's type. A wider input element adds a last
// dimension of the size ratio; a narrower one drops the last dimension, which must be the ratio.
// Types GetSizeOfType does not size (string, resource, variant, sub-byte) are refused.
Outcome BitcastRule(const RuleInput& in) {
  auto input = Input(in, 0);
  if (!input.ok()) return input.status();
  const Tensor* output = Operand(in.subgraph, in.node.outputs, 0);
  if (output == nullptr) return Fail(in, "output 0 is missing");
  const auto size = [](TensorType type) -> std::optional<uint32_t> {
    if (type == TensorType::kString || type == TensorType::kResource ||
        type == TensorType::kVariant || type == TensorType::kInt4 || type == TensorType::kUInt4 ||
        type == TensorType::kInt2) {
      return std::nullopt;
    }
    return ElementSize(type);
  };
  const auto from = size((*input)->type), to = size(output->type);
  if (!from || !to) {
    return Fail(in, std::string("cannot bitcast ") + TensorTypeName((*input)->type) + " to " +
                        TensorTypeName(output->type));
  }
  Shape out((*input)->shape.begin(), (*input)->shape.end());
  if (*from > *to) {
    out.push_back(static_cast<int32_t>(*from / *to));
  } else if (*from < *to) {
    if (out.empty() || out.back() != static_cast<int32_t>(*to / *from)) {
      return Fail(in, "input " + ShapeText(out) + " does not end in " +
                          std::to_string(*to / *from) + " elements");
    }
    out.pop_back();
  }
  return OneShape(std::move(out));
}

// SHAPE (shape.cc): the input's rank.
Outcome ShapeOpRule(const RuleInput& in) {
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  return OneShape({static_cast<int32_t>(input->size())});
}

// DILATE (dilate.cc): inputs (input, dilations [rank], padding value); each dimension d becomes
// (d - 1) * dilation + 1. Sized from the dilations' values, dynamic when they are not a constant.
Outcome DilateRule(const RuleInput& in) {
  if (in.node.inputs.size() != 3 || in.node.outputs.size() != 1) {
    return Fail(in, "expects 3 inputs and 1 output");
  }
  auto input = InputShape(in, 0);
  if (!input.ok()) return input.status();
  if (input->empty()) return Fail(in, "the input is a scalar");
  const auto dilations = KnownValues(in, 1);
  if (!dilations) return Dynamic();
  if (dilations->size() != input->size()) {
    return Fail(in, "dilations have " + std::to_string(dilations->size()) +
                        " entries for an input of rank " + std::to_string(input->size()));
  }
  Shape out;
  for (size_t i = 0; i < input->size(); ++i) {
    const int64_t dilation = (*dilations)[i];
    if (dilation < 1) return Fail(in, "dilation " + std::to_string(dilation) + " is below 1");
    auto dim = ToDimension(in, (static_cast<int64_t>((*input)[i]) - 1) * dilation + 1);
    if (!dim.ok()) return dim.status();
    out.push_back(*dim);
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

}  // namespace tfa::shape_rules
