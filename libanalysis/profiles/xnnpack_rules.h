// The XNNPACK delegate's rules that delegates_sim/profiles/xnnpack.json cannot declare.
//
// Reproduces how upstream's PrepareOpsToDelegate (google-ai-edge/LiteRT
// tflite/delegates/xnnpack/xnnpack_delegate.cc) treats weights it unpacks itself: a DEQUANTIZE
// of fp16 data or a DENSIFY is only taken when its input is static (a constant) or
// quasi-static (the output of a DENSIFY of a constant). That such a node also needs all its
// consumers delegated is the partition setting static_unpack_follows_consumers, applied by
// SelectDelegateNodes once every node has a verdict.
//
// Named checks:
//   xnnpack_static_unpack  fp16 DEQUANTIZE / DENSIFY: input static or quasi-static
#ifndef LIBANALYSIS_PROFILES_XNNPACK_RULES_H_
#define LIBANALYSIS_PROFILES_XNNPACK_RULES_H_

#include <span>

#include "libanalysis/profiles/rule_checks.h"

namespace tfa {

std::span<const NamedRuleCheck> XnnpackRuleChecks();

// True for the nodes the XNNPACK delegate unpacks itself when it takes them: DENSIFY, and
// DEQUANTIZE of fp16 data.
bool IsXnnpackStaticUnpackNode(const Subgraph& subgraph, const Node& node);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_XNNPACK_RULES_H_
