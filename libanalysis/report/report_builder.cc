#include "libanalysis/report/report_builder.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/checked_math.h"
#include "libanalysis/core/parallel_map.h"
#include "libanalysis/report/plan_step_node.h"

namespace tfa {
namespace {

// Totals of byte figures that are each checked already; a sum past 2^64 reads as the maximum.
uint64_t SaturatingSum(uint64_t a, uint64_t b) { return CheckedAdd(a, b).value_or(UINT64_MAX); }

// Bytes a tensor moves when copied; tensors of unknown size (dynamic) count 0.
uint64_t TensorBytes(const Subgraph& sg, int32_t t) {
  if (t < 0) return 0;
  return sg.tensors[static_cast<size_t>(t)].bytes_or_zero();
}

bool IsOnceUploaded(const Subgraph& prepared, int32_t t) {
  return IsMadeOnce(prepared.tensors[static_cast<size_t>(t)]);
}

// The report's partitions: the final execution plan, where each delegate kernel is a delegate
// partition and the CPU nodes between them keep the subsets the last partitioning made (with no
// partitioning, the whole plan is one cpu subset).
std::vector<PartitionReport> Partitions(const Subgraph& final_plan,
                                        const std::vector<NodeSubset>& last_subsets,
                                        const std::vector<int32_t>& last_kernel_nodes) {
  if (last_subsets.empty()) {
    return Partitions(final_plan, {NodeSubset{SubsetType::kCpu, final_plan.execution_plan, {}, {}}},
                      last_kernel_nodes);
  }
  // The kernels of one delegate share its name.
  SharedString delegate_name;
  auto delegate_partition = [&](int32_t kernel_node) {
    const Node& kernel = final_plan.nodes[static_cast<size_t>(kernel_node)];
    if (delegate_name != kernel.op) delegate_name = kernel.op;
    PartitionReport p;
    p.kind = PartitionReport::Kind::kDelegate;
    p.delegate = delegate_name;
    p.nodes = kernel.replaces;
    p.inputs = kernel.inputs;
    p.outputs = kernel.outputs;
    return p;
  };
  std::vector<PartitionReport> out;
  // Exact when no earlier delegate's kernel sits in a cpu subset of the last one.
  out.reserve(last_subsets.size());
  size_t next_kernel = 0;
  for (const NodeSubset& s : last_subsets) {
    if (s.type == SubsetType::kDelegate) {
      out.push_back(delegate_partition(last_kernel_nodes[next_kernel++]));
      continue;
    }
    // A cpu subset of the last delegate may hold kernels of earlier delegates.
    PartitionReport cpu;
    cpu.inputs = s.inputs;
    cpu.outputs = s.outputs;
    for (int32_t n : s.nodes) {
      if (final_plan.nodes[static_cast<size_t>(n)].kind != NodeKind::kDelegateKernel) {
        cpu.nodes.push_back(n);
        continue;
      }
      if (!cpu.nodes.empty()) out.push_back(std::exchange(cpu, PartitionReport{}));
      out.push_back(delegate_partition(n));
    }
    if (!cpu.nodes.empty()) out.push_back(std::move(cpu));
  }
  return out;
}

// Whether `delegate`'s kernels work on TFLite's buffers in place (TransferCosts::in_place).
bool InPlace(const std::vector<DelegateProfile>& delegates, std::string_view delegate) {
  for (const DelegateProfile& profile : delegates) {
    if (profile.name == delegate) return profile.transfer.in_place;
  }
  return false;
}

// Copy costs as docs/copy-costs.md defines them: a delegate that works in place copies nothing,
// but execution still switches to it and back.
CopyCost ComputeCopyCosts(const Subgraph& prepared, const std::vector<DelegateProfile>& delegates,
                          std::vector<PartitionReport>& partitions) {
  CopyCost total;
  bool previous_on_cpu = true;  // the application hands inputs over from the CPU
  SharedString previous_delegate;
  for (PartitionReport& p : partitions) {
    const bool on_cpu = p.kind == PartitionReport::Kind::kCpu;
    if (on_cpu != previous_on_cpu || (!on_cpu && p.delegate != previous_delegate))
      ++total.transitions;
    previous_on_cpu = on_cpu;
    previous_delegate = p.delegate;
    if (on_cpu) continue;
    p.in_place = InPlace(delegates, p.delegate);
    if (p.in_place) continue;
    for (int32_t t : p.inputs) {
      if (t < 0) continue;
      if (IsOnceUploaded(prepared, t)) {
        p.init_upload_bytes += TensorBytes(prepared, t);
      } else {
        p.bytes_to_delegate += TensorBytes(prepared, t);
      }
    }
    for (int32_t t : p.outputs) p.bytes_from_delegate += TensorBytes(prepared, t);
    total.bytes_to_delegate += p.bytes_to_delegate;
    total.bytes_from_delegate += p.bytes_from_delegate;
    total.init_upload_bytes += p.init_upload_bytes;
  }
  if (!previous_on_cpu) ++total.transitions;  // outputs go back to the application
  return total;
}

// An accelerator custom op moves its inputs to the chip and its outputs back on every inference,
// as a delegate that copies does: counted wherever copies are (diff, gate, the summary table).
void AddAcceleratorTransfers(const AcceleratorReport& accelerators, CopyCost& copy) {
  for (const AcceleratorSegment& segment : accelerators.segments) {
    copy.accelerator_bytes_in = SaturatingSum(copy.accelerator_bytes_in, segment.bytes_in);
    copy.accelerator_bytes_out = SaturatingSum(copy.accelerator_bytes_out, segment.bytes_out);
    copy.transitions += 2;
  }
  copy.bytes_to_delegate = SaturatingSum(copy.bytes_to_delegate, copy.accelerator_bytes_in);
  copy.bytes_from_delegate = SaturatingSum(copy.bytes_from_delegate, copy.accelerator_bytes_out);
}

// `with_allocs`: the allocations too, one per arena tensor; the report prints them for the
// delegated arena only.
ArenaReport ArenaReportFromPlan(const ArenaPlan& plan, const Subgraph& planned,
                                std::vector<std::string> assumptions, bool with_allocs) {
  ArenaReport a;
  a.size = plan.arena_size;
  a.persistent_size = plan.persistent_arena_size;
  a.high_water_mark = plan.arena_size;
  const ArenaLowerBound bound = LowerBound(plan.rw_blocks, plan.num_steps);
  a.lower_bound = bound.bytes;
  a.peak_step = bound.peak_step;
  a.peak_at = NodeAtStep(planned, bound.peak_step);
  a.assumptions = std::move(assumptions);
  if (!with_allocs) return a;
  const std::map<int32_t, std::shared_ptr<const PlanStepNode>> temporary_owners =
      TemporaryOwners(planned);
  const int32_t last_step = std::max(plan.num_steps - 1, 0);
  a.allocs.reserve(static_cast<size_t>(
      std::count_if(plan.tensors.begin(), plan.tensors.end(),
                    [](const TensorPlacement& p) { return p.arena != ArenaKind::kNone; })));
  for (size_t t = 0; t < plan.tensors.size(); ++t) {
    const TensorPlacement& p = plan.tensors[t];
    if (p.arena == ArenaKind::kNone) continue;
    ArenaAllocation al;
    al.tensor = static_cast<int32_t>(t);
    al.offset = p.offset;
    al.size = p.size;
    al.first_step = p.first_step == kUnassignedStep ? 0 : p.first_step;
    al.last_step = p.last_step == kUnassignedStep ? last_step : p.last_step;
    al.persistent = p.arena == ArenaKind::kPersistent;
    if (p.shares_buffer_of >= 0) al.shares_buffer_of = p.shares_buffer_of;
    if (auto owner = temporary_owners.find(al.tensor); owner != temporary_owners.end()) {
      al.temporary_of = owner->second;
    }
    a.allocs.push_back(std::move(al));
  }
  return a;
}

// A subgraph's arena as the plan left it: the committed buffers (the largest plan) with the last
// plan's allocations, or an empty arena marked unplanned. `notes` say who planned it, or why not;
// a single subgraph planned as usual needs none.
ArenaReport ArenaReportFromMemory(const SubgraphMemory& memory, bool with_notes, bool with_allocs) {
  ArenaReport a;
  if (memory.planned) {
    a = ArenaReportFromPlan(memory.plan, *memory.prepared, memory.assumptions, with_allocs);
    a.size = memory.arena_size;
    a.persistent_size = memory.persistent_arena_size;
    a.planning_stops_at_node = memory.planning_stops_at;
  } else {
    a.planned = false;
  }
  if (with_notes) a.notes = memory.notes;
  return a;
}

AfterInvokeReport AfterInvokeFromMemory(const SubgraphMemory& memory) {
  AfterInvokeReport r;
  r.persistent_high_water_mark = memory.planned ? memory.plan.persistent_arena_size : 0;
  r.invoked = memory.invoked;
  r.released = memory.released;
  r.arena = ArenaReportFromMemory(memory, true, true);
  return r;
}

Result<SubgraphReport> ReportSubgraph(const ModelPlan& plan, const SubgraphPlan& sp) {
  SubgraphReport sr;
  sr.index = sp.index;
  sr.nodes = sp.model_nodes;
  sr.unsupported.reserve(sp.rejected.size());
  for (const RejectedNode& r : sp.rejected) {
    sr.unsupported.push_back(UnsupportedNode{r.node, r.op, r.delegate, r.reason});
  }
  sr.partitions = Partitions(*sp.delegated, sp.last_subsets, sp.last_kernel_nodes);
  for (const PartitionReport& p : sr.partitions) {
    sr.delegated_partition_count += p.kind == PartitionReport::Kind::kDelegate;
  }
  sr.copy = ComputeCopyCosts(sp.memory ? *sp.memory->prepared : *sp.delegated, plan.delegates,
                             sr.partitions);
  for (const DelegateProfile& profile : plan.delegates) {
    auto memory = EstimateDelegateMemory(*sp.delegated, profile, GpuMemoryOptionsFor(profile));
    if (!memory.ok()) return memory.status();
    if (!memory->parts.empty()) sr.delegate_memory.push_back(std::move(memory).value());
  }
  for (int32_t n : sp.unresolved_flex_nodes) {
    sr.unresolved_ops.push_back(UnresolvedOp{n, sp.delegated->nodes[static_cast<size_t>(n)].op});
  }
  sr.accelerators = FindAcceleratorSegments(sp.memory ? *sp.memory->prepared : *sp.delegated);
  if (sr.accelerators) AddAcceleratorTransfers(*sr.accelerators, sr.copy);
  if (!sp.memory) return sr;
  for (const DelegateRefusal& r : sp.memory->refused_delegates) {
    sr.refused_delegates.push_back({r.delegate, r.dynamic_tensor, r.message});
  }
  const bool one_subgraph = plan.subgraphs.size() == 1;
  const bool usual = one_subgraph && !sp.memory->planning_stops_at &&
                     sp.memory->delegates_applied == static_cast<int32_t>(plan.delegates.size());
  // The CPU-only arena is written out beside the delegated one, on another core.
  const bool cpu_only_apart = !plan.delegates.empty() && sp.cpu_only_memory;
  ParallelMap(cpu_only_apart ? 2 : 1, [&](size_t task) {
    if (task == 0) {
      sr.arena = ArenaReportFromMemory(*sp.memory, !usual, true);
    } else {
      sr.arena_cpu_only = ArenaReportFromMemory(*sp.cpu_only_memory, !one_subgraph, false);
    }
    return true;
  });
  if (plan.delegates.empty()) {
    // The same plan, without a copy of its allocations (a million in a large graph).
    std::vector<ArenaAllocation> allocs = std::move(sr.arena->allocs);
    sr.arena_cpu_only = *sr.arena;
    sr.arena->allocs = std::move(allocs);
  }
  if (sp.after_invoke) sr.after_invoke = AfterInvokeFromMemory(*sp.after_invoke);
  return sr;
}

// Upstream's OpPrepare finds no prepare function for an unresolved custom op and returns
// kTfLiteUnresolvedOps, with its message for Flex ops (tflite/core/subgraph.cc).
std::optional<std::string> AllocateTensorsFailure(const Report& report) {
  std::string nodes;
  size_t count = 0;
  for (const SubgraphReport& s : report.subgraphs) {
    for (const UnresolvedOp& op : s.unresolved_ops) {
      if (++count > 3) continue;
      nodes += (nodes.empty() ? "" : ", ") + op.op + " (subgraph " + std::to_string(s.index) +
               " node " + std::to_string(op.node) + ")";
    }
  }
  if (count == 0) return std::nullopt;
  if (count > 3) nodes += " and " + std::to_string(count - 3) + " more";
  return "AllocateTensors returns kTfLiteUnresolvedOps: " + std::to_string(count) +
         " Select TensorFlow op(s) without the Flex delegate: " + nodes +
         "; apply --delegate flex (TensorFlow's kernels linked in)";
}

}  // namespace

Result<Report> BuildReport(const ModelPlan& plan, const std::string& tool_version) {
  Report report;
  report.model = plan.model_path;
  report.tool_version = tool_version;
  for (const DelegateProfile& profile : plan.delegates) {
    report.delegates.push_back(profile.name);
    report.delegate_trust.push_back(ProfileTrustName(profile.trust));
  }
  report.delegation_notes = plan.delegation_notes;
  for (const DelegateFailure& f : plan.delegate_failures) {
    report.delegate_failures.push_back(
        DelegateFailureReport{f.delegate, f.subgraph, f.nodes, f.reason, f.log, f.also_removed});
  }
  report.runtime_version = plan.runtime_version;
  for (const SignatureDef& s : plan.signatures) {
    report.signatures.push_back(SignatureReport{s.key, s.subgraph_index, s.inputs, s.outputs});
  }
  for (const SubgraphPlan& sp : plan.subgraphs) {
    auto sr = ReportSubgraph(plan, sp);
    if (!sr.ok()) return sr.status().WithContext(plan.model_path);
    report.subgraphs.push_back(std::move(sr).value());
  }
  for (const SubgraphReport& s : report.subgraphs) {
    if (!s.arena) continue;
    if (!report.interpreter) report.interpreter = InterpreterTotals{};
    InterpreterTotals& total = *report.interpreter;
    for (const DelegateMemory& m : s.delegate_memory) {
      total.delegate_bytes = SaturatingSum(total.delegate_bytes, m.total_bytes);
      total.delegate_bytes_unknown |= m.has_unknown();
    }
    if (!s.arena->planned) continue;
    total.arena_bytes = SaturatingSum(total.arena_bytes, s.arena->size);
    total.persistent_bytes = SaturatingSum(total.persistent_bytes, s.arena->persistent_size);
    ++total.subgraphs_planned;
  }
  if (report.interpreter) {
    InterpreterTotals& total = *report.interpreter;
    total.constant_bytes = plan.constant_bytes;
    std::vector<std::vector<DelegateMemory>> delegate_memory;
    for (const SubgraphReport& s : report.subgraphs) delegate_memory.push_back(s.delegate_memory);
    auto resident = EstimateResidentMemory(plan, delegate_memory);
    if (!resident.ok()) return resident.status().WithContext(plan.model_path);
    total.resident_bytes = resident->bytes;
    total.resident_unknown = resident->has_unknown();
    total.resident_terms = std::move(resident->terms);
  }
  if (plan.invoke) report.invoke = InvokeReport{plan.invoke->facts_used, plan.invoke->undetermined};
  report.allocate_tensors_failure = AllocateTensorsFailure(report);
  return report;
}

Result<Report> BuildReport(const Model& model, const ReportOptions& options) {
  auto profiles = ResolveDelegateRequests(options.delegates);
  if (!profiles.ok()) return profiles.status();
  PlanOptions plan_options;
  plan_options.delegates = std::move(profiles).value();
  plan_options.plan_arena = options.plan_arena;
  plan_options.invoke_facts = options.invoke_facts;
  auto plan = PlanModel(model, plan_options);
  if (!plan.ok()) return plan.status();
  return BuildReport(*plan, options.tool_version);
}

}  // namespace tfa
