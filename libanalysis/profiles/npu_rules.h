// Named checks of the LiteRT compiler plugins' op selection (`--accelerator npu:VENDOR`), each
// transcribed from the plugin's LiteRtCompilerPluginPartition in google-ai-edge/LiteRT
// litert/vendors/ (the file is cited at each check). They replay what the plugin itself checks
// before pushing an op; what the vendor SDK checks after that (QNN's ValidateOp, Neuron's
// GetSupportedOperations, the Google Tensor compiler) is not known here.
//
//   example_rms_norm_composite  examples/example_plugin.cc: a STABLEHLO_COMPOSITE is taken only
//                               when named "odml.rms_norm"
//   qualcomm_tensor_types       qualcomm/compiler/qnn_compose_graph.cc ConvertTensor: every
//                               input and output converts to a QNN data type (not int4, int2,
//                               uint4, bfloat16, string, complex, resource, variant) and is not
//                               blockwise quantized
//   mediatek_tensor_types       mediatek/compiler/legalizations/neuron_utils.cc
//                               GetNeuronTensorType, as VerifyCommonOp asks it of every input
//                               and output
//   mediatek_norm_composite     mediatek/compiler/legalizations/common_op_legalization.cc
//                               VerifyCommonOp: composites "odml.rms_norm" and "odml.l2_norm"
#ifndef LIBANALYSIS_PROFILES_NPU_RULES_H_
#define LIBANALYSIS_PROFILES_NPU_RULES_H_

#include <span>

#include "libanalysis/profiles/rule_checks.h"

namespace tfa {

std::span<const NamedRuleCheck> NpuRuleChecks();

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_NPU_RULES_H_
