#include "libanalysis/tflm/micro_custom_kernels.h"

#include <algorithm>
#include <cstdint>

#include "libanalysis/prepare/detection_postprocess_prepare.h"
#include "libanalysis/tflm/kernel_prepare_check_helpers.h"

namespace tfa::tflm {
namespace {

using F = Field;
using prepare_checks::At;
using prepare_checks::Dim;
using prepare_checks::Failure;
using prepare_checks::Rank;

constexpr std::string_view kCircularBuffer = "CIRCULAR_BUFFER";
constexpr std::string_view kDetectionPostProcess = "TFLite_Detection_PostProcess";
// GetString_ETHOSU(): the custom name Arm's Vela writes for the NPU's command stream.
constexpr std::string_view kEthosU = "ethos-u";

constexpr std::string_view kCircularBufferFile = "circular_buffer.cc";
constexpr std::string_view kDetectionFile = "detection_postprocess.cc";

std::optional<std::string> CircularBufferFailure(const Subgraph& subgraph, const Node& node) {
  if (node.inputs.size() != 1) {
    return Failure("node->inputs->size == 1 was not true.", kCircularBufferFile);
  }
  if (node.outputs.size() != 1 && node.outputs.size() != 2) {
    return Failure("node->outputs->size == 1 || node->outputs->size == 2 was not true.",
                   kCircularBufferFile);
  }
  const Tensor* input = At(subgraph, node.inputs, 0);
  const Tensor* output = At(subgraph, node.outputs, 0);
  if (input == nullptr || output == nullptr) {
    return Failure("input != nullptr was not true.", kCircularBufferFile);
  }
  // Input [batch, 1, height, depth] into output [batch, slots, height, depth].
  struct DimCheck {
    const char* a;
    const char* b;
    int64_t x;
    int64_t y;
  };
  const DimCheck checks[] = {
      {"input->dims->data[0]", "output->dims->data[0]", Dim(input, 0), Dim(output, 0)},
      {"1", "input->dims->data[1]", 1, Dim(input, 1)},
      {"input->dims->data[2]", "output->dims->data[2]", Dim(input, 2), Dim(output, 2)},
      {"output->dims->data[3]", "input->dims->data[3]", Dim(output, 3), Dim(input, 3)},
  };
  for (const DimCheck& check : checks) {
    if (check.x != check.y) {
      return Failure(prepare_checks::NotEqual(check.a, check.b, check.x, check.y),
                     kCircularBufferFile);
    }
  }
  if (input->type != output->type) {
    return Failure(
        prepare_checks::TypeNamesNotEqual("input->type", "output->type", input->type, output->type),
        kCircularBufferFile);
  }
  if (input->type != TensorType::kInt8) {
    return Failure(prepare_checks::TypeNamesNotEqual("input->type", "kTfLiteInt8", input->type,
                                                     TensorType::kInt8),
                   kCircularBufferFile, "the op takes int8 only");
  }
  if (node.outputs.size() == 2) {
    const Tensor* valid = At(subgraph, node.outputs, 1);
    if (valid == nullptr)
      return Failure("valid_output != nullptr was not true.", kCircularBufferFile);
    if (valid->type != TensorType::kBool) {
      return Failure(prepare_checks::TypeNamesNotEqual("valid_output->type", "kTfLiteBool",
                                                       valid->type, TensorType::kBool),
                     kCircularBufferFile);
    }
    int64_t elements = 1;
    for (int32_t d : valid->shape) elements *= d;
    if (elements != 1) {
      return Failure(
          prepare_checks::NotEqual("ElementCount(*valid_output->dims)", "1", elements, 1),
          kCircularBufferFile);
    }
  }
  return std::nullopt;
}

std::optional<std::string> DetectionFailure(const Subgraph& subgraph, const Node& node) {
  if (node.inputs.size() != 3) {
    return Failure(prepare_checks::NotEqual("NumInputs(node)", "3",
                                            static_cast<int64_t>(node.inputs.size()), 3),
                   kDetectionFile);
  }
  const struct {
    const char* name;
    size_t index;
    int64_t rank;
  } ranks[] = {{"NumDimensions(input_box_encodings)", 0, 3},
               {"NumDimensions(input_class_predictions)", 1, 3},
               {"NumDimensions(input_anchors)", 2, 2}};
  for (const auto& check : ranks) {
    const Tensor* tensor = At(subgraph, node.inputs, check.index);
    const int64_t rank = Rank(tensor);
    if (rank != check.rank) {
      return Failure(
          prepare_checks::NotEqual(check.name, std::to_string(check.rank), rank, check.rank),
          kDetectionFile);
    }
  }
  if (node.outputs.size() != 4) {
    return Failure(prepare_checks::NotEqual("NumOutputs(node)", "4",
                                            static_cast<int64_t>(node.outputs.size()), 4),
                   kDetectionFile);
  }
  // Prepare passes whatever the input types, but Eval decodes float32 boxes and scores only
  // (DecodeCenterSizeBoxes and NonMaxSuppressionMultiClass return kTfLiteError for any other): a
  // quantized head allocates and then fails every Invoke, so no arena is offered for it.
  for (size_t index : {size_t{0}, size_t{1}}) {
    const Tensor* input = At(subgraph, node.inputs, index);
    if (input != nullptr && input->type != TensorType::kFloat32) {
      return Failure(
          "Invoke returns kTfLiteError", kDetectionFile,
          std::string(index == 0 ? "box encodings" : "class predictions") + " are " +
              prepare_checks::TypeName(input->type) +
              "; TFLM's kernel decodes FLOAT32 only (Prepare passes, every Invoke fails)");
    }
  }
  return std::nullopt;
}

Result<KernelRequests> DetectionRequests(const Build& build, const Subgraph& subgraph,
                                         const Node& node) {
  if (node.options->custom_options.empty()) {
    const std::string why = node.options->custom_options_size != 0
                                ? "are read from a .tflite file; give the model as .tflite for "
                                  "--target tflm"
                                : "are missing; TFLM's Init reads them as a flexbuffer map "
                                  "without a check";
    return Status::Error(node.op + "'s custom options " + why);
  }
  auto options = ParseDetectionPostProcessOptions(node.options->custom_options);
  if (!options.ok()) return options.status().WithContext(node.op);
  KernelRequests requests;
  // OpData: three ints, two float thresholds, num_classes, a bool, CenterSizeEncoding (four
  // floats), eleven scratch indices, three TfLiteQuantizationParams {float scale, int32 zero
  // point}.
  requests.op_data =
      StructLayout(build,
                   {F::kInt32, F::kInt32, F::kInt32, F::kFloat, F::kFloat, F::kInt32, F::kBool,
                    F::kFloat, F::kFloat, F::kFloat, F::kFloat, F::kInt32, F::kInt32, F::kInt32,
                    F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                    F::kInt32, F::kFloat, F::kInt32, F::kFloat, F::kInt32, F::kFloat, F::kInt32})
          .size;
  const Tensor* boxes = At(subgraph, node.inputs, 0);
  const Tensor* classes = At(subgraph, node.inputs, 1);
  const uint64_t num_boxes = static_cast<uint64_t>(std::max<int64_t>(Dim(boxes, 1), 0));
  const uint64_t class_values = static_cast<uint64_t>(std::max<int64_t>(Dim(classes, 1), 0) *
                                                      std::max<int64_t>(Dim(classes, 2), 0));
  const uint64_t max_detections = static_cast<uint64_t>(std::max(options->max_detections, 0));
  const uint64_t num_classes = static_cast<uint64_t>(std::max(options->num_classes, 0));
  // Prepare's eleven RequestScratchBufferInArena calls, in its order (4-byte floats and ints).
  requests.scratch_buffers = {
      num_boxes,                                              // active candidates (bytes)
      num_boxes * 4 * 4,                                      // decoded boxes
      class_values * 4,                                       // scores
      num_boxes * 4,                                          // score buffer
      num_boxes * 4,                                          // keep scores
      max_detections * num_boxes * 4,                         // scores after regular NMS
      max_detections * num_boxes * 4,                         // sorted values
      num_boxes * 4,                                          // keep indices
      max_detections * num_boxes * 4,                         // sorted indices
      std::max(num_classes, max_detections) * num_boxes * 4,  // buffer
      std::min(num_boxes, max_detections) * num_boxes * 4,    // selected
  };
  return requests;
}

}  // namespace

std::optional<std::string_view> MicroCustomResolverMethod(std::string_view op) {
  if (op == kCircularBuffer) return "AddCircularBuffer";
  if (op == kDetectionPostProcess) return "AddDetectionPostprocess";
  if (op == kEthosU) return "AddEthosU";
  return std::nullopt;
}

std::optional<std::string_view> MicroCustomKernelSource(std::string_view op) {
  if (op == kCircularBuffer) return kCircularBufferFile;
  if (op == kDetectionPostProcess) return kDetectionFile;
  return std::nullopt;
}

Result<KernelRequests> MicroCustomRequests(const Build& build, const Subgraph& subgraph,
                                           const Node& node) {
  if (node.op == kCircularBuffer) {
    KernelRequests requests;
    // OpData {cycles_until_run, cycles_max}; Prepare asks for nothing.
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32}).size;
    return requests;
  }
  if (node.op == kDetectionPostProcess) return DetectionRequests(build, subgraph, node);
  // micro_mutable_op_resolver.h: AddEthosU adds a registration only when Register_ETHOSU()
  // returns one, which it does in an Ethos-U build alone; TFLM's reference build then fails to
  // find a kernel for the op.
  return Status::Error(
      "TFLite Micro has no kernel for " + node.op +
      ": AddEthosU registers one only in an Ethos-U build, whose NPU runs Vela's command stream "
      "with buffers this replay does not know; analyse the model as it was before Vela");
}

std::optional<std::string> MicroCustomPrepareFailure(const Subgraph& subgraph, const Node& node) {
  if (node.op == kCircularBuffer) return CircularBufferFailure(subgraph, node);
  if (node.op == kDetectionPostProcess) return DetectionFailure(subgraph, node);
  return std::nullopt;
}

}  // namespace tfa::tflm
