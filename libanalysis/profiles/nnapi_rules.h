// The NNAPI delegate's per-node rule, as a check for libanalysis/profiles/builtin/nnapi.json.
//
// Transcribes NNAPIDelegateKernel::Validate of upstream's
// tflite/delegates/nnapi/nnapi_delegate.cc (google-ai-edge/LiteRT): per op, the maximum op
// version, the Android SDK level it needs (kMinSdkVersionForNNAPI11/12/13 = 28/29/30), the
// input and output types and the operand conditions. Like upstream built with
// NNAPI_VERBOSE_VALIDATION, every failed expectation is collected; the reason joins their
// messages with "; ". Profile options, named as StatefulNnApiDelegate::Options names them:
//   android_sdk_version     the device's level (the target feature level; default the newest)
//   disallow_nnapi_cpu      with level >= 29, the delegate targets the accelerators only, which
//                           makes Validate's is_accelerator_specified true (MUL up to version 3,
//                           large quantized AVERAGE_POOL_2D windows allowed)
//   allow_fp16              fp32 computed in fp16: precision only, not the nodes taken
//   max_number_delegated_partitions  (partition setting, see delegate_profile.h)
// DoPrepare's choice of nodes (the FP16 weight remapping when the plan has constant fp16
// DEQUANTIZE nodes, LimitDelegatedPartitions otherwise) is the profile's partition settings.
//
// Named check:
//   nnapi_validate   NNAPIDelegateKernel::Validate for the node's op
//
// Not reproduced: the accelerators' own answers (ANeuralNetworksModel_getSupportedOperations-
// ForDevices: every node Validate accepts is assumed supported by the device), SPLIT_V sizes
// (assumed non-zero), FILL dims values (assumed within int32), LSH_PROJECTION (assumed dense).
// BATCH_TO_SPACE_ND crops and int64 ARG_MAX axes are read from Tensor::int_values; a model
// without values (Graph JSON) passes those conditions.
#ifndef LIBANALYSIS_PROFILES_NNAPI_RULES_H_
#define LIBANALYSIS_PROFILES_NNAPI_RULES_H_

#include <span>

#include "libanalysis/profiles/rule_checks.h"

namespace tfa {

std::span<const NamedRuleCheck> NnapiRuleChecks();

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_NNAPI_RULES_H_
