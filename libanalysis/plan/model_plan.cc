#include "libanalysis/plan/model_plan.h"

#include <utility>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/profiles/delegate_selection.h"

namespace tfa {
namespace {

// One delegate applied to one subgraph as it stands: verdicts, node choice, delegate kernels.
Status ApplyProfile(SubgraphPlan& sp, const DelegateProfile& profile, bool keep_input) {
  if (keep_input) sp.delegate_inputs.push_back(sp.delegated);
  auto selection = SelectDelegateNodes(sp.delegated, profile);
  if (!selection.ok()) return selection.status();
  for (const NodeSupport& v : selection->verdicts) {
    if (v.supported || v.reason.empty()) continue;
    sp.rejected.push_back(RejectedNode{v.node, sp.delegated.nodes[static_cast<size_t>(v.node)].op,
                                       profile.name, v.reason});
  }
  auto delegated = ApplyDelegateSelection(sp.delegated, profile, *selection);
  if (!delegated.ok()) return delegated.status();
  if (!delegated->subsets.empty()) {
    sp.last_subsets = std::move(delegated->subsets);
    sp.last_kernel_nodes = std::move(delegated->kernel_nodes);
  }
  sp.delegated = std::move(delegated->subgraph);
  return Status::Ok();
}

// A planner-level subgraph (Graph JSON) planned as it stands: its nodes state their temporaries.
Result<SubgraphMemory> PlanAsGiven(const Subgraph& graph, const ArenaPlannerOptions& options) {
  auto plan = PlanArena(graph, options);
  if (!plan.ok()) return plan.status();
  SubgraphMemory memory;
  memory.planned = true;
  memory.prepared = graph;
  memory.arena_size = plan->arena_size;
  memory.persistent_arena_size = plan->persistent_arena_size;
  memory.plan = std::move(plan).value();
  memory.plan_count = 1;
  return memory;
}

// Graph JSON models, and any model when no arena is asked for: each subgraph delegated (and
// planned) on its own.
Status PlanSubgraphsOneByOne(const Model& model, const PlanOptions& options, ModelPlan& plan) {
  for (SubgraphPlan& sp : plan.subgraphs) {
    const std::string where = "subgraph " + std::to_string(sp.index);
    for (const DelegateProfile& profile : options.delegates) {
      TFA_RETURN_IF_ERROR(
          ApplyProfile(sp, profile, options.keep_delegate_inputs).WithContext(where));
    }
    if (!options.plan_arena) continue;
    auto memory = PlanAsGiven(sp.delegated, options.arena);
    if (!memory.ok()) return memory.status().WithContext(where);
    sp.memory = std::move(memory).value();
    if (options.delegates.empty()) {
      sp.cpu_only_memory = sp.memory;
      continue;
    }
    auto cpu = PlanAsGiven(model.subgraphs[static_cast<size_t>(sp.index)], options.arena);
    if (!cpu.ok()) return cpu.status().WithContext(where);
    sp.cpu_only_memory = std::move(cpu).value();
  }
  return Status::Ok();
}

// .tflite models: the interpreter replayed on the whole model, so WHILE and IF plan their children
// and each delegate reaches every subgraph in turn; with several subgraphs, also the first Invoke.
Status PlanWholeModel(const Model& model, const PlanOptions& options, ModelPlan& plan) {
  std::vector<ModelDelegate> delegates;
  for (const DelegateProfile& profile : options.delegates) {
    ModelDelegate d;
    d.name = profile.name;
    d.allows_dynamic_tensors = !PrepareOptionsFor({profile}).prepare_before_delegation;
    d.apply = [&plan, &profile, &options](int32_t s, const Subgraph& current) -> Result<Subgraph> {
      SubgraphPlan& sp = plan.subgraphs[static_cast<size_t>(s)];
      sp.delegated = current;
      TFA_RETURN_IF_ERROR(ApplyProfile(sp, profile, options.keep_delegate_inputs)
                              .WithContext("subgraph " + std::to_string(s)));
      return sp.delegated;
    };
    delegates.push_back(std::move(d));
  }
  std::vector<SubgraphMemory> after_allocate;
  if (model.subgraphs.size() > 1) {
    auto replayed = ReplayFirstInvoke(model, delegates, plan.prepare_options, options.invoke_facts);
    if (!replayed.ok()) return replayed.status();
    plan.invoke = InvokePlan{replayed->facts_used, replayed->undetermined};
    after_allocate = std::move(replayed->after_allocate);
    for (size_t s = 0; s < replayed->after_invoke.size(); ++s) {
      plan.subgraphs[s].after_invoke = std::move(replayed->after_invoke[s]);
    }
  } else {
    auto replayed = ReplayModelMemory(model, delegates, plan.prepare_options);
    if (!replayed.ok()) return replayed.status();
    after_allocate = std::move(replayed).value();
  }
  std::vector<SubgraphMemory> cpu_only;
  if (!options.delegates.empty()) {
    PrepareOptions cpu_options;
    cpu_options.arena = options.arena;
    auto cpu = ReplayModelMemory(model, {}, cpu_options);
    if (!cpu.ok()) return cpu.status();
    cpu_only = std::move(cpu).value();
  }
  for (size_t s = 0; s < plan.subgraphs.size(); ++s) {
    SubgraphPlan& sp = plan.subgraphs[s];
    sp.memory = std::move(after_allocate[s]);
    sp.cpu_only_memory = options.delegates.empty() ? sp.memory : std::move(cpu_only[s]);
  }
  return Status::Ok();
}

}  // namespace

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

Result<ModelPlan> PlanModel(const Model& model, const PlanOptions& options) {
  // Checked here, not only by the replay, so that facts naming a node the model lacks are refused
  // for models that never reach the replay too (one subgraph, Graph JSON).
  TFA_RETURN_IF_ERROR(CheckInvokeFacts(model, options.invoke_facts).WithContext(model.path));
  // `ops=CONV2D` (a typo) would claim nothing and say nothing: op names must be builtin ops or
  // ops of the model.
  for (const DelegateProfile& profile : options.delegates) {
    TFA_RETURN_IF_ERROR(CheckClaimedOpNames(profile, model));
  }
  ModelPlan plan;
  plan.model_path = model.path;
  plan.model_format = model.format;
  plan.signatures = model.signatures;
  plan.constant_bytes = model.constant_bytes;
  plan.delegates = options.delegates;
  plan.prepare_options = PrepareOptionsFor(options.delegates);
  plan.prepare_options.arena = options.arena;
  plan.subgraphs.resize(model.subgraphs.size());
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    SubgraphPlan& sp = plan.subgraphs[s];
    sp.index = static_cast<int32_t>(s);
    sp.model_nodes = model.subgraphs[s].nodes.size();
    sp.delegated = model.subgraphs[s];
  }
  const Status planned = (model.format == "tflite" || model.kernel_prepare) && options.plan_arena
                             ? PlanWholeModel(model, options, plan)
                             : PlanSubgraphsOneByOne(model, options, plan);
  TFA_RETURN_IF_ERROR(planned.WithContext(model.path));
  return plan;
}

}  // namespace tfa
