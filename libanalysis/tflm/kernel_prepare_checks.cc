#include "libanalysis/tflm/kernel_prepare_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "libanalysis/model/tensor_type.h"
#include "libanalysis/prepare/shape_inference.h"
#include "libanalysis/tflm/kernel_prepare_check_helpers.h"
#include "libanalysis/tflm/kernel_prepare_checks_lstm.h"
#include "libanalysis/tflm/kernel_prepare_checks_tensor_ops.h"
#include "libanalysis/tflm/micro_custom_kernels.h"
#include "libanalysis/tflm/signal_kernels.h"

namespace tfa::tflm {
namespace prepare_checks {
namespace {

constexpr std::string_view kHybrid = "Hybrid models are not supported on TFLite Micro.";

std::optional<std::string> ConvFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "conv_common.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* filter = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || filter == nullptr || output == nullptr) return std::nullopt;
  if (input->type != output->type) {
    return Failure(TypesNotEqual("input->type", "output->type", input->type, output->type), kFile,
                   Types("input", input, "output", output));
  }
  const bool supported = (Is(input, T::kFloat32) && Is(filter, T::kFloat32)) ||
                         (Is(input, T::kInt16) && Is(filter, T::kInt8)) ||
                         (Is(input, T::kInt8) && (Is(filter, T::kInt4) || Is(filter, T::kInt8)));
  if (!supported) return Failure(kHybrid, kFile, Types("input", input, "filter", filter));
  if (Is(input, T::kInt8) || Is(input, T::kInt16)) {
    if (!Affine(filter)) {
      return Failure("filter->quantization.type != kTfLiteAffineQuantization (0 != 1)", kFile,
                     "the filter has no scales and zero points");
    }
    const uint64_t scales = filter->quantization->scale.size();
    if (scales != 1 && static_cast<int64_t>(scales) != Dim(filter, 0)) {
      return Failure(
          "affine_quantization->scale->size == 1 || affine_quantization->scale->size == "
          "filter->dims->data[kConvQuantizedDimension] was not true.",
          kFile,
          std::to_string(scales) + " scales, " + std::to_string(Dim(filter, 0)) + " channels");
    }
  }
  return std::nullopt;
}

std::optional<std::string> DepthwiseConvFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "depthwise_conv_common.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* filter = At(g, node.inputs, 1);
  if (input == nullptr || filter == nullptr) return std::nullopt;
  if (Is(input, T::kInt8)) {
    if (!Affine(filter)) {
      return Failure("filter->quantization.type != kTfLiteAffineQuantization (0 != 1)", kFile,
                     "the filter has no scales and zero points");
    }
    const uint64_t scales = filter->quantization->scale.size();
    if (scales != 1 && static_cast<int64_t>(scales) != Dim(filter, 3)) {
      return Failure(
          "affine_quantization->scale->size == 1 || affine_quantization->scale->size == "
          "filter->dims->data[kDepthwiseConvQuantizedDimension] was not true.",
          kFile,
          std::to_string(scales) + " scales, " + std::to_string(Dim(filter, 3)) + " channels");
    }
    const uint64_t zero_points = filter->quantization->zero_point.size();
    if (scales != zero_points) {
      return Failure(NotEqual("affine_quantization->scale->size",
                              "affine_quantization->zero_point->size", scales, zero_points),
                     kFile);
    }
  }
  // A filter of the input's type passes, uint8 included: the kernel refuses that only in Eval.
  const bool supported = input->type == filter->type ||
                         (Is(input, T::kInt8) && (Is(filter, T::kInt4) || Is(filter, T::kInt8)));
  if (!supported) return Failure(kHybrid, kFile, Types("input", input, "filter", filter));
  return std::nullopt;
}

// transpose_conv.cc Prepare: a quantized kernel needs per-tensor or per-channel filter scales
// and as many zero points; mixed types are refused only in Eval.
std::optional<std::string> TransposeConvFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "transpose_conv.cc";
  const Tensor* filter = At(g, node.inputs, 1);
  const Tensor* input = At(g, node.inputs, 2);
  if (input == nullptr || filter == nullptr) return std::nullopt;
  if (!Is(input, T::kInt8) && !Is(input, T::kInt16)) return std::nullopt;
  if (!Affine(filter)) {
    return Failure("filter->quantization.type != kTfLiteAffineQuantization (0 != 1)", kFile,
                   "the filter has no scales and zero points");
  }
  const uint64_t scales = filter->quantization->scale.size();
  if (scales != 1 && static_cast<int64_t>(scales) != Dim(filter, 0)) {
    return Failure(
        "affine_quantization->scale->size == 1 || affine_quantization->scale->size == "
        "filter->dims->data[kConvQuantizedDimension] was not true.",
        kFile, std::to_string(scales) + " scales, " + std::to_string(Dim(filter, 0)) + " channels");
  }
  const uint64_t zero_points = filter->quantization->zero_point.size();
  if (scales != zero_points) {
    return Failure(NotEqual("affine_quantization->scale->size",
                            "affine_quantization->zero_point->size", scales, zero_points),
                   kFile);
  }
  return std::nullopt;
}

std::optional<std::string> FullyConnectedFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "fully_connected.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* filter = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || filter == nullptr || output == nullptr) return std::nullopt;
  if (input->type != output->type) {
    return Failure(TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
                   kFile);
  }
  // Hybrid weights (int8 or int4 with a float input) and int4 with int16 are refused; other
  // input types pass Prepare and fail only in Eval.
  const bool refused = (Is(input, T::kFloat32) && !Is(filter, T::kFloat32)) ||
                       (Is(input, T::kInt8) && !Is(filter, T::kInt8) && !Is(filter, T::kInt4)) ||
                       (Is(input, T::kInt16) && !Is(filter, T::kInt8));
  if (refused) {
    return Failure("Input type: " + TypeName(input->type) +
                       " with filter type: " + TypeName(filter->type) + " not supported.",
                   kFile);
  }
  // fully_connected_common.cc CalculateOpDataFullyConnected: per-channel weights (more than one
  // scale) of a quantized op take an int8 input and int8 weights, one scale per output channel.
  const uint64_t scales = filter->quantization->scale.size();
  if (Is(input, T::kFloat32) || scales <= 1) return std::nullopt;
  constexpr std::string_view kCommon = "fully_connected_common.cc";
  if (!Is(input, T::kInt8) || Is(filter, T::kInt4)) {
    return Failure("input->type == kTfLiteInt8 && filter->type != kTfLiteInt4 was not true.",
                   kCommon,
                   "per-channel weights with input " + TypeName(input->type) + ", filter " +
                       TypeName(filter->type));
  }
  const int64_t axis = filter->quantization->quantized_dimension;
  const int64_t channels = Dim(filter, static_cast<size_t>(std::max<int64_t>(axis, 0)));
  if (static_cast<int64_t>(scales) != channels) {
    return Failure(NotEqual("per_channel_quantization_size",
                            "filter->dims->data[affine_quantization->quantized_dimension]",
                            static_cast<int64_t>(scales), channels),
                   kCommon);
  }
  return std::nullopt;
}

// svdf_common.cc PrepareSvdf, check by check in its order.
std::optional<std::string> SvdfFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "svdf_common.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* weights_feature = At(g, node.inputs, 1);
  const Tensor* weights_time = At(g, node.inputs, 2);
  const Tensor* bias = At(g, node.inputs, 3);
  const Tensor* state = At(g, node.inputs, 4);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || weights_feature == nullptr || weights_time == nullptr ||
      state == nullptr || output == nullptr) {
    return std::nullopt;
  }
  const int64_t rank = node.options->svdf_rank;
  const int64_t input_size = Dim(input, 1);
  const int64_t batch = Dim(input, 0);
  const int64_t filters = Dim(weights_feature, 0);
  if (rank <= 0) return Failure("params->rank must be positive", kFile);
  if (filters % rank != 0)
    return Failure(NotEqual("num_filters % rank", "0", filters % rank, 0), kFile);
  const int64_t units = filters / rank;
  const int64_t memory = Dim(weights_time, 1);
  if (!Is(input, T::kFloat32) && !Is(input, T::kInt8)) {
    return Failure("input->type == kTfLiteFloat32 || input->type == kTfLiteInt8 was not true.",
                   kFile, "input " + TypeName(input->type));
  }
  if (Rank(input) != 2)
    return Failure(NotEqual("NumDimensions(input)", "2", Rank(input), 2), kFile);
  if (Rank(output) != 2) {
    return Failure(NotEqual("NumDimensions(output)", "2", Rank(output), 2), kFile);
  }
  if (Dim(output, 0) != batch) {
    return Failure(NotEqual("output->dims->data[0]", "batch_size", Dim(output, 0), batch), kFile);
  }
  if (Dim(output, 1) != units) {
    return Failure(NotEqual("output->dims->data[1]", "num_units", Dim(output, 1), units), kFile,
                   "num_units = weights_feature's " + std::to_string(filters) + " filters / rank " +
                       std::to_string(rank));
  }
  if (Rank(weights_feature) != 2) {
    return Failure(NotEqual("NumDimensions(weights_feature)", "2", Rank(weights_feature), 2),
                   kFile);
  }
  if (Dim(weights_feature, 1) != input_size) {
    return Failure(NotEqual("weights_feature->dims->data[1]", "input_size", Dim(weights_feature, 1),
                            input_size),
                   kFile);
  }
  if (Rank(weights_time) != 2) {
    return Failure(NotEqual("NumDimensions(weights_time)", "2", Rank(weights_time), 2), kFile);
  }
  if (Dim(weights_time, 0) != filters) {
    return Failure(
        NotEqual("weights_time->dims->data[0]", "num_filters", Dim(weights_time, 0), filters),
        kFile);
  }
  if (bias != nullptr && Dim(bias, 0) != units) {
    return Failure(NotEqual("bias->dims->data[0]", "num_units", Dim(bias, 0), units), kFile);
  }
  if (Rank(state) != 2) {
    return Failure(NotEqual("NumDimensions(activation_state)", "2", Rank(state), 2), kFile);
  }
  if (Dim(state, 0) != batch) {
    return Failure(NotEqual("activation_state->dims->data[0]", "batch_size", Dim(state, 0), batch),
                   kFile);
  }
  if (Dim(state, 1) != memory * filters) {
    return Failure(NotEqual("activation_state->dims->data[1]", "memory_size * num_filters",
                            Dim(state, 1), memory * filters),
                   kFile);
  }
  if (!state->is_variable) {
    return Failure("activation_state->is_variable != true (0 != 1)", kFile);
  }
  if (node.inputs.size() != 5) {
    return Failure(NotEqual("node->inputs->size", "5", node.inputs.size(), 5), kFile);
  }
  if (Is(input, T::kInt8)) {
    if (!Is(weights_feature, T::kInt8)) {
      return Failure(
          TypesNotEqual("weights_feature->type", "kTfLiteInt8", weights_feature->type, T::kInt8),
          kFile);
    }
    if (!Is(weights_time, T::kInt16) && !Is(weights_time, T::kInt8)) {
      return Failure(
          "(weights_time->type == kTfLiteInt16) || (weights_time->type == kTfLiteInt8) was not "
          "true.",
          kFile);
    }
    if (!Is(state, T::kInt16) && !Is(state, T::kInt8)) {
      return Failure(
          "(activation_state->type == kTfLiteInt16) || (activation_state->type == kTfLiteInt8) "
          "was not true.",
          kFile);
    }
    if (bias != nullptr && !Is(bias, T::kInt32)) {
      return Failure(TypesNotEqual("bias->type", "kTfLiteInt32", bias->type, T::kInt32), kFile);
    }
    if (!Is(output, T::kInt8)) {
      return Failure(TypeNamesNotEqual("output->type", "kTfLiteInt8", output->type, T::kInt8),
                     kFile);
    }
    return std::nullopt;
  }
  for (const auto& [tensor, name] :
       {std::pair{weights_feature, "weights_feature->type"},
        std::pair{weights_time, "weights_time->type"}, std::pair{state, "activation_state->type"},
        std::pair{bias, "bias->type"}}) {
    if (tensor != nullptr && !Is(tensor, T::kFloat32)) {
      return Failure(TypesNotEqual(name, "kTfLiteFloat32", tensor->type, T::kFloat32), kFile);
    }
  }
  if (!Is(output, T::kFloat32)) {
    return Failure(TypeNamesNotEqual("output->type", "kTfLiteFloat32", output->type, T::kFloat32),
                   kFile);
  }
  return std::nullopt;
}

std::optional<std::string> DequantizeFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "dequantize_common.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  // A float16 weight DEQUANTIZE (what the converter writes for fp16 models) is refused.
  if (!Is(input, T::kInt8) && !Is(input, T::kInt16) && !Is(input, T::kUInt8)) {
    return Failure(
        "input->type == kTfLiteInt8 || input->type == kTfLiteInt16 || input->type == "
        "kTfLiteUInt8 was not true.",
        kFile, "input " + TypeName(input->type));
  }
  if (!Is(output, T::kFloat32)) {
    return Failure("output->type == kTfLiteFloat32 was not true.", kFile,
                   "output " + TypeName(output->type));
  }
  return std::nullopt;
}

std::optional<std::string> QuantizeFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "quantize_common.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (!Affine(output)) {
    return Failure("output->quantization.type != kTfLiteAffineQuantization (0 != 1)", kFile,
                   "the output has no scale and zero point");
  }
  if (output->quantization->scale.size() != 1) {
    return Failure("affine_quantization->scale->size == 1 was not true.", kFile,
                   std::to_string(output->quantization->scale.size()) + " output scales");
  }
  const bool input_ok = Is(input, T::kFloat32) || Is(input, T::kInt32) || Is(input, T::kInt16) ||
                        Is(input, T::kInt8) || Is(input, T::kUInt8);
  if (!input_ok) {
    return Failure(
        "input->type == kTfLiteFloat32 || input->type == kTfLiteInt32 || input->type == "
        "kTfLiteInt16 || input->type == kTfLiteInt8 || input->type == kTfLiteUInt8 was not true.",
        kFile, "input " + TypeName(input->type));
  }
  const bool output_ok = Is(output, T::kInt8) || Is(output, T::kInt16) || Is(output, T::kInt32) ||
                         Is(output, T::kUInt8);
  if (!output_ok) {
    return Failure(
        "output->type == kTfLiteInt8 || output->type == kTfLiteInt16 || output->type == "
        "kTfLiteInt32 || output->type == kTfLiteUInt8 was not true.",
        kFile, "output " + TypeName(output->type));
  }
  return std::nullopt;
}

// softmax_common.cc SoftmaxPrepare and CalculateSoftmaxParams.
std::optional<std::string> SoftmaxFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "softmax_common.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (Rank(input) < 1) return Failure("NumDimensions(input) >= 1 was not true.", kFile);
  if (Is(output, T::kInt16)) {
    if (!Is(input, T::kInt8) && !Is(input, T::kInt16)) {
      return Failure("input->type == kTfLiteInt8 || input->type == kTfLiteInt16 was not true.",
                     kFile, Types("input", input, "output", output));
    }
  } else if (input->type != output->type) {
    return Failure(TypesNotEqual("input->type", "output->type", input->type, output->type), kFile,
                   Types("input", input, "output", output));
  }
  if (Is(input, T::kInt16)) {
    if (ZeroPoint(output) != 0) {
      return Failure(NotEqual("output->params.zero_point", "0", ZeroPoint(output), 0), kFile);
    }
    if (std::fabs(Scale(output) - 1.0f / 32768) > 0.001f / 32768) {
      return Failure("output->params.scale not near 1.f / 32768", kFile);
    }
  } else if (Is(input, T::kInt8) && Is(output, T::kInt16)) {
    if (ZeroPoint(output) != -32768) {
      return Failure(NotEqual("output->params.zero_point", "-32768", ZeroPoint(output), -32768),
                     kFile);
    }
    if (std::fabs(Scale(output) - 1.0f / 65536) > 0.001f / 65536) {
      return Failure("output->params.scale not near 1.f / 65536", kFile);
    }
  } else if (Is(input, T::kInt8)) {
    if (ZeroPoint(output) != -128) {
      return Failure(NotEqual("output->params.zero_point", "-128", ZeroPoint(output), -128), kFile);
    }
    if (Scale(output) != 1.0f / 256) {
      return Failure("output->params.scale == 1.f / 256 was not true.", kFile);
    }
  } else if (!Is(input, T::kFloat32)) {
    return Failure(TypeNamesNotEqual("input->type", "kTfLiteFloat32", input->type, T::kFloat32),
                   kFile);
  }
  return std::nullopt;
}

// concatenation.cc Prepare: no fused activation, the types its Eval has, at most kMaxInputNum
// (10) inputs of at most 4 dimensions.
std::optional<std::string> ConcatenationFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "concatenation.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (node.options->fused_activation != Activation::kNone) {
    return Failure("params->activation != kTfLiteActNone", kFile,
                   std::string("activation ") + ActivationName(node.options->fused_activation));
  }
  if (!Is(input, T::kFloat32) && !Is(input, T::kInt8) && !Is(input, T::kInt16) &&
      !Is(input, T::kInt32) && !Is(input, T::kInt64)) {
    return Failure(
        "input_type == kTfLiteFloat32 || input_type == kTfLiteInt8 || input_type == kTfLiteInt16 "
        "|| input_type == kTfLiteInt32 || input_type == kTfLiteInt64 was not true.",
        kFile, "input " + TypeName(input->type));
  }
  if (output->type != input->type) {
    return Failure(TypesNotEqual("output_type", "input_type", output->type, input->type), kFile);
  }
  if (node.inputs.size() > 10) {
    return Failure("num_inputs <= kMaxInputNum was not true.", kFile,
                   std::to_string(node.inputs.size()) + " inputs");
  }
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const int64_t rank = Rank(At(g, node.inputs, i));
    if (rank > 4) {
      return Failure("Op Concatenation does not currently support num dimensions >4 Tensor has " +
                         std::to_string(rank) + " dimensions.",
                     kFile);
    }
  }
  return std::nullopt;
}

// pad_common.cc PadPrepare: input and output of one type, constant paddings, a pair of them per
// output dimension.
std::optional<std::string> PadFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "pad_common.cc";
  if (node.inputs.size() != 2 && node.inputs.size() != 3) {
    return Failure("NumInputs(node) == 2 || NumInputs(node) == 3 was not true.", kFile);
  }
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* paddings = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || paddings == nullptr || output == nullptr) return std::nullopt;
  if (input->type != output->type) {
    return Failure(TypesNotEqual("input->type", "output->type", input->type, output->type), kFile,
                   Types("input", input, "output", output));
  }
  int64_t pairs = 1;
  for (int32_t dim : paddings->shape) pairs *= dim;
  if (pairs != Rank(output) * 2) {
    return Failure(NotEqual("GetTensorShape(paddings).FlatSize()", "output->dims->size * 2", pairs,
                            Rank(output) * 2),
                   kFile);
  }
  if (!paddings->is_constant()) {
    return Failure("Non-constant >paddings< tensor is not supported", kFile);
  }
  return std::nullopt;
}

// add_common.cc AddPrepare: an int32 ADD takes unquantized inputs only.
std::optional<std::string> AddFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "add_common.cc";
  const Tensor* output = At(g, node.outputs, 0);
  if (!Is(output, T::kInt32)) return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    if (Affine(At(g, node.inputs, i))) {
      return Failure(
          "input" + std::to_string(i + 1) + "->quantization.type != kTfLiteNoQuantization (1 != 0)",
          kFile);
    }
  }
  return std::nullopt;
}

// mul_common.cc CalculateOpDataMul: two inputs of one type; int16 (16x8) with zero points 0.
std::optional<std::string> MulFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "mul_common.cc";
  if (auto count = CountFailure(node, 2, 1, kFile)) return count;
  const Tensor* input1 = At(g, node.inputs, 0);
  const Tensor* input2 = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input1 == nullptr || input2 == nullptr || output == nullptr) return std::nullopt;
  if (input1->type != input2->type) {
    return Failure(TypeNamesNotEqual("input1->type", "input2->type", input1->type, input2->type),
                   kFile);
  }
  if ((Is(output, T::kInt8) || Is(output, T::kInt16)) && Is(input1, T::kInt16)) {
    for (const auto& [tensor, name] : {std::pair{input1, "data->input1_zero_point"},
                                       std::pair{input2, "data->input2_zero_point"},
                                       std::pair{output, "data->output_zero_point"}}) {
      if (ZeroPoint(tensor) != 0) return Failure(NotEqual(name, "0", ZeroPoint(tensor), 0), kFile);
    }
  }
  return std::nullopt;
}

// batch_matmul.cc BatchMatMulPrepare: float32, int8 or int16 operands of one type, the output's
// type, ranks 2 to 5, broadcastable batch dimensions and matching accumulation depths.
std::optional<std::string> BatchMatMulFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "batch_matmul.cc";
  if (auto failure = CountFailure(node, 2, 1, kFile)) return failure;
  const Tensor* lhs = At(g, node.inputs, 0);
  const Tensor* rhs = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (lhs == nullptr || rhs == nullptr || output == nullptr) return std::nullopt;
  const auto supported = [](const Tensor* t) {
    return Is(t, T::kFloat32) || Is(t, T::kInt8) || Is(t, T::kInt16);
  };
  if (!supported(lhs)) {
    return Failure(
        "lhs_data->type == kTfLiteFloat32 || lhs_data->type == kTfLiteInt8 || lhs_data->type == "
        "kTfLiteInt16 was not true.",
        kFile, "lhs " + TypeName(lhs->type));
  }
  if (!supported(rhs)) {
    return Failure(
        "rhs_data->type == kTfLiteFloat32 || rhs_data->type == kTfLiteInt8 || rhs_data->type == "
        "kTfLiteInt16 was not true.",
        kFile, "rhs " + TypeName(rhs->type));
  }
  if (lhs->type != rhs->type) {
    return Failure("lhs_data->type == rhs_data->type was not true.", kFile,
                   Types("lhs", lhs, "rhs", rhs));
  }
  if (lhs->type != output->type) {
    return Failure("lhs_data->type == output->type was not true.", kFile,
                   Types("lhs", lhs, "output", output));
  }
  const int64_t lhs_rank = Rank(lhs);
  const int64_t rhs_rank = Rank(rhs);
  if (lhs_rank < 2) return Failure("lhs_rank >= 2 was not true.", kFile);
  if (lhs_rank > 5) return Failure("lhs_rank <= 5 was not true.", kFile);
  if (rhs_rank < 2) return Failure("rhs_rank >= 2 was not true.", kFile);
  if (rhs_rank > 5) return Failure("rhs_rank <= 5 was not true.", kFile);
  if (Is(lhs, T::kInt16)) {
    for (const auto& [tensor, name] : {std::pair{lhs, "lhs_data->params.zero_point"},
                                       std::pair{rhs, "rhs_data->params.zero_point"},
                                       std::pair{output, "output->params.zero_point"}}) {
      if (ZeroPoint(tensor) != 0) return Failure(NotEqual(name, "0", ZeroPoint(tensor), 0), kFile);
    }
  }
  return BatchMatMulShapeFailure(node, lhs, rhs, output, kFile, kFile);
}

// log_softmax.cc CalculateOpData: one type and one shape in and out; an int8 output has
// TFLM's fixed scale 16/256 and zero point 127.
std::optional<std::string> LogSoftmaxFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "log_softmax.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (input->type != output->type) {
    return Failure(TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
                   kFile);
  }
  if (input->shape != output->shape) {
    return Failure("HaveSameShapes(input, output) was not true.", kFile);
  }
  if (Is(input, T::kInt8)) {
    if (Scale(output) != 16.0f / 256) {
      return Failure("output->params.scale == kOutputScale was not true.", kFile);
    }
    if (ZeroPoint(output) != 127) {
      return Failure("output->params.zero_point == kOutputZeroPoint was not true.", kFile);
    }
  }
  return std::nullopt;
}

// div.cc CalculateOpDataDiv and DivPrepare: one type throughout; an int32 DIV takes unquantized
// inputs only.
std::optional<std::string> DivFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "div.cc";
  const Tensor* input1 = At(g, node.inputs, 0);
  const Tensor* input2 = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input1 == nullptr || input2 == nullptr || output == nullptr) return std::nullopt;
  if (input1->type != input2->type) {
    return Failure(TypeNamesNotEqual("input1->type", "input2->type", input1->type, input2->type),
                   kFile);
  }
  if (input1->type != output->type) {
    return Failure(TypeNamesNotEqual("input1->type", "output->type", input1->type, output->type),
                   kFile);
  }
  if (Is(output, T::kInt32)) {
    for (size_t i = 0; i < 2; ++i) {
      if (Affine(At(g, node.inputs, i))) {
        return Failure("input" + std::to_string(i + 1) +
                           "->quantization.type != kTfLiteNoQuantization (1 != 0)",
                       kFile);
      }
    }
  }
  return std::nullopt;
}

// assign_variable.cc Prepare: a resource (or int32) id of one element, then the value.
std::optional<std::string> AssignVariableFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "assign_variable.cc";
  if (auto failure = CountFailure(node, 2, 0, kFile)) return failure;
  const Tensor* id = At(g, node.inputs, 0);
  if (id == nullptr) return std::nullopt;
  if (!Is(id, T::kResource) && !Is(id, T::kInt32)) {
    return Failure(
        "(input_resource_id_tensor->type == kTfLiteResource || input_resource_id_tensor->type == "
        "kTfLiteInt32) was not true.",
        kFile, "id " + TypeName(id->type));
  }
  int64_t elements = 1;
  for (int32_t dim : id->shape) elements *= dim;
  if (elements != 1) {
    return Failure(NotEqual("NumElements(input_resource_id_tensor->dims)", "1", elements, 1),
                   kFile);
  }
  return std::nullopt;
}

// elementwise.cc GenericPrepare and PrepareAbsRsqrt: one type in and out, of the types the op
// evaluates (float32 for SIN, COS, LOG, SQRT, SQUARE; bool for LOGICAL_NOT; float32, int8, int16
// for ABS; float32, int8 for RSQRT); a quantized ABS / RSQRT needs scales and zero points, an
// int16 one zero points of 0.
std::optional<std::string> ElementwiseFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "elementwise.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (input->type != output->type) {
    return Failure(TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
                   kFile);
  }
  const std::string_view op = node.op;
  bool supported = Is(input, T::kFloat32);
  if (op == "LOGICAL_NOT") supported = Is(input, T::kBool);
  if (op == "ABS") supported = supported || Is(input, T::kInt8) || Is(input, T::kInt16);
  if (op == "RSQRT") supported = supported || Is(input, T::kInt8);
  if (!supported) {
    return Failure("Input data type " + TypeName(input->type) + " (" +
                       std::to_string(TfLiteTypeValue(input->type)) + ") is not supported.",
                   kFile);
  }
  const bool quantized = Is(input, T::kInt8) || (Is(input, T::kInt16) && Affine(input));
  if ((op == "ABS" || op == "RSQRT") && quantized) {
    if (!Affine(input)) {
      return Failure("input->quantization.type != kTfLiteAffineQuantization (0 != 1)", kFile);
    }
    if (!Affine(output)) {
      return Failure("output->quantization.type != kTfLiteAffineQuantization (0 != 1)", kFile);
    }
    if (Is(input, T::kInt16)) {
      if (ZeroPoint(input) != 0) {
        return Failure(NotEqual("op_data->input_offset", "0", ZeroPoint(input), 0), kFile);
      }
      if (ZeroPoint(output) != 0) {
        return Failure(NotEqual("op_data->output_offset", "0", ZeroPoint(output), 0), kFile);
      }
    }
  }
  return std::nullopt;
}

// mirror_pad.cc MirrorPadPrepare: a padding matrix of one row per input dimension.
std::optional<std::string> MirrorPadFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "mirror_pad.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* paddings = At(g, node.inputs, 1);
  if (input == nullptr || paddings == nullptr) return std::nullopt;
  if (Rank(paddings) != 2) {
    return Failure(NotEqual("NumDimensions(padding_matrix)", "2", Rank(paddings), 2), kFile);
  }
  if (Dim(paddings, 0) != Rank(input)) {
    return Failure(NotEqual("SizeOfDimension(padding_matrix, 0)", "NumDimensions(input_tensor)",
                            Dim(paddings, 0), Rank(input)),
                   kFile);
  }
  return std::nullopt;
}

// strided_slice.cc Prepare: input, begin, end, strides; at most 4 dimensions.
std::optional<std::string> StridedSliceFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "strided_slice.cc";
  if (auto failure = CountFailure(node, 4, 1, kFile)) return failure;
  if (Rank(At(g, node.inputs, 0)) > 4) return Failure("input dim should not exceed 4", kFile);
  // CheckOutputSize: the output must be the slice the constant begin, end and strides give, as
  // TFLite computes it, but TFLM's BuildStridedSliceParams drops the ellipsis and new-axis masks.
  const Tensor* output = At(g, node.outputs, 0);
  if (output == nullptr) return std::nullopt;
  Node tflm_node = node;
  tflm_node.options.Mutable().ellipsis_mask = 0;
  tflm_node.options.Mutable().new_axis_mask = 0;
  auto inferred = InferOutputShapesOrDynamic(g, tflm_node);
  if (!inferred.ok()) {
    if (inferred.status().message().find("stride value has to be non-zero") != std::string::npos) {
      return Failure("stride value has to be non-zero", kFile);
    }
    return std::nullopt;
  }
  if (inferred->dynamic || inferred->shapes.empty()) return std::nullopt;
  const auto& expected = inferred->shapes[0];
  for (size_t i = 0; i < expected.size() && i < output->shape.size(); ++i) {
    if (output->shape[i] != expected[i]) {
      return Failure(
          NotEqual("output_shape->data[shape_size]", "dim_shape", output->shape[i], expected[i]),
          kFile);
    }
  }
  if (output->shape.size() != expected.size()) {
    return Failure(NotEqual("output_shape->size", "shape_size", Rank(output),
                            static_cast<int64_t>(expected.size())),
                   kFile);
  }
  return std::nullopt;
}

// reduce_common.cc PrepareSimple: an input and an int32 axis, one output.
std::optional<std::string> ReduceFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "reduce_common.cc";
  if (node.inputs.size() != 2) {
    return Failure(NotEqual("node->inputs->size", "2", node.inputs.size(), 2), kFile);
  }
  if (node.outputs.size() != 1) {
    return Failure(NotEqual("node->outputs->size", "1", node.outputs.size(), 1), kFile);
  }
  const Tensor* axis = At(g, node.inputs, 1);
  if (axis != nullptr && !Is(axis, T::kInt32)) {
    return Failure(TypeNamesNotEqual("axis->type", "kTfLiteInt32", axis->type, T::kInt32), kFile);
  }
  return std::nullopt;
}

// tanh.cc CalculateArithmeticOpData: one type in and out.
// tanh.cc CalculateArithmeticOpData and logistic_common.cc CalculateArithmeticOpDataLogistic:
// one type in and out; int16 needs zero points 0 and an output scale whose log2 rounds to -15
// (CheckedLog2: within 1e-3); LOGISTIC's int8 output needs zero point -128.
std::optional<std::string> SigmoidFailure(const Subgraph& g, const Node& node) {
  const bool tanh = node.op == "TANH";
  const std::string_view file = tanh ? "tanh.cc" : "logistic_common.cc";
  if (tanh) {
    if (auto failure = CountFailure(node, 1, 1, file)) return failure;
  }
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (input->type != output->type) {
    return Failure(TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
                   file);
  }
  if (!tanh && Is(input, T::kInt8) && ZeroPoint(output) != -128) {
    return Failure(NotEqual("output->params.zero_point", "std::numeric_limits<int8_t>::min()",
                            ZeroPoint(output), -128),
                   file);
  }
  if (!Is(input, T::kInt16)) return std::nullopt;
  if (ZeroPoint(input) != 0) {
    return Failure(NotEqual("input->params.zero_point", "0", ZeroPoint(input), 0), file);
  }
  if (ZeroPoint(output) != 0) {
    return Failure(NotEqual("output->params.zero_point", "0", ZeroPoint(output), 0), file);
  }
  const float log2 = std::log(Scale(output)) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2);
  if (!(std::abs(log2 - rounded) < 1e-3f)) {
    return Failure("CheckedLog2(output->params.scale, &output_scale_log2_rounded) was not true.",
                   file);
  }
  if (rounded != -15.0f) {
    return Failure(NotEqual("output_scale_log2_rounded", "-kOutputFractionalBits",
                            static_cast<int64_t>(rounded), -15),
                   file);
  }
  return std::nullopt;
}

// floor_div.cc / floor_mod.cc CalculateOpData: two inputs and the output of one type.
std::optional<std::string> FloorDivModFailure(const Subgraph& g, const Node& node) {
  const std::string_view file = node.op == "FLOOR_DIV" ? "floor_div.cc" : "floor_mod.cc";
  if (auto failure = CountFailure(node, 2, 1, file)) return failure;
  const Tensor* input1 = At(g, node.inputs, 0);
  const Tensor* input2 = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input1 == nullptr || input2 == nullptr || output == nullptr) return std::nullopt;
  if (input1->type != input2->type) {
    return Failure(TypeNamesNotEqual("input1->type", "input2->type", input1->type, input2->type),
                   file);
  }
  if (input1->type != output->type) {
    return Failure(TypeNamesNotEqual("input1->type", "output->type", input1->type, output->type),
                   file);
  }
  return std::nullopt;
}

// add_n.cc CalculateOpData: at least two inputs of the output's type and the first's shape
// (int8 ones with its quantization); float32 or int8 only.
std::optional<std::string> AddNFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "add_n.cc";
  if (node.inputs.size() < 2) return Failure("num_inputs >= 2 was not true.", kFile);
  if (node.outputs.size() != 1) {
    return Failure(NotEqual("NumOutputs(node)", "1", node.outputs.size(), 1), kFile);
  }
  const Tensor* first = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (first == nullptr || output == nullptr) return std::nullopt;
  if (output->type != first->type) {
    return Failure(
        TypeNamesNotEqual("output->type", "input_tensor_first->type", output->type, first->type),
        kFile);
  }
  for (size_t i = 1; i < node.inputs.size(); ++i) {
    const Tensor* input = At(g, node.inputs, i);
    if (input == nullptr) continue;
    if (input->shape != first->shape) {
      return Failure("HaveSameShapes(input_tensor_first, input) was not true.", kFile);
    }
    if (input->type != first->type) {
      return Failure(
          TypeNamesNotEqual("input_tensor_first->type", "input->type", first->type, input->type),
          kFile);
    }
    if (Is(first, T::kInt8) && ZeroPoint(first) != ZeroPoint(input)) {
      return Failure(
          "input_tensor_first->params.zero_point == input->params.zero_point was not true.", kFile);
    }
    if (Is(first, T::kInt8) && Scale(first) != Scale(input)) {
      return Failure("input_tensor_first->params.scale == input->params.scale was not true.",
                     kFile);
    }
  }
  if (!Is(output, T::kFloat32) && !Is(output, T::kInt8)) {
    return Failure("ADD_N only supports FLOAT32 and INT8, got " + TypeName(output->type) + ".",
                   kFile);
  }
  return std::nullopt;
}
std::optional<std::string> FailureOf(const Subgraph& subgraph, const Node& node) {
  const std::string_view op = node.op;
  if (op == "CONV_2D") return ConvFailure(subgraph, node);
  if (op == "DEPTHWISE_CONV_2D") return DepthwiseConvFailure(subgraph, node);
  if (op == "TRANSPOSE_CONV") return TransposeConvFailure(subgraph, node);
  if (op == "FULLY_CONNECTED") return FullyConnectedFailure(subgraph, node);
  if (op == "SVDF") return SvdfFailure(subgraph, node);
  if (op == "DEQUANTIZE") return DequantizeFailure(subgraph, node);
  if (op == "QUANTIZE") return QuantizeFailure(subgraph, node);
  if (op == "SOFTMAX") return SoftmaxFailure(subgraph, node);
  if (op == "ADD") return AddFailure(subgraph, node);
  if (op == "MUL") return MulFailure(subgraph, node);
  if (op == "CONCATENATION") return ConcatenationFailure(subgraph, node);
  if (op == "PAD" || op == "PADV2") return PadFailure(subgraph, node);
  if (op == "BATCH_MATMUL") return BatchMatMulFailure(subgraph, node);
  if (op == "LOG_SOFTMAX") return LogSoftmaxFailure(subgraph, node);
  if (op == "DIV") return DivFailure(subgraph, node);
  if (op == "CAST") return CountFailure(node, 1, 1, "cast.cc");
  if (op == "ASSIGN_VARIABLE") return AssignVariableFailure(subgraph, node);
  if (op == "SIN" || op == "COS" || op == "LOG" || op == "SQRT" || op == "SQUARE" ||
      op == "LOGICAL_NOT" || op == "ABS" || op == "RSQRT") {
    return ElementwiseFailure(subgraph, node);
  }
  if (op == "MIRROR_PAD") return MirrorPadFailure(subgraph, node);
  if (op == "STRIDED_SLICE") return StridedSliceFailure(subgraph, node);
  if (op == "MEAN" || op == "SUM" || op == "REDUCE_MAX" || op == "REDUCE_MIN") {
    return ReduceFailure(subgraph, node);
  }
  if (op == "TANH" || op == "LOGISTIC") return SigmoidFailure(subgraph, node);
  if (op == "FLOOR_DIV" || op == "FLOOR_MOD") return FloorDivModFailure(subgraph, node);
  if (op == "ADD_N") return AddNFailure(subgraph, node);
  if (op == "CEIL") return FloatUnaryFailure(subgraph, node, "ceil.cc");
  if (op == "ROUND") return FloatUnaryFailure(subgraph, node, "round.cc");
  if (op == "EXP") return FloatUnaryFailure(subgraph, node, "exp.cc");
  if (op == "CUMSUM") return CumsumFailure(subgraph, node);
  if (op == "DEPTH_TO_SPACE" || op == "SPACE_TO_DEPTH") return DepthSpaceFailure(subgraph, node);
  if (op == "ELU") return EluFailure(subgraph, node);
  if (op == "FILL") return FillFailure(subgraph, node);
  if (op == "L2_POOL_2D") return L2PoolFailure(subgraph, node);
  if (op == "REVERSE_V2") return ReverseFailure(subgraph, node);
  if (op == "SELECT_V2") return SelectFailure(subgraph, node);
  if (op == "BROADCAST_TO") return BroadcastToFailure(subgraph, node);
  if (op == "BROADCAST_ARGS") return BroadcastArgsFailure(subgraph, node);
  if (op == "ZEROS_LIKE") return CountFailure(node, 1, 1, "zeros_like.cc");
  if (op == "UNIDIRECTIONAL_SEQUENCE_LSTM") return SequenceLstmFailure(subgraph, node);
  return std::nullopt;
}

}  // namespace
}  // namespace prepare_checks

std::optional<std::string> PrepareFailure(const Subgraph& subgraph, const Node& node) {
  if (SignalResolverMethod(node.op)) return SignalPrepareFailure(subgraph, node);
  if (MicroCustomResolverMethod(node.op)) return MicroCustomPrepareFailure(subgraph, node);
  return prepare_checks::FailureOf(subgraph, node);
}

}  // namespace tfa::tflm
