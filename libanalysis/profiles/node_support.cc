#include "libanalysis/profiles/node_support.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <span>
#include <vector>

#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {
namespace {

using Reason = std::optional<std::string>;

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

std::string Shape(std::span<const int32_t> dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(dims[i]);
  }
  return out + "]";
}

std::string TypeList(const std::vector<TensorType>& types) {
  std::string out;
  for (TensorType t : types) {
    if (!out.empty()) out += '|';
    out += TensorTypeName(t);
  }
  return out;
}

std::string UnlistedReason(const NodeContext& context) {
  const DelegateProfile& profile = context.profile;
  std::string reason = context.node.kind == NodeKind::kCustom ? profile.unlisted_custom_reason
                                                              : profile.unlisted_reason;
  ReplaceAll(reason, "{custom}", context.node.op);
  ReplaceAll(reason, "{op}", UpstreamOpName(context.node));
  ReplaceAll(reason, "{node}", std::to_string(context.node_index));
  return reason;
}

bool ExcludedByOption(const NodeContext& context) {
  if (context.node.kind != NodeKind::kBuiltin) return false;
  for (const auto& [option, ops] : context.profile.ops_excluded_unless) {
    if (context.profile.OptionEnabled(option)) continue;
    if (std::find(ops.begin(), ops.end(), context.node.op) != ops.end()) return true;
  }
  return false;
}

Reason CheckTypes(const NodeContext& context, std::span<const int32_t> tensors,
                  const std::vector<TensorType>& allowed, const char* what) {
  if (allowed.empty()) return std::nullopt;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i] < 0) continue;
    const TensorType type = context.subgraph.tensors[tensors[i]].type;
    if (std::find(allowed.begin(), allowed.end(), type) == allowed.end()) {
      std::string reason = what;
      reason.append(" ").append(std::to_string(i)).append(" (tensor ");
      reason.append(std::to_string(tensors[i])).append(") has type ").append(TensorTypeName(type));
      return reason.append(", supported: ").append(TypeList(allowed));
    }
  }
  return std::nullopt;
}

Reason CheckRanks(const NodeContext& context, std::span<const int32_t> tensors, const OpRule& rule,
                  const char* what) {
  if (rule.min_rank < 0 && rule.max_rank < 0) return std::nullopt;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i] < 0) continue;
    const auto rank = static_cast<int32_t>(context.subgraph.tensors[tensors[i]].shape.size());
    if ((rule.min_rank >= 0 && rank < rule.min_rank) ||
        (rule.max_rank >= 0 && rank > rule.max_rank)) {
      std::string reason = what;
      reason.append(" ").append(std::to_string(i)).append(" (tensor ");
      reason.append(std::to_string(tensors[i])).append(") has rank ").append(std::to_string(rank));
      reason.append(", supported: ")
          .append(rule.min_rank >= 0 ? std::to_string(rule.min_rank) : "0");
      return reason.append("..").append(rule.max_rank >= 0 ? std::to_string(rule.max_rank) : "");
    }
  }
  return std::nullopt;
}

Reason CheckDeclaredConstraints(const NodeContext& context, const OpRule& rule) {
  const Node& node = context.node;
  if (Reason r = CheckTypes(context, context.inputs, rule.input_types, "input")) return r;
  if (Reason r = CheckTypes(context, node.outputs, rule.output_types, "output")) return r;
  if (Reason r = CheckRanks(context, context.inputs, rule, "input")) return r;
  if (Reason r = CheckRanks(context, node.outputs, rule, "output")) return r;
  const std::vector<Activation>& activations = rule.fused_activation_in;
  if (!activations.empty() && std::find(activations.begin(), activations.end(),
                                        node.options->fused_activation) == activations.end()) {
    return std::string("fused activation ") + ActivationName(node.options->fused_activation) +
           " not supported";
  }
  if (rule.constant_weights) {
    for (size_t i = 1; i < context.inputs.size(); ++i) {
      const Tensor* t = context.Input(i);
      if (t && !t->is_constant()) {
        std::string reason = "input ";
        reason.append(std::to_string(i)).append(" (tensor ");
        return reason.append(std::to_string(context.inputs[i]))
            .append(", weights) is not constant");
      }
    }
  }
  if (!rule.allow_broadcast) {
    const Tensor* first = nullptr;
    for (size_t i = 0; i < context.inputs.size(); ++i) {
      const Tensor* t = context.Input(i);
      if (!t || t->is_constant()) continue;
      if (!first) {
        first = t;
      } else if (t->shape != first->shape) {
        return "broadcasting not supported: input shapes " + Shape(first->shape) + " and " +
               Shape(t->shape);
      }
    }
  }
  if (rule.max_stride > 0 &&
      (node.options->stride_h > rule.max_stride || node.options->stride_w > rule.max_stride)) {
    return "strides " + std::to_string(node.options->stride_h) + "x" +
           std::to_string(node.options->stride_w) + " above the supported " +
           std::to_string(rule.max_stride);
  }
  return std::nullopt;
}

// `detail` receives the rejecting named check's detail (CheckOutcome::detail).
Reason EvaluateRules(const NodeContext& context, std::string* detail) {
  const DelegateProfile& profile = context.profile;
  const Node& node = context.node;
  if (node.kind == NodeKind::kDelegateKernel || ExcludedByOption(context)) {
    return UnlistedReason(context);
  }
  const OpRule* rule = profile.FindRule(node);
  static const OpRule kUnconditional;
  if (!rule && profile.unlisted_builtin_supported && node.kind == NodeKind::kBuiltin) {
    rule = &kUnconditional;
  }
  if (!rule || (!rule->requires_option.empty() && !profile.OptionEnabled(rule->requires_option))) {
    return UnlistedReason(context);
  }
  if (rule->denied) {
    std::string reason = profile.denied_reason;
    ReplaceAll(reason, "{op}", UpstreamOpName(node));
    return reason;
  }
  if (rule->max_version > 0 && node.version > rule->max_version) {
    std::string reason = profile.version_reason;
    ReplaceAll(reason, "{max}", std::to_string(rule->max_version));
    ReplaceAll(reason, "{version}", std::to_string(node.version));
    return reason;
  }
  if (Reason r = CheckDeclaredConstraints(context, *rule)) return r;
  for (const std::string& name : rule->checks) {
    CheckOutcome outcome = FindRuleCheck(name)->check(context);
    if (outcome.kind == CheckOutcome::Kind::kReject) {
      *detail = std::move(outcome.detail);
      return std::move(outcome.reason);
    }
    if (outcome.kind == CheckOutcome::Kind::kAccept) break;
  }
  for (const std::string& name : profile.node_checks) {
    CheckOutcome outcome = FindRuleCheck(name)->check(context);
    if (outcome.kind == CheckOutcome::Kind::kReject) {
      *detail = std::move(outcome.detail);
      return std::move(outcome.reason);
    }
  }
  return std::nullopt;
}

}  // namespace

std::string UpstreamOpName(const Node& node) {
  switch (node.kind) {
    case NodeKind::kBuiltin:
      return node.op;
    case NodeKind::kCustom:
      return "CUSTOM " + node.op;
    case NodeKind::kDelegateKernel:
      return "DELEGATE " + node.op;
  }
  return node.op;
}

NodeSupport EvaluateNodeSupport(const NodeContext& context) {
  NodeSupport support;
  support.node = context.node_index;
  const DelegateProfile& profile = context.profile;
  switch (profile.kind) {
    case ProfileKind::kOps: {
      const std::vector<std::string>& ops = profile.claimed_ops;
      support.supported = context.node.kind != NodeKind::kDelegateKernel &&
                          std::find(ops.begin(), ops.end(), context.node.op) != ops.end();
      if (!support.supported) support.reason = "op not listed in " + profile.name;
      return support;
    }
    case ProfileKind::kNodes: {
      const std::vector<int32_t>& nodes = profile.claimed_nodes;
      support.supported = std::find(nodes.begin(), nodes.end(), context.node_index) != nodes.end();
      if (!support.supported) support.reason = "node not listed in " + profile.name;
      return support;
    }
    case ProfileKind::kPredicate: {
      support.supported = context.node.kind != NodeKind::kDelegateKernel && profile.supports_node &&
                          profile.supports_node(context.subgraph, context.node_index);
      if (!support.supported) support.reason = "not supported by delegate " + profile.name;
      return support;
    }
    case ProfileKind::kRules:
      break;
  }
  std::string detail;
  Reason reason = EvaluateRules(context, &detail);
  support.supported = !reason.has_value();
  if (reason) support.reason = std::move(*reason);
  support.detail = std::move(detail);
  return support;
}

std::string ReasonText(const NodeSupport& verdict) {
  std::string text;
  for (char c : verdict.reason.str()) text += c == '\n' || c == '\r' ? ' ' : c;
  // XNNPACK's reasons end in " in node #N" as its log does; a report names the node anyway, and
  // without it the same reason on several nodes reads the same, so they group.
  const std::string own_node = std::string(" in node #").append(std::to_string(verdict.node));
  for (size_t at = text.find(own_node); at != std::string::npos; at = text.find(own_node, at)) {
    const size_t end = at + own_node.size();
    if (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) {
      at = end;
      continue;
    }
    text.erase(at, own_node.size());
  }
  while (!text.empty() && (text.back() == ' ' || (!verdict.detail.empty() && text.back() == '.'))) {
    text.pop_back();
  }
  if (verdict.detail.empty()) return text;
  return text.empty() ? verdict.detail.str() : text.append(": ").append(verdict.detail.str());
}

}  // namespace tfa
