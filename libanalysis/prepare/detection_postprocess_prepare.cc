#include "libanalysis/prepare/detection_postprocess_prepare.h"

#include <flatbuffers/flexbuffers.h>

#include "libanalysis/prepare/added_tensors.h"

namespace tfa {

using prepare_internal::Append;
using prepare_internal::ArenaTensor;
using prepare_internal::CheckedInt32Product;
using prepare_internal::NodeError;
using prepare_internal::Operand;

Result<DetectionPostProcessOptions> ParseDetectionPostProcessOptions(
    const std::vector<uint8_t>& custom_options) {
  // Upstream reads the bytes unverified; here a malformed buffer is refused instead of being read
  // out of bounds. Alignment is not required: converters align, upstream does not check.
  flexbuffers::Verifier verifier(custom_options.data(), custom_options.size(),
                                 /*reuse_tracker=*/nullptr, /*_check_alignment=*/false);
  if (!verifier.VerifyBuffer()) {
    return Status::Error("custom options are not a valid flexbuffer (" +
                         std::to_string(custom_options.size()) + " bytes)");
  }
  const flexbuffers::Reference root =
      flexbuffers::GetRoot(custom_options.data(), custom_options.size());
  if (!root.IsMap()) return Status::Error("custom options are not a flexbuffer map");
  const flexbuffers::Map map = root.AsMap();
  DetectionPostProcessOptions options;
  options.max_detections = map["max_detections"].AsInt32();
  options.max_classes_per_detection = map["max_classes_per_detection"].AsInt32();
  if (!map["detections_per_class"].IsNull()) {
    options.detections_per_class = map["detections_per_class"].AsInt32();
  }
  options.num_classes = map["num_classes"].AsInt32();
  return options;
}

Result<KernelPrepareEffect> PrepareDetectionPostProcess(const Subgraph& subgraph,
                                                        const Node& node) {
  constexpr int32_t kBatchSize = 1, kNumCoordBox = 4;
  const Tensor* boxes = Operand(subgraph, node.inputs, 0);
  const Tensor* scores = Operand(subgraph, node.inputs, 1);
  const Tensor* anchors = Operand(subgraph, node.inputs, 2);
  if (node.inputs.size() != 3 || !boxes || !scores || !anchors) {
    return NodeError(node, "needs box encodings, class predictions and anchors");
  }
  if (boxes->shape.size() != 3 || scores->shape.size() != 3 || anchors->shape.size() != 2) {
    return NodeError(node, "box encodings and class predictions must be 3-D, anchors 2-D");
  }
  if (boxes->shape[2] < kNumCoordBox) {
    return NodeError(node, "box encodings dimension 2 must be at least 4");
  }
  auto options = ParseDetectionPostProcessOptions(node.options->custom_options);
  if (!options.ok()) return NodeError(node, options.status().message());
  if (options->max_detections < 0) return NodeError(node, "max_detections must be non-negative");
  if (options->max_classes_per_detection < 0) {
    return NodeError(node, "max_classes_per_detection must be non-negative");
  }
  if (options->detections_per_class < 0) {
    return NodeError(node, "detections_per_class must be non-negative");
  }
  if (options->num_classes <= 0) return NodeError(node, "num_classes must be positive");
  if (!CheckedInt32Product(node, {options->max_detections, 2}).ok()) {
    return NodeError(node, "2 * max_detections overflows int32");
  }
  auto detected =
      CheckedInt32Product(node, {options->max_detections, options->max_classes_per_detection});
  if (!detected.ok()) {
    return NodeError(node, "max_detections * max_classes_per_detection overflows int32");
  }
  if (node.outputs.size() != 4) return NodeError(node, "needs four outputs");
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (!Operand(subgraph, node.outputs, i)) return NodeError(node, "an output is missing");
  }

  KernelPrepareEffect effect;
  const std::vector<std::vector<int32_t>> output_shapes = {
      {kBatchSize, *detected, kNumCoordBox}, {kBatchSize, *detected}, {kBatchSize, *detected}, {1}};
  for (size_t i = 0; i < output_shapes.size(); ++i) {
    effect.resized.push_back({node.outputs[i], TensorType::kFloat32, output_shapes[i]});
  }
  effect.fills_init_tensors = true;
  TFA_RETURN_IF_ERROR(
      Append(effect, ArenaTensor(node, TensorType::kFloat32, {boxes->shape[1], kNumCoordBox})));
  TFA_RETURN_IF_ERROR(Append(
      effect, ArenaTensor(node, TensorType::kFloat32, {scores->shape[1], scores->shape[2]})));
  return effect;
}

}  // namespace tfa
