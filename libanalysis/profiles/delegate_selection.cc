#include "libanalysis/profiles/delegate_selection.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/delegation/plugin_partition.h"
#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa {
namespace {

// FP16GraphPartitionHelper's test (tflite/delegates/utils.cc): a builtin DEQUANTIZE reading a
// constant fp16 tensor.
bool IsConstantFp16Dequantize(const Subgraph& subgraph, const Node& node) {
  if (node.kind != NodeKind::kBuiltin || node.op != "DEQUANTIZE") return false;
  if (node.inputs.empty() || node.outputs.empty() || node.inputs[0] < 0) return false;
  const Tensor& input = subgraph.tensors[node.inputs[0]];
  return input.type == TensorType::kFloat16 && input.is_constant();
}

Status CheckClaimedNodes(const Subgraph& subgraph, const DelegateProfile& profile) {
  for (int32_t node : profile.claimed_nodes) {
    if (static_cast<size_t>(node) >= subgraph.nodes.size()) {
      return Status::Error(SubgraphLabel(subgraph) + ": --delegate " + profile.name + ": node " +
                           std::to_string(node) + " out of range (" +
                           std::to_string(subgraph.nodes.size()) + " nodes)");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<DelegateSelection> SelectDelegateNodes(const Subgraph& subgraph,
                                              const DelegateProfile& profile) {
  auto valid = ValidSubgraph::Check(subgraph);
  if (!valid.ok()) return valid.status();
  return SelectDelegateNodes(*valid, profile);
}

Result<DelegateSelection> SelectDelegateNodes(const ValidSubgraph& valid,
                                              const DelegateProfile& profile) {
  const Subgraph& subgraph = valid.graph();
  TFA_RETURN_IF_ERROR(CheckClaimedNodes(subgraph, profile));

  const bool fp16_helper = profile.partition.UsesFp16Helper(subgraph);
  DelegateSelection result;
  result.delegate = profile.name;
  std::vector<bool> supported(subgraph.nodes.size(), false);
  std::set<std::string> log;
  std::unordered_map<int32_t, int32_t> fp16_constant_of;  // DEQUANTIZE output -> fp16 constant
  SharedString last_reason;
  result.verdicts.reserve(subgraph.execution_plan.size());
  for (int32_t node_index : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[node_index];
    NodeSupport verdict;
    verdict.node = node_index;
    if (fp16_helper && IsConstantFp16Dequantize(subgraph, node)) {
      // Held back by the helper with no details, as upstream logs it ("DEQUANTIZE: ").
      fp16_constant_of[node.outputs[0]] = node.inputs[0];
      verdict.fp16_dequantize_held_back = true;
    } else {
      // Rewritten only once the helper has held a DEQUANTIZE back: a copy per node costs at scale.
      std::vector<int32_t> rewritten;
      if (!fp16_constant_of.empty()) {
        rewritten.assign(node.inputs.begin(), node.inputs.end());
        for (int32_t& input : rewritten) {
          auto it = fp16_constant_of.find(input);
          if (it != fp16_constant_of.end()) input = it->second;
        }
      }
      verdict = EvaluateNodeSupport(
          NodeContext{.subgraph = subgraph,
                      .node_index = node_index,
                      .node = node,
                      .inputs = fp16_constant_of.empty() ? node.inputs : rewritten,
                      .profile = profile});
    }
    supported[node_index] = verdict.supported;
    // A run of nodes rejected for the same reason ("op not listed in ops=ADD") holds one text.
    if (!verdict.reason.empty()) {
      if (verdict.reason == last_reason) {
        verdict.reason = last_reason;
      } else {
        last_reason = verdict.reason;
      }
    }
    result.verdicts.push_back(std::move(verdict));
  }
  if (profile.partition.static_unpack_follows_consumers) {
    ApplyXnnpackPrepareOpsToDelegate(subgraph, result.verdicts, supported);
  }
  for (const NodeSupport& verdict : result.verdicts) {
    if (!verdict.supported) {
      log.insert(UpstreamOpName(subgraph.nodes[verdict.node]) + ": " + verdict.reason.str());
    }
  }
  result.unsupported_ops.assign(log.begin(), log.end());

  if (profile.compiler_plugin) {
    auto selection = SelectPluginPartitions(subgraph, profile, supported);
    if (!selection.ok()) return selection.status();
    result.selection = std::move(*selection);
    return result;
  }

  const NodeSelectionOptions options{
      .max_partitions = profile.partition.EffectiveMaxPartitions(fp16_helper),
      .min_nodes_per_partition = profile.partition.min_nodes_per_partition,
      .greedy = profile.partition.greedy,
      .fp16_helper = fp16_helper,
  };
  auto selection = SelectNodesToReplace(valid, supported, options);
  if (!selection.ok()) return selection.status();
  result.selection = std::move(*selection);
  return result;
}

Result<NodeSelection> SelectPluginPartitions(const Subgraph& subgraph,
                                             const DelegateProfile& profile,
                                             const std::vector<bool>& supported) {
  std::vector<PluginSelectedNode> selected;
  for (int32_t node : subgraph.execution_plan) {
    if (!supported[static_cast<size_t>(node)]) continue;
    const OpRule* rule = profile.FindRule(subgraph.nodes[static_cast<size_t>(node)]);
    selected.push_back({node, rule ? rule->partition_index : 0});
  }
  auto subsets = GroupCompilerPluginPartitions(subgraph, selected);
  if (!subsets.ok()) return subsets.status();
  NodeSelection selection;
  selection.supported_node_count = static_cast<int>(selected.size());
  for (const NodeSubset& subset : *subsets) {
    if (subset.type != SubsetType::kDelegate) continue;
    selection.candidate_partitions.push_back(subset);
    selection.nodes_to_replace.insert(selection.nodes_to_replace.end(), subset.nodes.begin(),
                                      subset.nodes.end());
  }
  selection.partitioning = std::move(subsets).value();
  return selection;
}

Result<DelegatedSubgraph> ApplyDelegateSelection(const Subgraph& subgraph,
                                                 const DelegateProfile& profile,
                                                 const DelegateSelection& selection) {
  auto valid = ValidSubgraph::Check(subgraph);
  if (!valid.ok()) return valid.status();
  return ApplyDelegateSelection(*valid, profile, selection);
}

Result<DelegatedSubgraph> ApplyDelegateSelection(const ValidSubgraph& subgraph,
                                                 const DelegateProfile& profile,
                                                 const DelegateSelection& selection) {
  DelegateSelection copy = selection;
  return ApplyDelegateSelection(subgraph, profile, std::move(copy));
}

Result<DelegatedSubgraph> ApplyDelegateSelection(const ValidSubgraph& subgraph,
                                                 const DelegateProfile& profile,
                                                 DelegateSelection&& selection) {
  NodeSelection& chosen = selection.selection;
  // As SelectDelegateNodes partitions for its preview (NodeSelection::partitioning).
  const PartitionOptions options{.greedy = profile.partition.greedy};
  // The fp16 helper's remaps apply to a copy; without any, no copy of the graph is made.
  if (chosen.input_remaps.empty()) {
    return ReplaceNodeSubsetsWithDelegateKernels(subgraph, chosen.nodes_to_replace, profile.name,
                                                 options, std::move(chosen.partitioning));
  }
  const Subgraph remapped = ApplyInputRemaps(subgraph.graph(), chosen.input_remaps);
  return ReplaceNodeSubsetsWithDelegateKernels(remapped, chosen.nodes_to_replace, profile.name,
                                               options);
}

std::vector<std::string> DescribeUnsupportedNodes(const Subgraph& subgraph,
                                                  const DelegateSelection& selection) {
  std::vector<std::string> lines;
  for (const NodeSupport& verdict : selection.verdicts) {
    if (verdict.supported) continue;
    const std::string reason = verdict.fp16_dequantize_held_back
                                   ? "constant fp16 DEQUANTIZE held back (the delegate folds it)"
                                   : ReasonText(verdict);
    lines.push_back(UpstreamOpName(subgraph.nodes[verdict.node]) + " #" +
                    std::to_string(verdict.node) + ": " + reason);
  }
  return lines;
}

}  // namespace tfa
