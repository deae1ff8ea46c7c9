// TFLite_Detection_PostProcess (float32, or uint8 inputs dequantized first), the custom op
// upstream's BuiltinOpResolver registers (tflite/kernels/detection_postprocess.cc): center-size box
// encodings decoded against the anchors (in double, as upstream), then non-max suppression, either
// the fast multi-class variant (each anchor ranked by its best class) or the regular one (per
// class, merged by score). Outputs: boxes [1, n, 4] (ymin, xmin, ymax, xmax), classes, scores,
// num_detections. Options come from the node's flexbuffer map.
#ifndef RUNTIME_KERNELS_CPU_DETECTION_POSTPROCESS_H_
#define RUNTIME_KERNELS_CPU_DETECTION_POSTPROCESS_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareDetectionPostProcess(KernelContext& context);
[[nodiscard]] Status EvalDetectionPostProcess(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_DETECTION_POSTPROCESS_H_
