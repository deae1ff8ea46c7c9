// The delegation advisor: what a delegate's partition choice costs in copies, what the other
// choices (--max-partitions N) would give, and which unsupported nodes are worth supporting.
//
// Upstream's delegates keep the N largest partitions (the GPU delegate: N = 1) without looking
// at what crosses the CPU/delegate boundary, so the partition they keep is often not the one
// that copies least. For one subgraph and one delegate profile the advisor reports:
//   1. every candidate partition (the delegate's preview partitioning, before keep-N-largest),
//      with the bytes it would copy in and out on every inference and the constants it would
//      upload once;
//   2. the outcome of --max-partitions N for N = 1..K (K = the candidate count, capped);
//   3. the unsupported nodes next to a candidate, each re-selected once as if the delegate
//      supported it, ranked by the copies that would save under the profile's own settings;
//   4. each rejected op, all its nodes re-selected at once as supported: the op to support next.
// A compiler-plugin profile (npu:VENDOR) is re-selected as the plugin groups, every partition kept.
//
// The advice is data: advice_json.h writes it as JSON, visualizers/advice_text.h as text.
//
// Every figure is replayed with the same node selection and partitioner the report uses, so a
// setting's outcome is what `report --delegate ... --max-partitions N` would show. Times are a
// copy-cost estimate from the profile's TransferCosts (bytes / bandwidth + transitions x latency);
// what a partition saves in compute on the delegate is not modelled, so the advisor never claims
// a setting is faster overall, only that it copies less.
#ifndef LIBANALYSIS_REPORT_ADVISOR_H_
#define LIBANALYSIS_REPORT_ADVISOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/prepare/kernel_prepare.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {

// Said with every advice (in its notes and JSON): what the times are.
inline constexpr char kAdviceEstimateNote[] =
    "times are a copy-cost estimate (bytes / bandwidth + transitions x latency from the "
    "profile's transfer costs); compute time on the delegate or the CPU is not modelled";

struct AdvisorOptions {
  // The --max-partitions table stops at N = min(candidate count, this).
  int32_t max_partitions_table = 8;
  // At most this many unsupported nodes are re-selected (one selection and one partitioning
  // each); those next to the most candidates are analysed first.
  int32_t max_unsupported_analysed = 50;
};

// Per-inference copy figures of one way of delegating. Constants (and tensors the CPU makes
// once from constants, e.g. DEQUANTIZE of a constant) are uploaded once, not per inference.
struct CopyEstimate {
  uint64_t bytes_to_delegate = 0;
  uint64_t bytes_from_delegate = 0;
  uint64_t init_upload_bytes = 0;
  int64_t transitions = 0;  // CPU <-> delegate switches per inference, counted as the report does
  double copy_seconds = 0;  // TransferCosts::EstimatedCopySeconds(to + from, transitions)

  uint64_t bytes_per_inference() const;
};

struct CandidatePartition {
  int32_t index = 0;      // position in the preview partitioning's delegate subsets, plan order
  int32_t size_rank = 0;  // 0 = the largest: keep-N-largest keeps ranks 0..N-1
  int32_t node_count = 0;
  int32_t first_node = 0;  // the subset's first and last node, as it runs
  int32_t last_node = 0;
  bool kept = false;  // kept under the profile's own partition settings
  // This partition delegated alone: its non-constant inputs and outputs, two transitions.
  CopyEstimate copy;
};

// What one partition setting (or one forced verdict) gives after the delegate kernels replace
// the kept nodes.
struct DelegationOutcome {
  int32_t max_partitions = 0;            // the setting it was selected with
  std::vector<int32_t> kept_candidates;  // candidate indices, in the order they were kept
  int32_t delegated_nodes = 0;
  int32_t delegated_partitions = 0;
  CopyEstimate copy;
};

// Supporting one rejected node, everything else unchanged (one re-selection).
struct UnsupportedNodeImpact {
  int32_t node = 0;
  std::string op;
  std::string reason;
  // The baseline candidates that end up whole in the same new candidate as this node: two or
  // more is a merge, one extends that candidate, none makes a new partition.
  std::vector<int32_t> joined_candidates;
  // Baseline candidates some of whose nodes move into that partition (greedy partitioning pulls
  // in nodes that only waited for this one), the rest staying apart.
  std::vector<int32_t> partly_joined_candidates;
  int32_t candidate_count_after = 0;
  // Under the profile's own partition settings.
  DelegationOutcome after;
  int64_t delegated_nodes_gained = 0;
  int64_t bytes_saved_per_inference = 0;  // negative: more copies
  int64_t transitions_saved = 0;
  double copy_seconds_saved = 0;
};

// Supporting every rejected node of one op, whatever its reason, everything else unchanged (one
// re-selection under the profile's own settings): what adding the op to the delegate would move
// off the CPU. Rejected nodes anywhere count, not only those next to a candidate.
struct OpSupportImpact {
  std::string op;
  int32_t rejected_nodes = 0;
  DelegationOutcome after;
  int64_t delegated_nodes_gained = 0;  // CPU nodes it moves (negative: keep-N-largest drops more)
  int64_t delegated_partitions_saved = 0;  // negative: more delegate partitions
  int64_t bytes_saved_per_inference = 0;   // negative: more copies
};

// Rejected nodes sharing an op and a reason: what one fix to the delegate would cover.
struct RejectionGroup {
  std::string op;
  std::string reason;
  std::vector<int32_t> nodes;  // plan order
};

struct DelegationAdvice {
  std::string delegate;
  TransferCosts transfer;
  int32_t profile_max_partitions = 0;  // as the delegate applies it
  int32_t min_nodes_per_partition = 0;
  bool full_delegation = false;  // fp16 helper: the whole plan goes, whatever the setting
  std::vector<CandidatePartition> candidates;
  DelegationOutcome profile_outcome;  // the profile's own settings: the baseline
  std::vector<DelegationOutcome> max_partition_outcomes;  // N = 1, 2, ...
  bool max_partitions_table_capped = false;
  std::vector<RejectionGroup> rejection_groups;  // largest first
  // Ranked: most estimated copy time saved first, then bytes, transitions, nodes gained.
  std::vector<UnsupportedNodeImpact> unsupported_impacts;
  int32_t unsupported_adjacent = 0;  // rejected nodes next to a candidate, before the cap
  // One per rejected op. Ranked: most delegated nodes gained, then delegate partitions saved,
  // bytes saved, op name.
  std::vector<OpSupportImpact> op_impacts;
  std::vector<std::string> notes;  // what was estimated, capped or skipped
};

// Advises on delegating `subgraph` with `profile`, replaying Prepare with `prepare` (what the
// delegates' kernels do, PrepareOptionsFor). Errors are those of node selection, partitioning and
// the kernel Prepare replay, naming the subgraph and node.
[[nodiscard]] Result<DelegationAdvice> AdviseDelegation(const Subgraph& subgraph,
                                                        const DelegateProfile& profile,
                                                        const PrepareOptions& prepare,
                                                        const AdvisorOptions& options = {});

// Advises on the plan's delegate `delegate` in subgraph `subgraph`, on that subgraph as the
// delegate found it (after the delegates before it), with the plan's own Prepare options. The plan
// must have been made with PlanOptions::keep_delegate_inputs.
[[nodiscard]] Result<DelegationAdvice> AdviseDelegation(const ModelPlan& plan, int32_t subgraph,
                                                        size_t delegate,
                                                        const AdvisorOptions& options = {});

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_ADVISOR_H_
