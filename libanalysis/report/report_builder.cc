#include "libanalysis/report/report_builder.h"

#include <algorithm>
#include <map>
#include <utility>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/prepare/control_flow_invoke.h"
#include "libanalysis/prepare/control_flow_prepare.h"
#include "libanalysis/prepare/kernel_prepare.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/delegate_selection.h"
#include "libanalysis/report/plan_step_node.h"

namespace tfa {
namespace {

// Bytes a tensor moves when copied; tensors of unknown size (dynamic) count 0.
uint64_t TensorBytes(const Subgraph& sg, int32_t t) {
  if (t < 0) return 0;
  return sg.tensors[static_cast<size_t>(t)].bytes_or_zero();
}

// Constants a delegate reads: model constants, and tensors the CPU makes once from constants
// (persistent outputs of DEQUANTIZE of a constant). They are uploaded once, not per inference.
bool IsOnceUploaded(const Subgraph& prepared, int32_t t) {
  const Tensor& tensor = prepared.tensors[static_cast<size_t>(t)];
  if (tensor.allocation == AllocationType::kMmapRo) return true;
  // Variables live in the persistent arena too, but change on every inference.
  return tensor.allocation == AllocationType::kArenaRwPersistent && !tensor.is_variable;
}

// The report's partitions: the final execution plan, where each delegate kernel is a delegate
// partition and the CPU nodes between them keep the subsets the last partitioning made (with no
// partitioning, the whole plan is one cpu subset).
std::vector<PartitionReport> Partitions(const Subgraph& final_plan, std::vector<NodeSubset> last_subsets,
                                        const std::vector<int32_t>& last_kernel_nodes) {
  if (last_subsets.empty()) last_subsets.push_back(NodeSubset{SubsetType::kCpu, final_plan.execution_plan, {}, {}});
  auto delegate_partition = [&](int32_t kernel_node) {
    const Node& kernel = final_plan.nodes[static_cast<size_t>(kernel_node)];
    PartitionReport p;
    p.kind = PartitionReport::Kind::kDelegate;
    p.delegate = kernel.op;
    p.nodes = kernel.replaces;
    p.inputs = kernel.inputs;
    p.outputs = kernel.outputs;
    return p;
  };
  std::vector<PartitionReport> out;
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

// Copy costs as docs/copy-costs.md defines them.
CopyCost ComputeCopyCosts(const Subgraph& prepared, std::vector<PartitionReport>& partitions) {
  CopyCost total;
  bool previous_on_cpu = true;  // the application hands inputs over from the CPU
  std::string previous_delegate;
  for (PartitionReport& p : partitions) {
    const bool on_cpu = p.kind == PartitionReport::Kind::kCpu;
    if (on_cpu != previous_on_cpu || (!on_cpu && p.delegate != previous_delegate)) ++total.transitions;
    previous_on_cpu = on_cpu;
    previous_delegate = p.delegate;
    if (on_cpu) continue;
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

ArenaReport ArenaReportFromPlan(const ArenaPlan& plan, const Subgraph& planned,
                                std::vector<std::string> assumptions) {
  ArenaReport a;
  a.size = plan.arena_size;
  a.persistent_size = plan.persistent_arena_size;
  a.high_water_mark = plan.arena_size;
  const ArenaLowerBound bound = LowerBound(plan.rw_blocks, plan.num_steps);
  a.lower_bound = bound.bytes;
  a.peak_step = bound.peak_step;
  a.peak_at = NodeAtStep(planned, bound.peak_step);
  const std::map<int32_t, PlanStepNode> temporary_owners = TemporaryOwners(planned);
  a.assumptions = std::move(assumptions);
  const int32_t last_step = std::max(plan.num_steps - 1, 0);
  for (size_t t = 0; t < plan.tensors.size(); ++t) {
    const TensorPlacement& p = plan.tensors[t];
    if (p.arena == ArenaKind::kNone) continue;
    ArenaAllocation al;
    al.tensor = static_cast<int32_t>(t);
    al.offset = p.offset;
    al.size = p.size;
    al.first_node = p.first_step == kUnassignedStep ? 0 : p.first_step;
    al.last_node = p.last_step == kUnassignedStep ? last_step : p.last_step;
    al.persistent = p.arena == ArenaKind::kPersistent;
    if (p.shares_buffer_of >= 0) al.shares_buffer_of = p.shares_buffer_of;
    if (auto owner = temporary_owners.find(al.tensor); owner != temporary_owners.end()) {
      al.temporary_of = owner->second;
    }
    a.allocs.push_back(al);
  }
  return a;
}

Result<ArenaReport> PlanArenaReport(const Subgraph& prepared, std::vector<std::string> assumptions) {
  auto plan = PlanArena(prepared);
  if (!plan.ok()) return plan.status();
  return ArenaReportFromPlan(*plan, prepared, std::move(assumptions));
}

// A subgraph's arena as the whole-model replay left it: the committed buffers (the largest plan)
// with the last plan's allocations, or an empty arena marked unplanned.
ArenaReport ArenaReportFromMemory(SubgraphMemory memory) {
  ArenaReport a;
  if (memory.planned) {
    a = ArenaReportFromPlan(memory.plan, memory.prepared, std::move(memory.assumptions));
    a.size = memory.arena_size;
    a.persistent_size = memory.persistent_arena_size;
    a.planning_stops_at_node = memory.planning_stops_at;
  } else {
    a.planned = false;
  }
  a.notes = std::move(memory.notes);
  return a;
}

// What the applied delegates' kernels do in Prepare. The GPU delegate's kernel adds float twins
// of quantized tensors; XNNPACK allows dynamic tensors, so the interpreter skips the CPU Prepare
// of the nodes before handing them over (see libanalysis/prepare/kernel_prepare.h).
PrepareOptions PrepareOptionsFor(const std::vector<DelegateProfile>& profiles) {
  PrepareOptions options;
  for (const DelegateProfile& p : profiles) {
    if (p.kernel.delegate_kernel == "gpu") {
      options.delegate_kernels[p.name] = DelegateKernelKind::kGpu;
      options.gpu_allow_quant_ops = p.OptionEnabled("allow_quant_ops");
    }
    if (!p.kernel.prepare_before_delegation) options.prepare_before_delegation = false;
  }
  return options;
}

// Graph JSON states each node's temporaries and in-place flags itself, so kernels' Prepare is
// replayed only for .tflite models.
Result<PreparedSubgraph> Prepare(const Subgraph& plan, const PrepareOptions& options, bool replay_prepare) {
  if (!replay_prepare) return PreparedSubgraph{plan, static_cast<int32_t>(plan.tensors.size()), {}};
  return ReplayKernelPrepare(plan, options);
}

Result<ArenaReport> ArenaFor(const Subgraph& plan, bool replay_prepare) {
  auto prepared = Prepare(plan, PrepareOptions{}, replay_prepare);
  if (!prepared.ok()) return prepared.status();
  return PlanArenaReport(prepared->subgraph, prepared->assumptions);
}

// A subgraph as the delegates applied so far left it, and what they said about its nodes.
struct SubgraphDelegation {
  Subgraph current;
  std::vector<NodeSubset> last_subsets;
  std::vector<int32_t> last_kernel_nodes;
  std::vector<UnsupportedNode> unsupported;
};

Status ApplyProfile(SubgraphDelegation& d, const DelegateProfile& profile) {
  auto selection = SelectDelegateNodes(d.current, profile);
  if (!selection.ok()) return selection.status();
  for (const NodeSupport& v : selection->verdicts) {
    if (v.supported || v.reason.empty()) continue;
    d.unsupported.push_back(UnsupportedNode{v.node, d.current.nodes[static_cast<size_t>(v.node)].op,
                                            profile.name, v.reason});
  }
  auto delegated = ApplyDelegateSelection(d.current, profile, *selection);
  if (!delegated.ok()) return delegated.status();
  if (!delegated->subsets.empty()) {
    d.last_subsets = delegated->subsets;
    d.last_kernel_nodes = delegated->kernel_nodes;
  }
  d.current = std::move(delegated->subgraph);
  return Status::Ok();
}

SubgraphReport PartitionsReport(const SubgraphDelegation& d, int32_t index, size_t nodes) {
  SubgraphReport sr;
  sr.index = index;
  sr.nodes = nodes;
  sr.unsupported = d.unsupported;
  sr.partitions = Partitions(d.current, d.last_subsets, d.last_kernel_nodes);
  for (const PartitionReport& p : sr.partitions) {
    sr.delegated_partition_count += p.kind == PartitionReport::Kind::kDelegate;
  }
  return sr;
}

AfterInvokeReport AfterInvokeFromMemory(SubgraphMemory memory) {
  AfterInvokeReport r;
  r.persistent_high_water_mark = memory.planned ? memory.plan.persistent_arena_size : 0;
  r.invoked = memory.invoked;
  r.released = memory.released;
  r.arena = ArenaReportFromMemory(std::move(memory));
  return r;
}

// .tflite models: the whole model replayed as the interpreter runs it, so WHILE and IF plan their
// child subgraphs and each delegate reaches every subgraph in turn (control_flow_prepare.h); with
// several subgraphs, also what the first Invoke does to them (control_flow_invoke.h).
Status ReportModelSubgraphs(const Model& model, const std::vector<DelegateProfile>& profiles,
                            const InvokeFacts& facts, Report& report) {
  std::vector<SubgraphDelegation> delegation(model.subgraphs.size());
  for (size_t s = 0; s < model.subgraphs.size(); ++s) delegation[s].current = model.subgraphs[s];
  std::vector<ModelDelegate> delegates;
  for (const DelegateProfile& profile : profiles) {
    ModelDelegate d;
    d.name = profile.name;
    d.allows_dynamic_tensors = !PrepareOptionsFor({profile}).prepare_before_delegation;
    d.apply = [&delegation, &profile](int32_t s, const Subgraph& current) -> Result<Subgraph> {
      SubgraphDelegation& sd = delegation[static_cast<size_t>(s)];
      sd.current = current;
      TFA_RETURN_IF_ERROR(ApplyProfile(sd, profile).WithContext("subgraph " + std::to_string(s)));
      return sd.current;
    };
    delegates.push_back(std::move(d));
  }
  const bool control_flow = model.subgraphs.size() > 1;
  FirstInvokeMemory memory;
  if (control_flow) {
    auto replayed = ReplayFirstInvoke(model, delegates, PrepareOptionsFor(profiles), facts);
    if (!replayed.ok()) return replayed.status();
    memory = std::move(replayed).value();
    report.invoke = InvokeReport{memory.facts_used, memory.undetermined};
  } else {
    auto replayed = ReplayModelMemory(model, delegates, PrepareOptionsFor(profiles));
    if (!replayed.ok()) return replayed.status();
    memory.after_allocate = std::move(replayed).value();
  }
  std::vector<SubgraphMemory> cpu_only;
  if (!profiles.empty()) {
    auto cpu = ReplayModelMemory(model, {}, PrepareOptions{});
    if (!cpu.ok()) return cpu.status();
    cpu_only = std::move(cpu).value();
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    SubgraphReport sr = PartitionsReport(delegation[s], static_cast<int32_t>(s), model.subgraphs[s].nodes.size());
    SubgraphMemory& m = memory.after_allocate[s];
    sr.copy = ComputeCopyCosts(m.prepared, sr.partitions);
    // A single subgraph planned as usual needs no word on who planned it.
    const bool usual = model.subgraphs.size() == 1 && !m.planning_stops_at &&
                       m.delegates_applied == static_cast<int32_t>(profiles.size());
    if (usual) m.notes.clear();
    sr.arena = ArenaReportFromMemory(std::move(m));
    if (!profiles.empty() && model.subgraphs.size() == 1) cpu_only[s].notes.clear();
    sr.arena_cpu_only = profiles.empty() ? sr.arena : ArenaReportFromMemory(std::move(cpu_only[s]));
    if (!memory.after_invoke.empty()) sr.after_invoke = AfterInvokeFromMemory(std::move(memory.after_invoke[s]));
    report.subgraphs.push_back(std::move(sr));
  }
  return Status::Ok();
}

Result<SubgraphReport> ReportSubgraph(const Subgraph& original, int32_t index,
                                      const std::vector<DelegateProfile>& profiles, bool plan_arena,
                                      bool replay_prepare) {
  SubgraphDelegation d;
  d.current = original;
  for (const DelegateProfile& profile : profiles) TFA_RETURN_IF_ERROR(ApplyProfile(d, profile));
  SubgraphReport sr = PartitionsReport(d, index, original.nodes.size());
  const Subgraph& current = d.current;
  if (plan_arena) {
    auto prepared = Prepare(current, PrepareOptionsFor(profiles), replay_prepare);
    if (!prepared.ok()) return prepared.status();
    sr.copy = ComputeCopyCosts(prepared->subgraph, sr.partitions);
    auto arena = PlanArenaReport(prepared->subgraph, prepared->assumptions);
    if (!arena.ok()) return arena.status();
    sr.arena = std::move(*arena);
    if (profiles.empty()) {
      sr.arena_cpu_only = sr.arena;
    } else {
      auto cpu = ArenaFor(original, replay_prepare);
      if (!cpu.ok()) return cpu.status();
      sr.arena_cpu_only = std::move(*cpu);
    }
  } else {
    sr.copy = ComputeCopyCosts(current, sr.partitions);
  }
  return sr;
}

}  // namespace

Result<DelegateProfile> ResolveDelegateRequest(const DelegateRequest& request) {
  auto profile = ResolveDelegateProfile(request.spec);
  if (!profile.ok()) return profile.status();
  DelegateProfile p = std::move(profile).value();
  if (request.max_partitions) p.partition.max_partitions = *request.max_partitions;
  if (request.min_nodes_per_partition) p.partition.min_nodes_per_partition = *request.min_nodes_per_partition;
  if (request.no_greedy) p.partition.greedy = false;
  for (const auto& [key, value] : request.options) {
    TFA_RETURN_IF_ERROR(p.SetOption(key, value).WithContext("delegate " + p.name));
  }
  return p;
}

Result<Report> BuildReport(const Model& model, const ReportOptions& options) {
  // Checked here, not only by the replay, so that facts naming a node the model lacks are refused
  // for models that never reach the replay too (one subgraph, Graph JSON).
  TFA_RETURN_IF_ERROR(CheckInvokeFacts(model, options.invoke_facts).WithContext(model.path));
  Report report;
  report.model = model.path;
  report.tool_version = options.tool_version;
  std::vector<DelegateProfile> profiles;
  for (const DelegateRequest& request : options.delegates) {
    auto profile = ResolveDelegateRequest(request);
    if (!profile.ok()) return profile.status();
    TFA_RETURN_IF_ERROR(CheckClaimedOpNames(*profile, model));
    report.delegates.push_back(profile->name);
    profiles.push_back(std::move(*profile));
  }
  if (model.format == "tflite" && options.plan_arena) {
    TFA_RETURN_IF_ERROR(ReportModelSubgraphs(model, profiles, options.invoke_facts, report).WithContext(model.path));
    return report;
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    auto sr = ReportSubgraph(model.subgraphs[s], static_cast<int32_t>(s), profiles, options.plan_arena,
                             model.format == "tflite");
    if (!sr.ok()) return sr.status().WithContext(model.path + ": subgraph " + std::to_string(s));
    report.subgraphs.push_back(std::move(*sr));
  }
  return report;
}

}  // namespace tfa
