#include "libanalysis/report/advisor.h"

#include <algorithm>
#include <limits>
#include <map>
#include <span>
#include <tuple>
#include <utility>

#include "libanalysis/core/byte_units.h"
#include "libanalysis/core/checked_math.h"
#include "libanalysis/delegation/node_selection.h"
#include "libanalysis/delegation/partition.h"
#include "libanalysis/prepare/kernel_prepare.h"
#include "libanalysis/profiles/delegate_selection.h"
#include "libanalysis/profiles/node_support.h"

namespace tfa {
namespace {

// Sums saturate: a hostile model's sizes then show as the maximum instead of wrapping round to
// a small, believable number.
uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  return CheckedAdd(a, b).value_or(std::numeric_limits<uint64_t>::max());
}

// a - b, clamped to int64 (savings are reported signed: a fix may also add copies).
int64_t SignedDifference(uint64_t a, uint64_t b) {
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (a >= b) return static_cast<int64_t>(std::min(a - b, kMax));
  return -static_cast<int64_t>(std::min(b - a, kMax));
}

// Prices subsets' boundary tensors the way the report's copy costs do (docs/copy-costs.md), on
// the subgraph after the kernel Prepare replay, which tells which tensors the CPU makes once
// from constants (persistent DEQUANTIZE outputs) and so are uploaded once, not per inference.
class CopyPricer {
 public:
  CopyPricer(const Subgraph& prepared, const TransferCosts& transfer,
             std::map<int32_t, int32_t> fp16_constant_of)
      : prepared_(prepared), transfer_(transfer), fp16_constant_of_(std::move(fp16_constant_of)) {}

  // One delegate subset delegated alone: in from the CPU, out back to it. Candidates come from
  // the preview partitioning, which still reads the fp16 helper's DEQUANTIZE outputs; once
  // selected, the delegate reads their fp16 constants instead, and uploads those.
  CopyEstimate Candidate(const NodeSubset& subset) const {
    NodeSubset selected = subset;
    for (int32_t& t : selected.inputs) {
      auto it = fp16_constant_of_.find(t);
      if (it != fp16_constant_of_.end()) t = it->second;
    }
    CopyEstimate estimate;
    AddBoundary(selected, &estimate);
    estimate.transitions = 2;
    Finish(&estimate);
    return estimate;
  }

  // A whole partitioning: transitions counted as the report counts them, starting on the CPU
  // (the application hands the inputs over) and ending there (it reads the outputs).
  CopyEstimate Plan(const std::vector<NodeSubset>& subsets) const {
    CopyEstimate estimate;
    bool previous_on_cpu = true;
    for (const NodeSubset& subset : subsets) {
      const bool on_cpu = subset.type == SubsetType::kCpu;
      if (on_cpu != previous_on_cpu) ++estimate.transitions;
      previous_on_cpu = on_cpu;
      if (!on_cpu) AddBoundary(subset, &estimate);
    }
    if (!previous_on_cpu) ++estimate.transitions;
    Finish(&estimate);
    return estimate;
  }

 private:
  uint64_t Bytes(int32_t tensor) const {
    return prepared_.tensors[static_cast<size_t>(tensor)].bytes_or_zero();
  }
  bool UploadedOnce(int32_t tensor) const {
    return IsMadeOnce(prepared_.tensors[static_cast<size_t>(tensor)]);
  }
  void AddBoundary(const NodeSubset& subset, CopyEstimate* estimate) const {
    if (transfer_.in_place) return;  // nothing crosses the boundary
    for (int32_t t : subset.inputs) {
      if (t < 0) continue;
      uint64_t& sum = UploadedOnce(t) ? estimate->init_upload_bytes : estimate->bytes_to_delegate;
      sum = SaturatingAdd(sum, Bytes(t));
    }
    for (int32_t t : subset.outputs) {
      estimate->bytes_from_delegate = SaturatingAdd(estimate->bytes_from_delegate, Bytes(t));
    }
  }
  void Finish(CopyEstimate* estimate) const {
    estimate->copy_seconds =
        transfer_.EstimatedCopySeconds(estimate->bytes_per_inference(), estimate->transitions);
  }

  const Subgraph& prepared_;
  const TransferCosts& transfer_;
  std::map<int32_t, int32_t> fp16_constant_of_;  // held-back DEQUANTIZE output -> its input
};

// Runs node selections for the profile with one setting or one verdict changed, and replays
// what the delegate kernels would then replace.
class SelectionReplay {
 public:
  SelectionReplay(const Subgraph& subgraph, const DelegateProfile& profile,
                  const CopyPricer& pricer, const std::vector<NodeSubset>& baseline_candidates)
      : subgraph_(subgraph),
        profile_(profile),
        pricer_(pricer),
        baseline_candidate_of_(subgraph.nodes.size(), -1) {
    for (size_t c = 0; c < baseline_candidates.size(); ++c) {
      for (int32_t node : baseline_candidates[c].nodes) {
        baseline_candidate_of_[static_cast<size_t>(node)] = static_cast<int32_t>(c);
      }
      baseline_candidate_sizes_.push_back(
          static_cast<int32_t>(baseline_candidates[c].nodes.size()));
    }
  }

  NodeSelectionOptions Options(int32_t max_partitions) const {
    return NodeSelectionOptions{
        .max_partitions = max_partitions,
        .min_nodes_per_partition = profile_.partition.min_nodes_per_partition,
        .greedy = profile_.partition.greedy,
        .fp16_helper = profile_.partition.UsesFp16Helper(subgraph_),
    };
  }

  // As ApplyDelegateSelection: the selection's kept preview when it has one, else the fp16
  // helper's remapped inputs first, then the partitioning ReplaceNodeSubsetsWithDelegateKernels
  // makes of the kept nodes.
  Result<DelegationOutcome> Outcome(const NodeSelection& selection, int32_t max_partitions) const {
    DelegationOutcome outcome;
    outcome.max_partitions = max_partitions;
    outcome.delegated_nodes = static_cast<int32_t>(selection.nodes_to_replace.size());
    for (int32_t node : selection.nodes_to_replace) {
      const int32_t candidate = baseline_candidate_of_[static_cast<size_t>(node)];
      if (candidate >= 0 &&
          std::find(outcome.kept_candidates.begin(), outcome.kept_candidates.end(), candidate) ==
              outcome.kept_candidates.end()) {
        outcome.kept_candidates.push_back(candidate);
      }
    }
    const auto partition = [&]() -> Result<std::vector<NodeSubset>> {
      if (selection.partitioning) return *selection.partitioning;
      const PartitionOptions options{.greedy = profile_.partition.greedy};
      if (selection.input_remaps.empty()) {
        return PartitionExecutionPlan(subgraph_, selection.nodes_to_replace, options);
      }
      return PartitionExecutionPlan(ApplyInputRemaps(subgraph_, selection.input_remaps),
                                    selection.nodes_to_replace, options);
    };
    auto subsets = partition();
    if (!subsets.ok()) return subsets.status();
    for (const NodeSubset& subset : *subsets) {
      outcome.delegated_partitions += subset.type == SubsetType::kDelegate;
    }
    outcome.copy = pricer_.Plan(*subsets);
    return outcome;
  }

  // The node choice with these verdicts: a compiler plugin groups and keeps every supported
  // node whatever `max_partitions` says, a delegate keeps its N largest partitions.
  Result<NodeSelection> Select(const std::vector<bool>& supported, int32_t max_partitions) const {
    if (profile_.compiler_plugin) return SelectPluginPartitions(subgraph_, profile_, supported);
    return SelectNodesToReplace(subgraph_, supported, Options(max_partitions));
  }

  Result<DelegationOutcome> WithMaxPartitions(const std::vector<bool>& supported,
                                              int32_t max_partitions) const {
    auto selection = Select(supported, max_partitions);
    if (!selection.ok()) return selection.status();
    return Outcome(*selection, max_partitions);
  }

  const std::vector<int32_t>& baseline_candidate_of() const { return baseline_candidate_of_; }
  int32_t baseline_candidate_size(int32_t candidate) const {
    return baseline_candidate_sizes_[static_cast<size_t>(candidate)];
  }

 private:
  const Subgraph& subgraph_;
  const DelegateProfile& profile_;
  const CopyPricer& pricer_;
  std::vector<int32_t> baseline_candidate_of_;  // node -> baseline candidate index, or -1
  std::vector<int32_t> baseline_candidate_sizes_;
};

std::vector<CandidatePartition> DescribeCandidates(const std::vector<NodeSubset>& subsets,
                                                   const std::vector<int32_t>& kept,
                                                   const CopyPricer& pricer) {
  std::vector<CandidatePartition> candidates;
  for (size_t c = 0; c < subsets.size(); ++c) {
    const NodeSubset& subset = subsets[c];
    CandidatePartition candidate;
    candidate.index = static_cast<int32_t>(c);
    candidate.node_count = static_cast<int32_t>(subset.nodes.size());
    candidate.first_node = subset.nodes.front();
    candidate.last_node = subset.nodes.back();
    candidate.kept = std::find(kept.begin(), kept.end(), candidate.index) != kept.end();
    candidate.copy = pricer.Candidate(subset);
    candidates.push_back(candidate);
  }
  // Keep-N-largest ranks by node count with std::sort; libstdc++ leaves ties in plan order up
  // to 16 partitions (node_selection.h), which a stable sort reproduces. The --max-partitions
  // table does not rely on this: it comes from the real selection.
  std::vector<int32_t> by_size(candidates.size());
  for (size_t i = 0; i < by_size.size(); ++i) by_size[i] = static_cast<int32_t>(i);
  std::stable_sort(by_size.begin(), by_size.end(), [&](int32_t a, int32_t b) {
    return candidates[static_cast<size_t>(a)].node_count >
           candidates[static_cast<size_t>(b)].node_count;
  });
  for (size_t rank = 0; rank < by_size.size(); ++rank) {
    candidates[static_cast<size_t>(by_size[rank])].size_rank = static_cast<int32_t>(rank);
  }
  return candidates;
}

std::vector<RejectionGroup> GroupRejections(const Subgraph& subgraph,
                                            const std::vector<NodeSupport>& verdicts) {
  std::map<std::pair<std::string, std::string>, std::vector<int32_t>> groups;
  for (const NodeSupport& verdict : verdicts) {
    if (verdict.supported || verdict.fp16_dequantize_held_back) continue;
    const Node& node = subgraph.nodes[static_cast<size_t>(verdict.node)];
    groups[{UpstreamOpName(node), ReasonText(verdict)}].push_back(verdict.node);
  }
  std::vector<RejectionGroup> out;
  for (auto& [key, nodes] : groups) {
    out.push_back(RejectionGroup{key.first, key.second, std::move(nodes)});
  }
  std::stable_sort(out.begin(), out.end(), [](const RejectionGroup& a, const RejectionGroup& b) {
    return a.nodes.size() > b.nodes.size();
  });
  return out;
}

// Rejected nodes that produce a tensor a candidate reads or read a tensor a candidate produces,
// with the candidates they touch: supporting one of these can grow or merge partitions.
// Supporting a node that touches no candidate only makes a new partition of its own.
std::vector<std::pair<int32_t, std::vector<int32_t>>> RejectedNeighbours(
    const Subgraph& subgraph, const std::vector<bool>& rejected,
    const std::vector<int32_t>& candidate_of) {
  std::vector<int32_t> producer(subgraph.tensors.size(), -1);
  for (int32_t n : subgraph.execution_plan) {
    for (int32_t t : subgraph.nodes[static_cast<size_t>(n)].outputs) {
      if (t >= 0 && static_cast<size_t>(t) < producer.size()) producer[static_cast<size_t>(t)] = n;
    }
  }
  std::map<int32_t, std::vector<int32_t>> touches;
  auto add = [&](int32_t node, int32_t candidate) {
    std::vector<int32_t>& list = touches[node];
    if (std::find(list.begin(), list.end(), candidate) == list.end()) list.push_back(candidate);
  };
  for (int32_t n : subgraph.execution_plan) {
    for (int32_t t : subgraph.nodes[static_cast<size_t>(n)].inputs) {
      if (t < 0 || static_cast<size_t>(t) >= producer.size()) continue;
      const int32_t p = producer[static_cast<size_t>(t)];
      if (p < 0) continue;
      const int32_t producer_candidate = candidate_of[static_cast<size_t>(p)];
      const int32_t reader_candidate = candidate_of[static_cast<size_t>(n)];
      if (rejected[static_cast<size_t>(n)] && producer_candidate >= 0) add(n, producer_candidate);
      if (rejected[static_cast<size_t>(p)] && reader_candidate >= 0) add(p, reader_candidate);
    }
  }
  std::vector<int32_t> position(subgraph.nodes.size(), 0);
  for (size_t i = 0; i < subgraph.execution_plan.size(); ++i) {
    position[static_cast<size_t>(subgraph.execution_plan[i])] = static_cast<int32_t>(i);
  }
  std::vector<std::pair<int32_t, std::vector<int32_t>>> out;
  for (auto& [node, candidates] : touches) {
    std::sort(candidates.begin(), candidates.end());
    out.emplace_back(node, std::move(candidates));
  }
  // Nodes between two candidates are the likeliest merges: analysed first when capped.
  std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    if (a.second.size() != b.second.size()) return a.second.size() > b.second.size();
    return position[static_cast<size_t>(a.first)] < position[static_cast<size_t>(b.first)];
  });
  return out;
}

Result<UnsupportedNodeImpact> ImpactOfSupporting(
    const Subgraph& subgraph, const NodeSupport& verdict, std::vector<bool>* supported,
    const SelectionReplay& replay, const DelegationOutcome& baseline, int32_t max_partitions) {
  // One verdict flipped and restored: no copy of the vector per analysed node.
  (*supported)[static_cast<size_t>(verdict.node)] = true;
  auto selection = replay.Select(*supported, max_partitions);
  (*supported)[static_cast<size_t>(verdict.node)] = false;
  if (!selection.ok()) return selection.status();
  auto after = replay.Outcome(*selection, max_partitions);
  if (!after.ok()) return after.status();

  UnsupportedNodeImpact impact;
  impact.node = verdict.node;
  impact.op = UpstreamOpName(subgraph.nodes[static_cast<size_t>(verdict.node)]);
  impact.reason = ReasonText(verdict);
  impact.candidate_count_after = static_cast<int32_t>(selection->candidate_partitions.size());
  // Greedy partitioning may also pull some nodes of a neighbour into the grown partition (a
  // node that only waited for this one): that candidate is partly joined, not merged.
  std::map<int32_t, int32_t> joined_nodes;  // baseline candidate -> its nodes in the partition
  for (const NodeSubset& subset : selection->candidate_partitions) {
    if (std::find(subset.nodes.begin(), subset.nodes.end(), verdict.node) == subset.nodes.end()) {
      continue;
    }
    for (int32_t node : subset.nodes) {
      const int32_t candidate = replay.baseline_candidate_of()[static_cast<size_t>(node)];
      if (candidate >= 0) ++joined_nodes[candidate];
    }
  }
  for (const auto& [candidate, nodes] : joined_nodes) {
    const bool whole = nodes == replay.baseline_candidate_size(candidate);
    (whole ? impact.joined_candidates : impact.partly_joined_candidates).push_back(candidate);
  }
  impact.after = std::move(*after);
  impact.delegated_nodes_gained =
      int64_t{impact.after.delegated_nodes} - int64_t{baseline.delegated_nodes};
  impact.bytes_saved_per_inference = SignedDifference(baseline.copy.bytes_per_inference(),
                                                      impact.after.copy.bytes_per_inference());
  impact.transitions_saved = baseline.copy.transitions - impact.after.copy.transitions;
  impact.copy_seconds_saved = baseline.copy.copy_seconds - impact.after.copy.copy_seconds;
  return impact;
}

// Most delegated nodes gained, then most delegate partitions saved, then most bytes saved per
// inference, then the op's name.
bool OpRanksHigher(const OpSupportImpact& a, const OpSupportImpact& b) {
  return std::make_tuple(-a.delegated_nodes_gained, -a.delegated_partitions_saved,
                         -a.bytes_saved_per_inference, a.op) <
         std::make_tuple(-b.delegated_nodes_gained, -b.delegated_partitions_saved,
                         -b.bytes_saved_per_inference, b.op);
}

// Every rejected node of each op forced to supported at once, one re-selection per op: what
// adding the op to the delegate would move off the CPU.
Result<std::vector<OpSupportImpact>> OpImpacts(
    const Subgraph& subgraph, const std::vector<bool>& rejected, std::vector<bool> supported,
    const SelectionReplay& replay, const DelegationOutcome& baseline, int32_t max_partitions) {
  std::map<std::string, std::vector<int32_t>> nodes_of_op;
  for (int32_t node : subgraph.execution_plan) {
    if (rejected[static_cast<size_t>(node)]) {
      nodes_of_op[UpstreamOpName(subgraph.nodes[static_cast<size_t>(node)])].push_back(node);
    }
  }
  std::vector<OpSupportImpact> impacts;
  for (const auto& [op, nodes] : nodes_of_op) {
    for (int32_t node : nodes) supported[static_cast<size_t>(node)] = true;
    auto after = replay.WithMaxPartitions(supported, max_partitions);
    for (int32_t node : nodes) supported[static_cast<size_t>(node)] = false;
    if (!after.ok()) return after.status();
    OpSupportImpact impact;
    impact.op = op;
    impact.rejected_nodes = static_cast<int32_t>(nodes.size());
    impact.after = std::move(*after);
    impact.delegated_nodes_gained =
        int64_t{impact.after.delegated_nodes} - int64_t{baseline.delegated_nodes};
    impact.delegated_partitions_saved =
        int64_t{baseline.delegated_partitions} - int64_t{impact.after.delegated_partitions};
    impact.bytes_saved_per_inference = SignedDifference(baseline.copy.bytes_per_inference(),
                                                        impact.after.copy.bytes_per_inference());
    impacts.push_back(std::move(impact));
  }
  std::stable_sort(impacts.begin(), impacts.end(), OpRanksHigher);
  return impacts;
}

bool RanksHigher(const UnsupportedNodeImpact& a, const UnsupportedNodeImpact& b) {
  return std::make_tuple(-a.copy_seconds_saved, -a.bytes_saved_per_inference, -a.transitions_saved,
                         -a.delegated_nodes_gained,
                         -static_cast<int64_t>(a.joined_candidates.size()), a.node) <
         std::make_tuple(-b.copy_seconds_saved, -b.bytes_saved_per_inference, -b.transitions_saved,
                         -b.delegated_nodes_gained,
                         -static_cast<int64_t>(b.joined_candidates.size()), b.node);
}

}  // namespace

uint64_t CopyEstimate::bytes_per_inference() const {
  return SaturatingAdd(bytes_to_delegate, bytes_from_delegate);
}

Result<DelegationAdvice> AdviseDelegation(const Subgraph& subgraph, const DelegateProfile& profile,
                                          const PrepareOptions& prepare,
                                          const AdvisorOptions& options) {
  auto selected = SelectDelegateNodes(subgraph, profile);
  if (!selected.ok()) return selected.status();
  const DelegateSelection& baseline_selection = *selected;
  auto prepared = ReplayKernelPrepare(subgraph, prepare);
  if (!prepared.ok()) return prepared.status();

  DelegationAdvice advice;
  advice.delegate = profile.name;
  advice.transfer = profile.transfer;
  advice.profile_max_partitions = profile.partition.EffectiveMaxPartitions();
  advice.min_nodes_per_partition = profile.partition.min_nodes_per_partition;
  advice.full_delegation = baseline_selection.selection.full_delegation;

  std::map<int32_t, int32_t> fp16_constant_of;
  for (const NodeSupport& verdict : baseline_selection.verdicts) {
    if (!verdict.fp16_dequantize_held_back) continue;
    const Node& node = subgraph.nodes[static_cast<size_t>(verdict.node)];
    fp16_constant_of[node.outputs[0]] = node.inputs[0];
  }
  const CopyPricer pricer(prepared->subgraph, profile.transfer, std::move(fp16_constant_of));
  const std::vector<NodeSubset>& candidate_subsets =
      baseline_selection.selection.candidate_partitions;
  const SelectionReplay replay(subgraph, profile, pricer, candidate_subsets);
  auto baseline = replay.Outcome(baseline_selection.selection, advice.profile_max_partitions);
  if (!baseline.ok()) return baseline.status();
  advice.profile_outcome = std::move(*baseline);
  advice.candidates =
      DescribeCandidates(candidate_subsets, advice.profile_outcome.kept_candidates, pricer);

  std::vector<bool> supported(subgraph.nodes.size(), false);
  std::vector<bool> rejected(subgraph.nodes.size(), false);
  for (const NodeSupport& verdict : baseline_selection.verdicts) {
    supported[static_cast<size_t>(verdict.node)] = verdict.supported;
    // The fp16 helper's held-back DEQUANTIZE nodes are folded by the delegate, not rejected.
    rejected[static_cast<size_t>(verdict.node)] =
        !verdict.supported && !verdict.fp16_dequantize_held_back;
  }

  const int32_t candidate_count = static_cast<int32_t>(candidate_subsets.size());
  // A compiler plugin keeps every partition: no --max-partitions to tabulate.
  const int32_t table_size =
      profile.compiler_plugin
          ? 0
          : std::min(candidate_count, std::max(options.max_partitions_table, 0));
  advice.max_partitions_table_capped = !profile.compiler_plugin && table_size < candidate_count;
  for (int32_t n = 1; n <= table_size; ++n) {
    auto outcome = replay.WithMaxPartitions(supported, n);
    if (!outcome.ok()) return outcome.status();
    advice.max_partition_outcomes.push_back(std::move(*outcome));
  }

  advice.rejection_groups = GroupRejections(subgraph, baseline_selection.verdicts);
  const auto neighbours = RejectedNeighbours(subgraph, rejected, replay.baseline_candidate_of());
  advice.unsupported_adjacent = static_cast<int32_t>(neighbours.size());
  const size_t analysed = std::min(
      neighbours.size(), static_cast<size_t>(std::max(options.max_unsupported_analysed, 0)));
  std::map<int32_t, const NodeSupport*> verdict_of;
  for (const NodeSupport& verdict : baseline_selection.verdicts)
    verdict_of[verdict.node] = &verdict;
  for (size_t i = 0; i < analysed; ++i) {
    auto impact = ImpactOfSupporting(subgraph, *verdict_of.at(neighbours[i].first), &supported,
                                     replay, advice.profile_outcome, advice.profile_max_partitions);
    if (!impact.ok()) return impact.status();
    advice.unsupported_impacts.push_back(std::move(*impact));
  }
  std::sort(advice.unsupported_impacts.begin(), advice.unsupported_impacts.end(), RanksHigher);
  auto op_impacts = OpImpacts(subgraph, rejected, supported, replay, advice.profile_outcome,
                              advice.profile_max_partitions);
  if (!op_impacts.ok()) return op_impacts.status();
  advice.op_impacts = std::move(*op_impacts);

  advice.notes.push_back(kAdviceEstimateNote);
  if (profile.transfer.bandwidth_bytes_per_second <= 0 &&
      profile.transfer.transition_latency_seconds <= 0) {
    advice.notes.push_back(
        "the profile declares no transfer costs: every estimated time is 0, "
        "compare the bytes");
  }
  if (advice.full_delegation) {
    advice.notes.push_back(
        "every planned node is supported or a constant fp16 DEQUANTIZE: the "
        "delegate takes the whole plan whatever --max-partitions says");
  }
  if (advice.min_nodes_per_partition > 0) {
    advice.notes.push_back("candidates with fewer than " +
                           std::to_string(advice.min_nodes_per_partition) +
                           " nodes are never kept (min_nodes_per_partition)");
  }
  if (profile.compiler_plugin) {
    advice.notes.push_back(
        "a compiler plugin keeps every partition it groups: --max-partitions does not apply");
  }
  if (advice.max_partitions_table_capped) {
    advice.notes.push_back("the --max-partitions table stops at " + std::to_string(table_size) +
                           " of " + std::to_string(candidate_count) + " candidates");
  }
  if (analysed < neighbours.size()) {
    advice.notes.push_back("re-selected " + std::to_string(analysed) + " of " +
                           std::to_string(neighbours.size()) +
                           " unsupported nodes next to a candidate (those touching the most "
                           "candidates first)");
  }
  size_t rejected_count = 0;
  for (const RejectionGroup& group : advice.rejection_groups) rejected_count += group.nodes.size();
  if (rejected_count > neighbours.size()) {
    advice.notes.push_back(std::to_string(rejected_count - neighbours.size()) +
                           " unsupported nodes touch no candidate and were not re-selected "
                           "(supporting one alone would only add a partition of its own)");
  }
  return advice;
}

Result<DelegationAdvice> AdviseDelegation(const ModelPlan& plan, int32_t subgraph, size_t delegate,
                                          const AdvisorOptions& options) {
  if (subgraph < 0 || static_cast<size_t>(subgraph) >= plan.subgraphs.size() ||
      delegate >= plan.delegates.size()) {
    return Status::Error("advisor: no subgraph " + std::to_string(subgraph) + " or delegate " +
                         std::to_string(delegate) + " in the plan");
  }
  const SubgraphPlan& sp = plan.subgraphs[static_cast<size_t>(subgraph)];
  if (delegate >= sp.delegate_inputs.size()) {
    return Status::Error("advisor: subgraph " + std::to_string(subgraph) +
                         " was planned without the graphs the delegates found "
                         "(PlanOptions::keep_delegate_inputs), or delegate " +
                         plan.delegates[delegate].name + " never reached it");
  }
  auto advice = AdviseDelegation(sp.delegate_inputs[delegate], plan.delegates[delegate],
                                 plan.prepare_options, options);
  if (!advice.ok()) return advice.status().WithContext("subgraph " + std::to_string(subgraph));
  return advice;
}

}  // namespace tfa
