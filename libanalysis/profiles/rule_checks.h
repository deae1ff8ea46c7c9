// Named node checks: the support rules too intricate to declare in a profile's JSON (upstream's
// per-op parsers, shape and type conditions), implemented in C++ and named by profiles in an op
// rule's "checks" or the profile's "node_checks". Each rule set lives in its own file
// (gpu_rules.cc, xnnpack_rules.cc, nnapi_rules.cc); this is the registry that finds a check by its
// name.
#ifndef LIBANALYSIS_PROFILES_RULE_CHECKS_H_
#define LIBANALYSIS_PROFILES_RULE_CHECKS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa {

struct DelegateProfile;

// Everything a check may look at for one node.
struct NodeContext {
  const Subgraph& subgraph;
  int32_t node_index = 0;
  const Node& node;
  // The node's inputs as the delegate sees them. With upstream's FP16 partition helper, inputs
  // read from constant fp16 DEQUANTIZE nodes met earlier in the plan point at the fp16
  // constants themselves; otherwise these are node.inputs.
  std::span<const int32_t> inputs;
  const DelegateProfile& profile;

  // The tensor behind input `position` (nullptr when absent or optional).
  const Tensor* Input(size_t position) const;
  const Tensor* Output(size_t position) const;
};

struct CheckOutcome {
  enum class Kind : uint8_t {
    kPass,    // this check has nothing against the node; the next check decides
    kReject,  // unsupported, for `reason`
    kAccept,  // supported: the op rule's remaining checks are skipped (profile checks still run)
  };
  Kind kind = Kind::kPass;
  std::string reason;  // in upstream's words, as its log prints them (GPU: gpu_compatibility.cc)
  // Ours, where upstream's words do not say it: the tensor or value the check objects to
  // ("input 1 (tensor 57, int32)").
  std::string detail = {};

  static CheckOutcome Pass() { return {}; }
  static CheckOutcome Accept() { return {Kind::kAccept, {}}; }
  static CheckOutcome Reject(std::string reason, std::string detail = {}) {
    return {Kind::kReject, std::move(reason), std::move(detail)};
  }
};

using RuleCheck = CheckOutcome (*)(const NodeContext& context);

struct NamedRuleCheck {
  std::string_view name;
  RuleCheck check = nullptr;
};

// The check registered under `name`, or nullptr.
const NamedRuleCheck* FindRuleCheck(std::string_view name);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_RULE_CHECKS_H_
