// The TFLite GPU delegate's per-node support rules, as checks for
// libanalysis/profiles/builtin/gpu.json.
//
// Reproduces the verdict and the one-line reason of upstream's IsSupported path
// (google-ai-edge/LiteRT tflite/delegates/gpu/common/model_builder.cc: each op parser's
// IsSupported, which calls CheckGpuDelegateCompatibility of
// tflite/tools/versioning/gpu_compatibility.cc with the standard broadcast flags, then the
// node_supported_fn of GetOpsToReplace that checks the non-constant tensors' types and ranks).
// The op list, each op's maximum version (model_builder_helper.cc CheckMaxSupportedOpVersion)
// and the quantized-op / OpenCL switches are declared in gpu.json; these checks are what remains.
//
// Named checks:
//   gpu_compatibility    CheckGpuDelegateCompatibility for the node's op (builtin or custom)
//   gpu_logical_op       the elementwise parser's comparison-op rule (its result must feed a
//                        CAST/SELECT/SELECT_V2 producing floats); accepts or rejects
//   gpu_cast             the CAST parser's bool -> float rule; accepts, rejects, or defers to
//                        gpu_compatibility
//   gpu_allowed_tensors  every non-constant input/output of an allowed type, no tensor of rank 5+
//
// Not reproduced, because the Graph IR does not carry the data: custom ops' option bytes (the
// strides and windows of Convolution2DTransposeBias / MaxPoolingWithArgmax2D / MaxUnpooling2D
// are assumed valid), DEPTH_TO_SPACE / SPACE_TO_DEPTH block sizes (assumed > 1), ONE_HOT's axis
// beyond OpOptions::axis, LSTM kernel options (assumed valid).
#ifndef LIBANALYSIS_PROFILES_GPU_RULES_H_
#define LIBANALYSIS_PROFILES_GPU_RULES_H_

#include <span>

#include "libanalysis/profiles/rule_checks.h"

namespace tfa {

std::span<const NamedRuleCheck> GpuRuleChecks();

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_GPU_RULES_H_
