// TFLite_Detection_PostProcess (tflite/kernels/detection_postprocess.cc), the SSD post-processing
// custom op upstream's BuiltinOpResolver registers. Its Init parses the op's flexbuffer options
// and reserves two tensors; its Prepare sizes the four outputs from the options (boxes [1, N, 4],
// classes [1, N], scores [1, N], count [1], all float32, N = max_detections x
// max_classes_per_detection) and the two Init tensors as the decoded boxes [boxes, 4] and the class
// scores [boxes, classes], in the arena.
#ifndef LIBANALYSIS_PREPARE_DETECTION_POSTPROCESS_PREPARE_H_
#define LIBANALYSIS_PREPARE_DETECTION_POSTPROCESS_PREPARE_H_

#include <cstdint>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {

// The options the kernel's Prepare reads, with upstream's defaults for absent keys
// (detections_per_class 100; an absent integer reads as 0).
struct DetectionPostProcessOptions {
  int32_t max_detections = 0;
  int32_t max_classes_per_detection = 0;
  int32_t detections_per_class = 100;
  int32_t num_classes = 0;
};

// Parses a flexbuffer map of options; an error when the bytes are no valid flexbuffer map.
[[nodiscard]] Result<DetectionPostProcessOptions> ParseDetectionPostProcessOptions(
    const std::vector<uint8_t>& custom_options);

// Errors name the op and the reason: invalid options, or a check of upstream's Prepare that fails
// (input ranks, negative counts, products overflowing int32).
[[nodiscard]] Result<KernelPrepareEffect> PrepareDetectionPostProcess(const Subgraph& subgraph,
                                                                      const Node& node);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_DETECTION_POSTPROCESS_PREPARE_H_
