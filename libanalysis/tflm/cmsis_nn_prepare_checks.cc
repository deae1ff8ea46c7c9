#include "libanalysis/tflm/cmsis_nn_prepare_checks.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>

#include "libanalysis/tflm/kernel_prepare_check_helpers.h"
#include "libanalysis/tflm/kernel_prepare_checks.h"

namespace tfa::tflm {
namespace {

using namespace prepare_checks;  // NOLINT(google-build-using-namespace): the checks' vocabulary

constexpr std::string_view kHybrid = "Hybrid models are not supported on TFLite Micro.";
constexpr std::string_view kInputType = "Input data type not supported";

bool FloatInt16OrInt8(const Tensor* tensor) {
  return Is(tensor, T::kFloat32) || Is(tensor, T::kInt16) || Is(tensor, T::kInt8);
}

// The weight pairs the port's convolutions take: float with float, int16 with int8, int8 with
// int8 (and int4 where `int4_filter`).
bool SupportedPair(const Tensor* input, const Tensor* filter, bool int4_filter) {
  return (Is(input, T::kFloat32) && Is(filter, T::kFloat32)) ||
         (Is(input, T::kInt16) && Is(filter, T::kInt8)) ||
         (Is(input, T::kInt8) && (Is(filter, T::kInt8) || (int4_filter && Is(filter, T::kInt4))));
}

// Input and output of one type, one the port runs, with weights it pairs with it.
std::optional<std::string> TypeFailure(const Tensor* input, const Tensor* filter,
                                       const Tensor* output, bool int4_filter,
                                       std::string_view file) {
  if (input->type != output->type) {
    return Failure(TypesNotEqual("input->type", "output->type", input->type, output->type), file,
                   Types("input", input, "output", output));
  }
  if (!FloatInt16OrInt8(input)) return Failure(kInputType, file, "input " + TypeName(input->type));
  if (!SupportedPair(input, filter, int4_filter)) {
    return Failure(kHybrid, file, Types("input", input, "filter", filter));
  }
  return std::nullopt;
}

// A quantized filter's scales: per tensor or one per channel of `channels`, with as many zero
// points.
std::optional<std::string> FilterScalesFailure(const Tensor* filter, int64_t channels,
                                               std::string_view dimension, std::string_view file) {
  if (!Affine(filter)) {
    return Failure("filter->quantization.type != kTfLiteAffineQuantization (0 != 1)", file,
                   "the filter has no scales and zero points");
  }
  const uint64_t scales = filter->quantization->scale.size();
  if (scales != 1 && static_cast<int64_t>(scales) != channels) {
    return Failure(
        "affine_quantization->scale->size == 1 || affine_quantization->scale->size == "
        "filter->dims->data[" +
            std::string(dimension) + "] was not true.",
        file, std::to_string(scales) + " scales, " + std::to_string(channels) + " channels");
  }
  const uint64_t zero_points = filter->quantization->zero_point.size();
  if (scales != zero_points) {
    return Failure(NotEqual("affine_quantization->scale->size",
                            "affine_quantization->zero_point->size", scales, zero_points),
                   file);
  }
  return std::nullopt;
}

std::optional<std::string> ZeroPointsFailure(
    std::initializer_list<std::pair<const Tensor*, std::string_view>> tensors,
    std::string_view file) {
  for (const auto& [tensor, name] : tensors) {
    if (ZeroPoint(tensor) != 0) {
      return Failure(NotEqual(std::string(name) + "->params.zero_point", "0", ZeroPoint(tensor), 0),
                     file);
    }
  }
  return std::nullopt;
}

// transpose_conv.cc (tflite-micro 0cc6f98) Prepare, then CalculateOpData: unlike the reference
// kernel it refuses mixed types in Prepare.
std::optional<std::string> TransposeConvFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "cmsis_nn/transpose_conv.cc";
  const Tensor* filter = At(g, node.inputs, 1);
  const Tensor* input = At(g, node.inputs, 2);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || filter == nullptr || output == nullptr) return std::nullopt;
  if (auto failure = TypeFailure(input, filter, output, false, kFile)) return failure;
  if (Is(input, T::kInt8) || Is(input, T::kInt16)) {
    if (auto failure =
            FilterScalesFailure(filter, Dim(filter, 0), "kConvQuantizedDimension", kFile)) {
      return failure;
    }
  }
  if (node.inputs.size() != 3 && node.inputs.size() != 4) {
    return Failure("has_bias || node->inputs->size == 3 was not true.", kFile);
  }
  if (node.outputs.size() != 1) {
    return Failure(NotEqual("node->outputs->size", "1", node.outputs.size(), 1), kFile);
  }
  return std::nullopt;
}

// depthwise_conv.cc (tflite-micro 0cc6f98) Prepare: the reference kernel's checks, with mixed
// types refused in Prepare and an int16 kernel's zero points held to 0.
std::optional<std::string> DepthwiseConvFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "cmsis_nn/depthwise_conv.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* filter = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || filter == nullptr || output == nullptr) return std::nullopt;
  if (auto failure = TypeFailure(input, filter, output, true, kFile)) return failure;
  if (!Is(input, T::kInt8) && !Is(input, T::kInt16)) return std::nullopt;
  if (!Affine(filter)) {
    return Failure("filter->quantization.type != kTfLiteAffineQuantization (0 != 1)", kFile,
                   "the filter has no scales and zero points");
  }
  if (Is(input, T::kInt16)) {
    if (auto failure = ZeroPointsFailure({{input, "input"}, {output, "output"}}, kFile)) {
      return failure;
    }
  }
  return FilterScalesFailure(filter, Dim(filter, 3), "kDepthwiseConvQuantizedDimension", kFile);
}

// fully_connected.cc (tflite-micro 045bc37) Prepare, and CalculateOpDataFullyConnected
// (fully_connected_common.cc): per-channel weights only for an int8 input and int8 weights, one
// scale per row of the quantized dimension; an int16 kernel's zero points held to 0.
std::optional<std::string> FullyConnectedFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "cmsis_nn/fully_connected.cc";
  constexpr std::string_view kCommon = "fully_connected_common.cc";
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* filter = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || filter == nullptr || output == nullptr) return std::nullopt;
  if (auto failure = TypeFailure(input, filter, output, true, kFile)) return failure;
  if (!Is(input, T::kFloat32) && Affine(filter) && filter->quantization->per_channel()) {
    if (!Is(input, T::kInt8) || Is(filter, T::kInt4)) {
      return Failure("input->type == kTfLiteInt8 && filter->type != kTfLiteInt4 was not true.",
                     kCommon, "per-channel " + Types("input", input, "filter", filter));
    }
    const int64_t scales = static_cast<int64_t>(filter->quantization->scale.size());
    const int64_t rows =
        Dim(filter, static_cast<size_t>(filter->quantization->quantized_dimension));
    if (scales != rows) {
      return Failure(
          NotEqual("per_channel_quantization_size",
                   "filter->dims->data[affine_quantization->quantized_dimension]", scales, rows),
          kCommon);
    }
  }
  if (Is(input, T::kInt16)) return ZeroPointsFailure({{input, "input"}, {output, "output"}}, kFile);
  return std::nullopt;
}

// batch_matmul.cc (tflite-micro 183da3e) Prepare: CMSIS-NN's batch matmul takes ranks 2 to 4
// (the reference kernel 2 to 5).
std::optional<std::string> BatchMatMulFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "cmsis_nn/batch_matmul.cc";
  const Tensor* lhs = At(g, node.inputs, 0);
  const Tensor* rhs = At(g, node.inputs, 1);
  const Tensor* output = At(g, node.outputs, 0);
  if (lhs == nullptr || rhs == nullptr || output == nullptr) return std::nullopt;
  if (lhs->type != rhs->type) {
    return Failure(TypeNamesNotEqual("lhs_input->type", "rhs_input->type", lhs->type, rhs->type),
                   kFile);
  }
  if (lhs->type != output->type) {
    return Failure(TypesNotEqual("lhs_input->type", "output->type", lhs->type, output->type), kFile,
                   Types("lhs", lhs, "output", output));
  }
  if (!FloatInt16OrInt8(lhs)) return Failure(kInputType, kFile, "lhs " + TypeName(lhs->type));
  const int64_t lhs_rank = Rank(lhs);
  const int64_t rhs_rank = Rank(rhs);
  if (lhs_rank < 2) return Failure("lhs_rank >= 2 was not true.", kFile);
  if (lhs_rank > 4) return Failure("lhs_rank <= 4 was not true.", kFile);
  if (rhs_rank < 2) return Failure("rhs_rank >= 2 was not true.", kFile);
  if (rhs_rank > 4) return Failure("rhs_rank <= 4 was not true.", kFile);
  if (auto failure =
          BatchMatMulShapeFailure(node, lhs, rhs, output, kFile, "batch_matmul_common.cc")) {
    return failure;
  }
  if (Is(lhs, T::kInt16)) {
    return ZeroPointsFailure({{lhs, "lhs_input"}, {rhs, "rhs_input"}, {output, "output"}}, kFile);
  }
  return std::nullopt;
}

// softmax.cc (tflite-micro 0cc6f98) Prepare: the types it runs together are checked before
// CalculateSoftmaxParams (softmax_common.cc), which also holds an int16 input's zero point to 0,
// then makes the reference kernel's checks.
std::optional<std::string> SoftmaxFailure(const Subgraph& g, const Node& node) {
  constexpr std::string_view kFile = "cmsis_nn/softmax.cc";
  if (auto failure = CountFailure(node, 1, 1, kFile)) return failure;
  const Tensor* input = At(g, node.inputs, 0);
  const Tensor* output = At(g, node.outputs, 0);
  if (input == nullptr || output == nullptr) return std::nullopt;
  if (Rank(input) < 1) return Failure("NumDimensions(input) >= 1 was not true.", kFile);
  if (input->type != output->type && !(Is(input, T::kInt8) && Is(output, T::kInt16))) {
    return Failure("Input and output data types are not supported together.", kFile,
                   Types("input", input, "output", output));
  }
  if (!FloatInt16OrInt8(input)) return Failure(kInputType, kFile, "input " + TypeName(input->type));
  if (Is(input, T::kInt16)) {
    if (auto failure = ZeroPointsFailure({{input, "input"}}, "softmax_common.cc")) return failure;
  }
  return PrepareFailure(g, node);
}

// unidirectional_sequence_lstm.cc (tflite-micro 0035387) Prepare: the reference kernel's checks,
// and the eight weights and four gate biases constant (CMSIS-NN's kernel sums are computed from
// them in Prepare). The port checks constness after the tensors' presence and before their
// sizes; a model failing both reads the reference's line here.
std::optional<std::string> SequenceLstmFailure(const Subgraph& g, const Node& node) {
  if (auto failure = PrepareFailure(g, node)) return failure;
  constexpr std::string_view kFile = "cmsis_nn/unidirectional_sequence_lstm.cc";
  for (size_t i : {1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15}) {
    const Tensor* tensor = At(g, node.inputs, i);
    if (tensor != nullptr && !tensor->is_constant()) {
      return Failure("IsConstantTensor(lstm_tensors.GetInternalTensor(i)) was not true.", kFile,
                     "input " + std::to_string(i) + " is not constant");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CmsisNnPrepareFailure(const Subgraph& subgraph, const Node& node) {
  const std::string_view op = node.op;
  if (op == "TRANSPOSE_CONV") return TransposeConvFailure(subgraph, node);
  if (op == "DEPTHWISE_CONV_2D") return DepthwiseConvFailure(subgraph, node);
  if (op == "FULLY_CONNECTED") return FullyConnectedFailure(subgraph, node);
  if (op == "BATCH_MATMUL") return BatchMatMulFailure(subgraph, node);
  if (op == "SOFTMAX") return SoftmaxFailure(subgraph, node);
  if (op == "UNIDIRECTIONAL_SEQUENCE_LSTM") return SequenceLstmFailure(subgraph, node);
  return PrepareFailure(subgraph, node);
}

}  // namespace tfa::tflm
