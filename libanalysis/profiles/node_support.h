// A delegate profile's verdict on one node: supported, or the exact reason it is not.
//
// For rule profiles the checks run in a fixed order, each stopping at the first failure:
//   1. delegate kernels of earlier delegates are never taken (as upstream: their op is DELEGATE);
//   2. ops switched off by an option (`ops_excluded_unless`) count as unlisted;
//   3. an op without a rule, or whose rule needs an option that is off: `unlisted_reason`
//      (`unlisted_custom_reason` for custom ops);
//   4. the rule's max_version (`version_reason`);
//   5. the rule's declared constraints: input types, output types, ranks, fused activation,
//      constant weights, broadcasting, strides;
//   6. the rule's named checks, in order (one may accept the node outright, skipping the rest);
//   7. the profile's node_checks.
// `ops=` profiles accept nodes by op name, `nodes=` profiles by index; neither checks anything
// else.
#ifndef LIBANALYSIS_PROFILES_NODE_SUPPORT_H_
#define LIBANALYSIS_PROFILES_NODE_SUPPORT_H_

#include <cstdint>
#include <string>

#include "libanalysis/core/shared_string.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/rule_checks.h"

namespace tfa {

// One per planned node, a million in a large graph: the texts are shared (SelectDelegateNodes
// shares a reason with the node before when they read the same, issue 46).
struct NodeSupport {
  int32_t node = 0;
  bool supported = false;
  // Held back by the FP16 partition helper (a constant fp16 DEQUANTIZE): unsupported with an
  // empty reason, as upstream logs it.
  bool fp16_dequantize_held_back = false;
  SharedString reason;  // why not, as upstream logs it; empty when supported
  SharedString detail;  // what the check objected to, where `reason` does not name it
};

// How upstream names a node's op in its logs: "CONV_2D", "CUSTOM name", "DELEGATE name".
std::string UpstreamOpName(const Node& node);

NodeSupport EvaluateNodeSupport(const NodeContext& context);

// The reason as reports show it: one line (upstream ends some reasons with a newline, "Only
// support 1D indices\n"), followed by the detail: "OP is supported, but tensor type/shape isn't
// compatible: input 1 (tensor 57, int32) is not float32 or float16".
std::string ReasonText(const NodeSupport& verdict);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_NODE_SUPPORT_H_
