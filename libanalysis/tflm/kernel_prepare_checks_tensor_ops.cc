#include "libanalysis/tflm/kernel_prepare_checks_tensor_ops.h"

#include <algorithm>
#include <cstdint>

#include "libanalysis/tflm/kernel_prepare_check_helpers.h"

namespace tfa::tflm::prepare_checks {

// ceil.cc, round.cc, exp.cc: one float32 input and an output of its type, bytes and shape.
std::optional<std::string> FloatUnaryFailure(const Subgraph& g, const Node& node,
                                             std::string_view file) {
  if (auto failure = CountFailure(node, 1, 1, file)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (!Is(input, T::kFloat32)) {
    return Failure(TypeNamesNotEqual("input->type", "kTfLiteFloat32", input->type, T::kFloat32),
                   file);
  }
  if (output->type != input->type) {
    return Failure(TypeNamesNotEqual("output->type", "input->type", output->type, input->type),
                   file);
  }
  if (output->shape.size() != input->shape.size()) {
    return Failure(NotEqual("output->dims->size", "input->dims->size", Rank(output), Rank(input)),
                   file);
  }
  for (size_t i = 0; i < output->shape.size(); ++i) {
    if (output->shape[i] != input->shape[i]) {
      return Failure(NotEqual("output->dims->data[i]", "input->dims->data[i]", output->shape[i],
                              input->shape[i]),
                     file);
    }
  }
  return std::nullopt;
}

// cumsum.cc CalculateOpData: float32 or int8, one int32 axis element, a non-scalar input, the
// output of its type and shape.
std::optional<std::string> CumsumFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "cumsum.cc";
  if (auto failure = CountFailure(node, 2, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* axis = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || axis == nullptr || output == nullptr) return std::nullopt;
  if (!Is(input, T::kFloat32) && !Is(input, T::kInt8)) {
    return Failure("input->type == kTfLiteFloat32 || input->type == kTfLiteInt8 was not true.",
                   kFile, "input " + TypeName(input->type));
  }
  if (!Is(axis, T::kInt32)) {
    return Failure(TypesNotEqual("axis->type", "kTfLiteInt32", axis->type, T::kInt32), kFile);
  }
  int64_t elements = 1;
  for (int32_t dim : axis->shape) elements *= dim;
  if (elements != 1) return Failure(NotEqual("NumElements(axis)", "1", elements, 1), kFile);
  if (Rank(input) < 1) return Failure("NumDimensions(input) >= 1 was not true.", kFile);
  if (input->type != output->type) {
    return Failure(TypesNotEqual("input->type", "output->type", input->type, output->type), kFile);
  }
  if (input->shape != output->shape) {
    return Failure("HaveSameShapes(input, output) was not true.", kFile);
  }
  return std::nullopt;
}

// depth_to_space.cc / space_to_depth.cc CalculateOpData: a 4-D float32 or int8 input, the
// output of its type, a positive block size that divides what it must.
std::optional<std::string> DepthSpaceFailure(const Subgraph& g, const Node& node) {
  const bool to_space = node.op == "DEPTH_TO_SPACE";
  const std::string_view file = to_space ? "depth_to_space.cc" : "space_to_depth.cc";
  if (auto failure = CountFailure(node, 1, 1, file)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (Rank(input) != 4) return Failure(NotEqual("NumDimensions(input)", "4", Rank(input), 4), file);
  if (!Is(output, T::kFloat32) && !Is(output, T::kInt8)) {
    return Failure("data_type == kTfLiteFloat32 || data_type == kTfLiteInt8 was not true.", file,
                   "output " + TypeName(output->type));
  }
  if (input->type != output->type) {
    return Failure(TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
                   file);
  }
  const int64_t block = node.options->block_size;
  if (block <= 0) return Failure("block_size > 0 was not true.", file);
  const int64_t height = Dim(input, 1);
  const int64_t width = Dim(input, 2);
  const int64_t channels = Dim(input, 3);
  if (to_space) {
    const int64_t output_channels = channels / block / block;
    if (channels != output_channels * block * block) {
      return Failure(NotEqual("input_channels", "output_channels * block_size * block_size",
                              channels, output_channels * block * block),
                     file);
    }
    return std::nullopt;
  }
  const int64_t output_height = height / block;
  const int64_t output_width = width / block;
  if (height != output_height * block) {
    return Failure(
        NotEqual("input_height", "output_height * block_size", height, output_height * block),
        file);
  }
  if (width != output_width * block) {
    return Failure(
        NotEqual("input_width", "output_width * block_size", width, output_width * block), file);
  }
  return std::nullopt;
}

// elu.cc CalculateOpData: one type in and out.
std::optional<std::string> EluFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "elu.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr || input->type == output->type) return std::nullopt;
  return Failure(TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
                 kFile);
}

// fill.cc Prepare: a scalar value of the output's type; a constant dims tensor that is the
// output's shape.
std::optional<std::string> FillFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "fill.cc";
  const Tensor* dims = At(g, node.inputs, 0);
  const Tensor* value = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (dims == nullptr || value == nullptr || output == nullptr) return std::nullopt;
  if (Rank(value) != 0)
    return Failure(NotEqual("NumDimensions(value)", "0", Rank(value), 0), kFile);
  if (value->type != output->type) {
    return Failure(TypesNotEqual("value->type", "output->type", value->type, output->type), kFile);
  }
  if (!dims->is_constant()) return std::nullopt;
  if (Rank(dims) != 1) return Failure(NotEqual("NumDimensions(tensor)", "1", Rank(dims), 1), kFile);
  if (Dim(dims, 0) != Rank(output)) {
    return Failure(NotEqual("array->size", "tensor_len", Rank(output), Dim(dims, 0)), kFile);
  }
  if (!Is(dims, T::kInt8) && !Is(dims, T::kInt16) && !Is(dims, T::kInt32) && !Is(dims, T::kInt64)) {
    return Failure("cannot compare int array to tensor of type " +
                       std::to_string(TfLiteTypeValue(dims->type)) + ".",
                   kFile);
  }
  const std::vector<int64_t>& values = *dims->int_values;
  for (size_t i = 0; i < values.size() && i < output->shape.size(); ++i) {
    if (values[i] != output->shape[i]) {
      return Failure(
          NotEqual("array->data[i]", "GetTensorData<T>(tensor)[i]", output->shape[i], values[i]),
          kFile);
    }
  }
  return std::nullopt;
}

// l2_pool_2d.cc L2Prepare: 4-D float32 input and output of one type.
std::optional<std::string> L2PoolFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "l2_pool_2d.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (Rank(input) != 4)
    return Failure(NotEqual("NumDimensions(input)", "4", Rank(input), 4), kFile);
  if (Rank(output) != 4) {
    return Failure(NotEqual("NumDimensions(output)", "4", Rank(output), 4), kFile);
  }
  if (input->type != output->type) {
    return Failure(TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
                   kFile);
  }
  if (!Is(input, T::kFloat32)) {
    return Failure(TypeNamesNotEqual("input->type", "kTfLiteFloat32", input->type, T::kFloat32),
                   kFile);
  }
  return std::nullopt;
}

// reverse.cc ReverseV2Prepare: a 1-D axis of int32, no more axes than dimensions (at most 6),
// the types it reverses.
std::optional<std::string> ReverseFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "reverse.cc";
  if (auto failure = CountFailure(node, 2, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* axis = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || axis == nullptr || output == nullptr) return std::nullopt;
  if (Rank(axis) != 1) return Failure(NotEqual("NumDimensions(axis)", "1", Rank(axis), 1), kFile);
  if (Rank(input) > 6) {
    return Failure("NumDimensions(input) <= kMaxDimensions was not true.", kFile);
  }
  if (Rank(input) < Dim(axis, 0)) {
    return Failure("NumDimensions(input) >= NumElements(axis) was not true.", kFile);
  }
  const bool supported = Is(input, T::kInt32) || Is(input, T::kFloat32) || Is(input, T::kUInt8) ||
                         Is(input, T::kInt8) || Is(input, T::kInt16) || Is(input, T::kInt64) ||
                         Is(input, T::kBool);
  if (!supported) {
    return Failure("Type '" + TypeName(input->type) + "' is not supported by reverse.", kFile);
  }
  if (!Is(axis, T::kInt32)) {
    return Failure("Axis Type '" + TypeName(axis->type) + "' is not supported by reverse.", kFile);
  }
  if (input->type != output->type) {
    return Failure(TypesNotEqual("input->type", "output->type", input->type, output->type), kFile);
  }
  return std::nullopt;
}

// select.cc SelectPrepare: a bool condition, x and y of one type, shapes that broadcast.
std::optional<std::string> SelectFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "select.cc";
  if (auto failure = CountFailure(node, 3, 1, kFile)) return failure;
  const Tensor* condition = At(g, node.inputs, 0);
  const Tensor* x = At(g, node.inputs, 1);
  const Tensor* y = At(g, node.inputs, 2);
  if (condition == nullptr || x == nullptr || y == nullptr) return std::nullopt;
  if (!Is(condition, T::kBool)) {
    return Failure(
        TypeNamesNotEqual("input_condition->type", "kTfLiteBool", condition->type, T::kBool),
        kFile);
  }
  if (x->type != y->type) {
    return Failure(TypeNamesNotEqual("input_x->type", "input_y->type", x->type, y->type), kFile);
  }
  // CalculateShapeForBroadcast (kernel_util.cc): each dimension, from the last, is 1 or the
  // largest of the three.
  const size_t rank = std::max({condition->shape.size(), x->shape.size(), y->shape.size()});
  for (size_t i = 0; i < rank; ++i) {
    auto dim = [&](const Tensor* t) -> int64_t {
      return i < t->shape.size() ? t->shape[t->shape.size() - 1 - i] : 1;
    };
    const int64_t target = std::max({dim(condition), dim(x), dim(y)});
    for (const Tensor* t : {condition, x, y}) {
      if (dim(t) != 1 && dim(t) != target) {
        return Failure("Given shapes are not broadcastable.", "select.cc, kernel_util.cc");
      }
    }
  }
  return std::nullopt;
}

// broadcast_to.cc BroadcastToPrepare and ValidateOutputTensor.
std::optional<std::string> BroadcastToFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "broadcast_to.cc";
  if (node.inputs.size() != 2) return Failure("NumInputs(node) == 2 was not true.", kFile);
  if (auto failure = CountFailure(node, 2, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* shape = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || shape == nullptr || output == nullptr) return std::nullopt;
  constexpr std::string_view kOneToFive = "BroadcastTo only supports 1-5D tensor.";
  if (Rank(input) > 5) return Failure(kOneToFive, kFile);
  if (!Is(shape, T::kInt32) && !Is(shape, T::kInt64)) {
    return Failure("shape->type == kTfLiteInt32 || shape->type == kTfLiteInt64 was not true.",
                   kFile);
  }
  if (input->type != output->type) {
    return Failure(TypesNotEqual("input->type", "output->type", input->type, output->type), kFile);
  }
  if (Is(input, T::kString)) return Failure("input->type != kTfLiteString was not true.", kFile);
  if (Rank(shape) != 1)
    return Failure(NotEqual("NumDimensions(shape)", "1", Rank(shape), 1), kFile);
  constexpr std::string_view kNotBroadcastable =
      "Output shape must be broadcastable from input shape.";
  if (Rank(output) != Dim(shape, 0)) {
    return Failure("Output must match with the expected shape dimension.", kFile);
  }
  if (Rank(input) > Rank(output)) return Failure(kNotBroadcastable, kFile);
  if (Rank(output) > 5) return Failure(kOneToFive, kFile);
  if (!shape->is_constant() || shape->int_values->size() != output->shape.size()) {
    return std::nullopt;
  }
  const std::vector<int64_t>& wanted = *shape->int_values;
  const size_t extending = output->shape.size() - input->shape.size();
  for (size_t i = 0; i < input->shape.size(); ++i) {
    if (input->shape[i] != 1 && input->shape[i] != wanted[extending + i]) {
      return Failure(kNotBroadcastable, kFile);
    }
  }
  for (size_t i = 0; i < output->shape.size(); ++i) {
    if (output->shape[i] != wanted[i]) {
      return Failure("output_shape.Dims(idx) == get_shape_data(idx) was not true.", kFile);
    }
  }
  return std::nullopt;
}

// broadcast_args.cc BroadcastArgsPrepare: 1-D int32 or int64 shapes and output of one type.
std::optional<std::string> BroadcastArgsFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "broadcast_args.cc";
  if (node.inputs.size() != 2) return Failure("NumInputs(node) == 2 was not true.", kFile);
  if (auto failure = CountFailure(node, 2, 1, kFile)) return failure;
  const Tensor* shape1 = At(g, node.inputs, 0);
  const Tensor* shape2 = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (shape1 == nullptr || shape2 == nullptr || output == nullptr) return std::nullopt;
  if (!Is(shape1, T::kInt32) && !Is(shape1, T::kInt64)) {
    return Failure("shape1->type == kTfLiteInt32 || shape1->type == kTfLiteInt64 was not true.",
                   kFile);
  }
  if (shape1->type != shape2->type) {
    return Failure(TypesNotEqual("shape1->type", "shape2->type", shape1->type, shape2->type),
                   kFile);
  }
  if (shape1->type != output->type) {
    return Failure(TypesNotEqual("shape1->type", "output->type", shape1->type, output->type),
                   kFile);
  }
  if (Rank(shape1) != 1) {
    return Failure(NotEqual("NumDimensions(shape1)", "1", Rank(shape1), 1), kFile);
  }
  if (Rank(shape2) != 1) {
    return Failure(NotEqual("NumDimensions(shape2)", "1", Rank(shape2), 1), kFile);
  }
  if (Rank(output) != 1) {
    return Failure(NotEqual("NumDimensions(output)", "1", Rank(output), 1), kFile);
  }
  return std::nullopt;
}

}  // namespace tfa::tflm::prepare_checks
