#include "libanalysis/report/accelerator_comparison.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/plan/accelerator_request.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/report/advisor.h"
#include "libanalysis/report/report_builder.h"

namespace tfa {
namespace {

constexpr std::string_view kNpuPrefix = "npu:";

uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  return CheckedAdd(a, b).value_or(std::numeric_limits<uint64_t>::max());
}

// Signed sums over subgraphs clamp at int64's range (min + 1, so that negating stays defined).
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min() + 1;
}

// `npu:VENDOR` (and a list with `gpu`, `cpu`) as --accelerator takes it; anything else as
// --delegate takes it.
Result<std::vector<DelegateProfile>> ProfilesOf(const std::string& accelerator) {
  std::vector<DelegateRequest> requests;
  if (accelerator.starts_with(kNpuPrefix)) {
    auto from_list = AcceleratorRequests(accelerator);
    if (!from_list.ok()) return from_list.status();
    requests = std::move(from_list).value();
  } else {
    DelegateRequest request;
    request.spec = accelerator;
    requests.push_back(std::move(request));
  }
  return ResolveDelegateRequests(requests);
}

// The advisor's per-op re-selections of the candidate's delegate, summed by op over the
// subgraphs it reached. With several delegates (`npu:qualcomm,gpu`) the first one's: the others
// see the graph it left.
Result<std::vector<SupportNext>> SupportNextOf(const ModelPlan& plan, size_t keep) {
  AdvisorOptions options;
  options.max_partitions_table = 0;  // only the per-op re-selections are read
  options.max_unsupported_analysed = 0;
  std::map<std::string, SupportNext> by_op;
  for (size_t s = 0; s < plan.subgraphs.size(); ++s) {
    if (plan.subgraphs[s].delegate_inputs.empty()) continue;
    auto advice = AdviseDelegation(plan, static_cast<int32_t>(s), 0, options);
    if (!advice.ok()) return advice.status();
    for (const OpSupportImpact& impact : advice->op_impacts) {
      SupportNext& sum = by_op[impact.op];
      sum.op = impact.op;
      sum.rejected_nodes = SaturatingAdd(sum.rejected_nodes, int64_t{impact.rejected_nodes});
      sum.cpu_nodes_moved = SaturatingAdd(sum.cpu_nodes_moved, impact.delegated_nodes_gained);
      sum.delegated_partitions_saved =
          SaturatingAdd(sum.delegated_partitions_saved, impact.delegated_partitions_saved);
      sum.bytes_saved_per_inference =
          SaturatingAdd(sum.bytes_saved_per_inference, impact.bytes_saved_per_inference);
    }
  }
  std::vector<SupportNext> ranked;
  for (auto& [op, sum] : by_op) {
    if (sum.cpu_nodes_moved > 0 || sum.delegated_partitions_saved > 0) {
      ranked.push_back(std::move(sum));
    }
  }
  // As the advisor ranks ops: most nodes moved, then partitions saved, bytes saved, op name.
  std::stable_sort(ranked.begin(), ranked.end(), [](const SupportNext& a, const SupportNext& b) {
    return std::make_tuple(-a.cpu_nodes_moved, -a.delegated_partitions_saved,
                           -a.bytes_saved_per_inference) <
           std::make_tuple(-b.cpu_nodes_moved, -b.delegated_partitions_saved,
                           -b.bytes_saved_per_inference);
  });
  if (ranked.size() > keep) ranked.resize(keep);
  return ranked;
}

Result<AcceleratorCandidate> PlanCandidate(const std::shared_ptr<const Model>& model,
                                           const std::string& accelerator,
                                           const ComparisonOptions& options) {
  auto profiles = ProfilesOf(accelerator);
  if (!profiles.ok()) return profiles.status();
  AcceleratorCandidate candidate;
  candidate.accelerator = accelerator;
  candidate.delegate = profiles->front().name;
  candidate.compiler_plugin = profiles->front().compiler_plugin.has_value();
  PlanOptions plan_options = options.plan;
  plan_options.delegates = std::move(profiles).value();
  plan_options.keep_delegate_inputs = true;
  auto plan = PlanModel(model, plan_options);
  if (!plan.ok()) return plan.status();
  auto report = BuildReport(*plan, "");
  if (!report.ok()) return report.status();
  candidate.notes = plan->delegation_notes;
  for (const DelegateFailure& f : plan->delegate_failures) {
    candidate.notes.push_back(
        f.delegate + ": refused by the interpreter: a kernel failed its init: " + f.reason);
  }
  for (const SubgraphReport& s : report->subgraphs) {
    for (const DelegateRefusalReport& r : s.refused_delegates) {
      candidate.notes.push_back(r.delegate + ": refused by the interpreter for subgraph " +
                                std::to_string(s.index) + ": " + r.reason);
    }
  }
  for (const SubgraphReport& s : report->subgraphs) {
    uint64_t delegated = 0;
    for (const PartitionReport& p : s.partitions) {
      if (p.kind == PartitionReport::Kind::kDelegate) delegated += p.nodes.size();
    }
    candidate.nodes = SaturatingAdd(candidate.nodes, s.nodes);
    candidate.cpu_nodes =
        SaturatingAdd(candidate.cpu_nodes, s.nodes - std::min<uint64_t>(s.nodes, delegated));
    candidate.delegated_partitions += static_cast<uint64_t>(s.delegated_partition_count);
    candidate.bytes_to_delegate =
        SaturatingAdd(candidate.bytes_to_delegate, s.copy.bytes_to_delegate);
    candidate.bytes_from_delegate =
        SaturatingAdd(candidate.bytes_from_delegate, s.copy.bytes_from_delegate);
    candidate.transitions = SaturatingAdd(candidate.transitions, s.copy.transitions);
    candidate.init_upload_bytes =
        SaturatingAdd(candidate.init_upload_bytes, s.copy.init_upload_bytes);
  }
  auto support_next = SupportNextOf(*plan, options.support_next);
  if (!support_next.ok()) return support_next.status();
  candidate.support_next = std::move(support_next).value();
  return candidate;
}

}  // namespace

uint64_t AcceleratorCandidate::bytes_per_inference() const {
  return SaturatingAdd(bytes_to_delegate, bytes_from_delegate);
}

std::vector<std::string> DefaultAcceleratorCandidates() {
  std::vector<std::string> candidates = {"gpu", "xnnpack"};
  for (const std::string& vendor : NpuVendors()) {
    std::string name(kNpuPrefix);
    name += vendor;
    candidates.push_back(std::move(name));
  }
  return candidates;
}

Result<AcceleratorComparison> CompareAccelerators(const std::shared_ptr<const Model>& model,
                                                  const ComparisonOptions& options) {
  const std::vector<std::string> accelerators =
      options.accelerators.empty() ? DefaultAcceleratorCandidates() : options.accelerators;
  AcceleratorComparison comparison;
  for (const std::string& accelerator : accelerators) {
    auto candidate = PlanCandidate(model, accelerator, options);
    if (!candidate.ok()) {
      std::string context = "candidate ";
      context += accelerator;
      return candidate.status().WithContext(context);
    }
    comparison.candidates.push_back(std::move(candidate).value());
  }
  // Fewest CPU nodes, then fewest bytes copied per inference, then fewest delegate partitions;
  // ties keep the order asked for.
  std::stable_sort(
      comparison.candidates.begin(), comparison.candidates.end(),
      [](const AcceleratorCandidate& a, const AcceleratorCandidate& b) {
        return std::make_tuple(a.cpu_nodes, a.bytes_per_inference(), a.delegated_partitions) <
               std::make_tuple(b.cpu_nodes, b.bytes_per_inference(), b.delegated_partitions);
      });
  for (size_t i = 0; i < comparison.candidates.size(); ++i) {
    comparison.candidates[i].rank = static_cast<int32_t>(i);
  }
  return comparison;
}

}  // namespace tfa
