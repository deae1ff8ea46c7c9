#include "libanalysis/delegation/node_selection.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

#include "libanalysis/delegation/partition.h"
#include "libanalysis/delegation/partition_validation.h"

namespace tfa {
namespace {

// FP16GraphPartitionHelper::IsNodeSupported's test: a builtin DEQUANTIZE whose first input is a
// constant fp16 tensor (tflite/delegates/utils.cc).
bool IsConstantFp16Dequantize(const Subgraph& subgraph, const Node& node) {
  if (node.kind != NodeKind::kBuiltin || node.op != "DEQUANTIZE") return false;
  if (node.inputs.empty() || node.outputs.empty() || node.inputs[0] == -1) return false;
  const Tensor& input = subgraph.tensors[node.inputs[0]];
  return input.type == TensorType::kFloat16 && input.is_constant();
}

// Upstream's GetFirstNLargestPartitions: indices into `partitions`, largest first.
std::vector<size_t> LargestPartitions(const std::vector<NodeSubset>& partitions,
                                      const NodeSelectionOptions& options) {
  std::vector<size_t> ranked(partitions.size());
  for (size_t i = 0; i < ranked.size(); ++i) ranked[i] = i;
  // std::sort, not std::stable_sort, as upstream: ties end where introsort leaves them.
  std::sort(ranked.begin(), ranked.end(), [&partitions](size_t left, size_t right) {
    return partitions[left].nodes.size() > partitions[right].nodes.size();
  });
  std::vector<size_t> kept;
  const int64_t limit =
      std::min<int64_t>(static_cast<int64_t>(ranked.size()), options.max_partitions);
  for (int64_t i = 0; i < limit; ++i) {
    if (static_cast<int64_t>(partitions[ranked[i]].nodes.size()) <
        options.min_nodes_per_partition) {
      break;
    }
    kept.push_back(ranked[i]);
  }
  return kept;
}

Status CheckVerdictCount(const Subgraph& subgraph, const std::vector<bool>& supported) {
  if (supported.size() == subgraph.nodes.size()) return Status::Ok();
  return Status::Error(SubgraphLabel(subgraph) + ": " + std::to_string(supported.size()) +
                       " support verdicts for " + std::to_string(subgraph.nodes.size()) + " nodes");
}

}  // namespace

Result<NodeSelection> SelectNodesToReplace(const Subgraph& subgraph,
                                           const std::vector<bool>& supported,
                                           const NodeSelectionOptions& options) {
  TFA_RETURN_IF_ERROR(CheckVerdictCount(subgraph, supported));
  auto valid = ValidSubgraph::Check(subgraph);
  if (!valid.ok()) return valid.status();
  return SelectNodesToReplace(*valid, supported, options);
}

Result<NodeSelection> SelectNodesToReplace(const ValidSubgraph& valid,
                                           const std::vector<bool>& supported,
                                           const NodeSelectionOptions& options) {
  const Subgraph& subgraph = valid.graph();
  TFA_RETURN_IF_ERROR(CheckVerdictCount(subgraph, supported));

  NodeSelection selection;
  std::vector<int32_t> supported_nodes;
  std::unordered_map<int32_t, int32_t> fp16_constant_of;  // DEQUANTIZE output -> fp16 input
  for (int32_t node_index : subgraph.execution_plan) {
    const Node& node = subgraph.nodes[node_index];
    if (options.fp16_helper && IsConstantFp16Dequantize(subgraph, node)) {
      // Upstream keys its maps by output tensor (the last writer wins), so a tensor two
      // DEQUANTIZE nodes write counts once toward full delegation.
      fp16_constant_of[node.outputs[0]] = node.inputs[0];
      selection.constant_dequantize_nodes.push_back(node_index);
      continue;
    }
    if (supported[node_index]) supported_nodes.push_back(node_index);
  }
  selection.supported_node_count = static_cast<int>(supported_nodes.size());

  // Upstream's PreviewDelegatePartitioning: nothing supported means no partitions.
  std::vector<NodeSubset> preview;
  if (!supported_nodes.empty()) {
    auto subsets =
        PartitionExecutionPlan(valid, supported_nodes, PartitionOptions{.greedy = options.greedy});
    if (!subsets.ok()) return subsets.status();
    preview = std::move(subsets).value();
    for (const NodeSubset& subset : preview) {
      if (subset.type == SubsetType::kDelegate) selection.candidate_partitions.push_back(subset);
    }
  }

  selection.full_delegation =
      options.fp16_helper &&
      supported_nodes.size() + fp16_constant_of.size() == subgraph.execution_plan.size();
  bool all_candidates_kept = false;
  if (selection.full_delegation) {
    selection.nodes_to_replace = subgraph.execution_plan;
  } else {
    const std::vector<size_t> kept = LargestPartitions(selection.candidate_partitions, options);
    for (size_t partition : kept) {
      const SubsetIds& nodes = selection.candidate_partitions[partition].nodes;
      selection.nodes_to_replace.insert(selection.nodes_to_replace.end(), nodes.begin(),
                                        nodes.end());
    }
    all_candidates_kept = kept.size() == selection.candidate_partitions.size();
  }
  if (options.fp16_helper) {
    for (int32_t node_index : selection.nodes_to_replace) {
      const auto& inputs = subgraph.nodes[node_index].inputs;
      for (size_t position = 0; position < inputs.size(); ++position) {
        auto it = fp16_constant_of.find(inputs[position]);
        if (it == fp16_constant_of.end()) continue;
        selection.input_remaps.push_back(
            {node_index, static_cast<int32_t>(position), inputs[position], it->second});
      }
    }
  }
  // The nodes to replace are then those the preview claimed: as a set (their order does not
  // change a partitioning), on the same graph.
  if (all_candidates_kept && !selection.nodes_to_replace.empty() &&
      selection.input_remaps.empty()) {
    selection.partitioning = std::move(preview);
  }
  return selection;
}

Subgraph ApplyInputRemaps(const Subgraph& subgraph, const std::vector<InputRemap>& remaps) {
  Subgraph remapped = subgraph;
  for (const InputRemap& remap : remaps) {
    remapped.nodes[remap.node].inputs[remap.input_position] = remap.to_tensor;
  }
  return remapped;
}

}  // namespace tfa
