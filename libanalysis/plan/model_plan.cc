#include "libanalysis/plan/model_plan.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/core/parallel_map.h"
#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/plan/delegate_order.h"
#include "libanalysis/profiles/delegate_selection.h"
#include "libanalysis/profiles/flex_ops.h"
#include "libanalysis/profiles/gpu_kernel_init.h"

namespace tfa {
namespace {

// A delegate whose kernel failed its init, as ApplyProfile found it: the attempt stops there and
// PlanModelOn plans again without it.
struct FailedDelegation {
  size_t position = 0;  // in PlanOptions::delegates
  DelegateFailure failure;
};

// The log upstream writes when the kernel at `kernel_node` fails its init, through the restore.
std::optional<DelegateFailure> KernelInitFailure(const DelegateProfile& profile,
                                                 const Subgraph& graph, int32_t kernel_node) {
  if (profile.kernel.delegate_kernel != "gpu") return std::nullopt;
  const Node& kernel = graph.nodes[static_cast<size_t>(kernel_node)];
  std::optional<std::string> error =
      GpuKernelInitError(graph, kernel, profile.OptionEnabled("allow_quant_ops"));
  if (!error) return std::nullopt;
  DelegateFailure failure;
  failure.delegate = profile.name;
  failure.nodes.assign(kernel.replaces.begin(), kernel.replaces.end());
  failure.reason = *error;
  // tflite/delegates/gpu/delegate.cc: init logs and returns no kernel, Prepare refuses the node;
  // tflite/core/subgraph.cc reports the node and restores the plan.
  failure.log = {std::string(kGpuKernelInitLogPrefix) + *error,
                 "TfLiteGpuDelegate Prepare: delegate is not initialized",
                 "Node number " + std::to_string(kernel_node) + " (" + kGpuKernelRegistrationName +
                     ") failed to prepare.",
                 "Restored original execution plan after delegate application failure."};
  return failure;
}

// Appends the nodes of `input` that `verdicts` reject, with their reasons (ReasonText). Nodes with
// the same op share its text, and a run of nodes with the same reason shares that: a delegate
// that claims every other node of a large graph rejects half a million nodes (issue 46).
void AddRejectedNodes(const Subgraph& input, const std::string& delegate,
                      const std::vector<NodeSupport>& verdicts,
                      std::vector<RejectedNode>& rejected) {
  const auto is_rejected = [](const NodeSupport& v) { return !v.supported && !v.reason.empty(); };
  rejected.reserve(rejected.size() + static_cast<size_t>(std::count_if(
                                         verdicts.begin(), verdicts.end(), is_rejected)));
  const SharedString delegate_name = delegate;
  std::unordered_map<std::string_view, SharedString> op_names;
  const NodeSupport* last = nullptr;  // the verdict `reason` was made from
  SharedString reason;
  for (const NodeSupport& v : verdicts) {
    if (!is_rejected(v)) continue;
    const std::string& op = input.nodes[static_cast<size_t>(v.node)].op;
    const SharedString& op_name = op_names.try_emplace(op, op).first->second;
    // ReasonText reads the node's index only to drop " in node #N" from the reason.
    const bool same_reason = last != nullptr && v.reason == last->reason &&
                             v.detail == last->detail &&
                             v.reason.str().find(" in node #") == std::string::npos;
    if (!same_reason) reason = ReasonText(v);
    last = &v;
    rejected.push_back(RejectedNode{v.node, op_name, delegate_name, reason});
  }
}

// One delegate applied to `input`, the subgraph as it stands: verdicts, node choice, delegate
// kernels. The result replaces `sp.delegated`.
// A kernel failing its init sets `failed` and stops the attempt.
Status ApplyProfile(SubgraphPlan& sp, const Subgraph& input, const DelegateProfile& profile,
                    size_t position, bool keep_input, std::optional<FailedDelegation>& failed) {
  if (keep_input) sp.delegate_inputs.push_back(input);
  // Checked once for the selection, its preview partitioning and the kernels.
  auto valid = ValidSubgraph::Check(input);
  if (!valid.ok()) return valid.status();
  auto selection = SelectDelegateNodes(*valid, profile);
  if (!selection.ok()) return selection.status();
  AddRejectedNodes(input, profile.name, selection->verdicts, sp.rejected);
  // Only the node choice is needed from here on: the verdicts and the candidates go before the
  // delegated graph is built.
  selection->verdicts = std::vector<NodeSupport>();
  selection->selection.candidate_partitions = std::vector<NodeSubset>();
  auto delegated = ApplyDelegateSelection(*valid, profile, std::move(*selection));
  if (!delegated.ok()) return delegated.status();
  // The interpreter creates every kernel (their init) before preparing the first one.
  for (int32_t kernel_node : delegated->kernel_nodes) {
    std::optional<DelegateFailure> failure =
        KernelInitFailure(profile, delegated->subgraph, kernel_node);
    if (!failure) continue;
    failure->subgraph = sp.index;
    const std::string message = profile.name + ": delegate kernel init failed: " + failure->reason;
    failed = FailedDelegation{position, std::move(*failure)};
    return Status::Error(message);
  }
  if (!delegated->subsets.empty()) {
    sp.last_subsets = std::move(delegated->subsets);
    sp.last_kernel_nodes = std::move(delegated->kernel_nodes);
  }
  sp.delegated = std::make_shared<const Subgraph>(std::move(delegated->subgraph));
  return Status::Ok();
}

// A planner-level subgraph (Graph JSON) planned as it stands: its nodes state their temporaries,
// so the planned graph is `graph` itself, shared.
Result<SubgraphMemory> PlanAsGiven(std::shared_ptr<const Subgraph> graph,
                                   const ArenaPlannerOptions& options) {
  auto plan = PlanArena(*graph, options);
  if (!plan.ok()) return plan.status();
  SubgraphMemory memory;
  memory.planned = true;
  memory.prepared = std::move(graph);
  memory.arena_size = plan->arena_size;
  memory.persistent_arena_size = plan->persistent_arena_size;
  memory.plan = std::move(plan).value();
  memory.plan_count = 1;
  return memory;
}

// Graph JSON models, and any model when no arena is asked for: each subgraph delegated (and
// planned) on its own.
Status PlanSubgraphsOneByOne(const PlanOptions& options, ModelPlan& plan,
                             std::optional<FailedDelegation>& failed) {
  for (SubgraphPlan& sp : plan.subgraphs) {
    const std::string where = "subgraph " + std::to_string(sp.index);
    const std::shared_ptr<const Subgraph> undelegated = sp.delegated;
    // The CPU-only plan needs nothing of the delegation: it runs beside it, on another core.
    const bool plan_cpu_only = options.plan_arena && !options.delegates.empty();
    std::optional<Result<SubgraphMemory>> cpu;
    const auto delegated = ParallelMap(plan_cpu_only ? 2 : 1, [&](size_t task) -> Status {
      if (task == 1) {
        cpu.emplace(PlanAsGiven(undelegated, options.arena));
        return Status::Ok();
      }
      for (size_t d = 0; d < options.delegates.size(); ++d) {
        const std::shared_ptr<const Subgraph> input = sp.delegated;
        TFA_RETURN_IF_ERROR(ApplyProfile(sp, *input, options.delegates[d], d,
                                         options.keep_delegate_inputs, failed));
      }
      if (!options.plan_arena) return Status::Ok();
      auto memory = PlanAsGiven(sp.delegated, options.arena);
      if (!memory.ok()) return memory.status();
      sp.memory = std::move(memory).value();
      return Status::Ok();
    });
    TFA_RETURN_IF_ERROR(delegated[0].WithContext(where));
    if (!options.plan_arena) continue;
    if (!plan_cpu_only) {
      sp.cpu_only_memory = sp.memory;
      continue;
    }
    if (!cpu->ok()) return cpu->status().WithContext(where);
    sp.cpu_only_memory = std::move(*cpu).value();
  }
  return Status::Ok();
}

// Whether AllocateTensors left a subgraph planned only up to a node with dynamic outputs: the
// first Invoke then plans the rest.
bool PlanningStops(const std::vector<SubgraphMemory>& memories) {
  for (const SubgraphMemory& memory : memories) {
    if (memory.planning_stops_at) return true;
  }
  return false;
}

// .tflite models: the interpreter replayed on the whole model, so WHILE and IF plan their children
// and each delegate reaches every subgraph in turn; with several subgraphs, or when planning
// stopped at a node with dynamic outputs, also the first Invoke. Returns each subgraph's memory
// after AllocateTensors.
Result<std::vector<SubgraphMemory>> ReplayWithDelegates(const Model& model,
                                                        const PlanOptions& options, ModelPlan& plan,
                                                        std::optional<FailedDelegation>& failed) {
  // The model's own subgraphs, as the plan starts with them: a replay that starts again needs them.
  std::vector<std::shared_ptr<const Subgraph>> model_subgraphs;
  for (const SubgraphPlan& sp : plan.subgraphs) model_subgraphs.push_back(sp.delegated);
  std::vector<ModelDelegate> delegates;
  for (size_t position = 0; position < options.delegates.size(); ++position) {
    const DelegateProfile& profile = options.delegates[position];
    ModelDelegate d;
    d.name = profile.name;
    d.allows_dynamic_tensors = !PrepareOptionsFor({profile}).prepare_before_delegation;
    d.apply = [&plan, &profile, &options, &failed, position](
                  int32_t s, const Subgraph& current) -> Result<Subgraph> {
      SubgraphPlan& sp = plan.subgraphs[static_cast<size_t>(s)];
      TFA_RETURN_IF_ERROR(
          ApplyProfile(sp, current, profile, position, options.keep_delegate_inputs, failed)
              .WithContext("subgraph " + std::to_string(s)));
      return *sp.delegated;
    };
    delegates.push_back(std::move(d));
  }
  std::vector<SubgraphMemory> after_allocate;
  if (model.subgraphs.size() == 1) {
    auto replayed = ReplayModelMemory(model, delegates, plan.prepare_options);
    if (!replayed.ok()) return replayed.status();
    after_allocate = std::move(replayed).value();
  }
  if (model.subgraphs.size() > 1 || PlanningStops(after_allocate)) {
    // Replayed again with the first Invoke: the delegates start from the model again.
    for (size_t s = 0; s < plan.subgraphs.size(); ++s) {
      plan.subgraphs[s] = SubgraphPlan{};
      plan.subgraphs[s].index = static_cast<int32_t>(s);
      plan.subgraphs[s].model_nodes = model.subgraphs[s].nodes.size();
      plan.subgraphs[s].delegated = model_subgraphs[s];
    }
    auto replayed = ReplayFirstInvoke(model, delegates, plan.prepare_options, options.invoke_facts);
    if (!replayed.ok()) return replayed.status();
    plan.invoke = InvokePlan{replayed->facts_used, replayed->undetermined};
    after_allocate = std::move(replayed->after_allocate);
    for (size_t s = 0; s < replayed->after_invoke.size(); ++s) {
      plan.subgraphs[s].after_invoke = std::move(replayed->after_invoke[s]);
    }
  }
  return after_allocate;
}

// .tflite models (ReplayWithDelegates), and the same model replayed without delegates for the
// CPU-only figures.
Status PlanWholeModel(const Model& model, const PlanOptions& options, ModelPlan& plan,
                      std::optional<FailedDelegation>& failed) {
  // The CPU-only replay needs nothing of the delegated one: it runs beside it, on another core.
  std::optional<Result<std::vector<SubgraphMemory>>> after_allocate, cpu_only;
  ParallelMap(options.delegates.empty() ? 1 : 2, [&](size_t task) {
    if (task == 0) {
      after_allocate.emplace(ReplayWithDelegates(model, options, plan, failed));
    } else {
      PrepareOptions cpu_options;
      cpu_options.arena = options.arena;
      cpu_options.build = options.build;
      cpu_only.emplace(ReplayModelMemory(model, {}, cpu_options));
    }
    return true;
  });
  if (!after_allocate->ok()) return after_allocate->status();
  if (cpu_only && !cpu_only->ok()) return cpu_only->status();
  for (size_t s = 0; s < plan.subgraphs.size(); ++s) {
    SubgraphPlan& sp = plan.subgraphs[s];
    sp.memory = std::move((**after_allocate)[s]);
    sp.cpu_only_memory = cpu_only ? std::move((**cpu_only)[s]) : sp.memory;
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

namespace {

// One attempt at the plan with the delegates of `options` (in the interpreter's order), which
// stops at the first delegate kernel that fails its init (`failed` set).
Result<ModelPlan> PlanAttempt(const Model& model,
                              std::vector<std::shared_ptr<const Subgraph>> subgraphs,
                              const PlanOptions& options, std::optional<FailedDelegation>& failed) {
  ModelPlan plan;
  plan.model_path = model.path;
  plan.model_format = model.format;
  plan.signatures = model.signatures;
  plan.constant_bytes = model.constant_bytes;
  plan.runtime_version = MinimumRuntimeVersion(model);
  plan.delegates = options.delegates;
  plan.prepare_options = PrepareOptionsFor(options.delegates);
  plan.prepare_options.arena = options.arena;
  plan.prepare_options.build = options.build;
  plan.subgraphs.resize(model.subgraphs.size());
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    SubgraphPlan& sp = plan.subgraphs[s];
    sp.index = static_cast<int32_t>(s);
    sp.model_nodes = model.subgraphs[s].nodes.size();
    sp.delegated = std::move(subgraphs[s]);
  }
  const Status planned = (model.format == "tflite" || model.kernel_prepare) && options.plan_arena
                             ? PlanWholeModel(model, options, plan, failed)
                             : PlanSubgraphsOneByOne(options, plan, failed);
  TFA_RETURN_IF_ERROR(planned.WithContext(model.path));
  for (SubgraphPlan& sp : plan.subgraphs)
    sp.unresolved_flex_nodes = UnresolvedFlexNodes(*sp.delegated);
  return plan;
}

// PlanModel with `subgraphs[s]` standing for the model's subgraph s.
Result<ModelPlan> PlanModelOn(const Model& model,
                              const std::vector<std::shared_ptr<const Subgraph>>& subgraphs,
                              const PlanOptions& requested) {
  DelegateOrder order = OrderDelegatesAsInterpreter(model, requested.delegates);
  PlanOptions options = requested;
  options.delegates = std::move(order.applied);
  // Checked here, not only by the replay, so that facts naming a node the model lacks are refused
  // for models that never reach the replay too (one subgraph, Graph JSON).
  TFA_RETURN_IF_ERROR(CheckInvokeFacts(model, options.invoke_facts).WithContext(model.path));
  // `ops=CONV2D` (a typo) would claim nothing and say nothing: op names must be builtin ops or
  // ops of the model.
  for (const DelegateProfile& profile : options.delegates) {
    TFA_RETURN_IF_ERROR(CheckClaimedOpNames(profile, model));
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    if (!model.subgraphs[s].allocation_error.empty()) {
      return Status::Error(model.path + ": subgraph " + std::to_string(s) + ": " +
                           model.subgraphs[s].allocation_error);
    }
  }
  std::vector<DelegateFailure> failures;
  while (true) {
    std::optional<FailedDelegation> failed;
    auto plan = PlanAttempt(model, subgraphs, options, failed);
    if (!failed) {
      if (!plan.ok()) return plan.status();
      plan->delegation_notes.insert(plan->delegation_notes.begin(), order.notes.begin(),
                                    order.notes.end());
      plan->delegate_failures = std::move(failures);
      return plan;
    }
    // The interpreter removes the failed delegate and every one applied before it; the rest
    // apply to the restored model.
    const auto removed_end =
        options.delegates.begin() + static_cast<std::ptrdiff_t>(failed->position);
    for (auto it = options.delegates.begin(); it != removed_end; ++it) {
      failed->failure.also_removed.push_back(it->name);
    }
    failures.push_back(std::move(failed->failure));
    options.delegates.erase(options.delegates.begin(), removed_end + 1);
  }
}

}  // namespace

Result<ModelPlan> PlanModel(const Model& model, const PlanOptions& options) {
  std::vector<std::shared_ptr<const Subgraph>> subgraphs;
  subgraphs.reserve(model.subgraphs.size());
  for (const Subgraph& subgraph : model.subgraphs) {
    subgraphs.push_back(std::make_shared<const Subgraph>(subgraph));
  }
  return PlanModelOn(model, subgraphs, options);
}

Result<ModelPlan> PlanModel(std::shared_ptr<const Model> model, const PlanOptions& options) {
  std::vector<std::shared_ptr<const Subgraph>> subgraphs;
  subgraphs.reserve(model->subgraphs.size());
  for (const Subgraph& subgraph : model->subgraphs) {
    subgraphs.emplace_back(model, &subgraph);  // owned by the model, kept alive with it
  }
  return PlanModelOn(*model, subgraphs, options);
}

}  // namespace tfa
