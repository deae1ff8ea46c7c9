// The interpreter's set-up: the plan's subgraphs the entry reaches, their memory, tensors and
// prepared steps. The rest of the class, one concern a file: interpreter_memory.cc (arenas and
// buffers), interpreter_prepare.cc (steps), interpreter_invoke.cc (running),
// interpreter_control_flow.cc (WHILE, IF, CALL_ONCE, composites, variables), interpreter_reshape.cc
// (shapes that change at run time), interpreter_checks.cc.

#include "runtime/interpreter.h"

#include <algorithm>
#include <cstdlib>
#include <deque>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/model_loader.h"
#include "runtime/kernels/cpu/kernel_thread_pool.h"
#include "runtime/var_handle_names.h"

namespace tfa::runtime {

namespace {

// The subgraphs a node runs.
std::vector<int32_t> CalledSubgraphs(const Node& node) {
  if (node.kind != NodeKind::kBuiltin) return {};
  const OpOptions& o = node.options;
  if (node.op == "WHILE") return {o.cond_subgraph, o.body_subgraph};
  if (node.op == "IF") return {o.then_subgraph, o.else_subgraph};
  if (node.op == "CALL_ONCE") return {o.init_subgraph};
  if (node.op == "STABLEHLO_COMPOSITE") return {o.subgraph};
  return {};
}

}  // namespace

void Interpreter::AlignedFree::operator()(uint8_t* p) const { std::free(p); }

std::string Interpreter::SubgraphName(int32_t subgraph) {
  return "subgraph " + std::to_string(subgraph);
}

Interpreter::~Interpreter() = default;

Result<std::unique_ptr<Interpreter>> Interpreter::Create(const std::string& model_path,
                                                         const InterpreterOptions& options) {
  auto model = LoadModelFile(model_path);
  if (!model.ok()) return model.status();
  PlanOptions plan_options;
  plan_options.arena = options.arena;
  for (const Delegate* delegate : options.delegates) {
    plan_options.delegates.push_back(delegate->Profile());
  }
  auto plan = PlanModel(*model, plan_options);
  if (!plan.ok()) return plan.status();
  return Create(*plan, options);
}

Result<std::unique_ptr<Interpreter>> Interpreter::Create(const ModelPlan& plan,
                                                         const InterpreterOptions& options) {
  const std::string& model_path = plan.model_path;
  if (plan.model_format != "tflite")
    return Status::Error(model_path + ": the runtime needs a .tflite file");
  if (plan.subgraphs.empty()) return Status::Error(model_path + ": the model has no subgraphs");
  if (options.entry_subgraph < 0 ||
      static_cast<size_t>(options.entry_subgraph) >= plan.subgraphs.size()) {
    return Status::Error(model_path + ": no subgraph " + std::to_string(options.entry_subgraph));
  }
  TFA_RETURN_IF_ERROR(CheckDelegatesMatchPlan(plan, options.delegates).WithContext(model_path));
  std::unique_ptr<Interpreter> interpreter(new Interpreter());
  Interpreter& i = *interpreter;
  auto data = ModelData::Open(model_path);
  if (!data.ok()) return data.status();
  i.model_data_ = std::move(*data);
  i.entry_ = options.entry_subgraph;
  i.own_buffers_ = options.own_buffers;
  i.arena_options_ = plan.prepare_options.arena;
  i.poison_outputs_ = options.poison_outputs;
  i.memory_limit_bytes_ = options.memory_limit_bytes;
  i.max_loop_iterations_ = options.max_loop_iterations;
  i.time_limit_seconds_ = options.time_limit_seconds;
  i.subgraphs_.resize(plan.subgraphs.size());
  for (const SubgraphPlan& sp : plan.subgraphs)
    i.model_graphs_.push_back({sp.delegated, sp.model_nodes});
  const bool has_variables =
      std::any_of(plan.subgraphs.begin(), plan.subgraphs.end(), [](const SubgraphPlan& sp) {
        return std::any_of(sp.delegated->nodes.begin(), sp.delegated->nodes.end(),
                           [](const Node& n) { return n.op == "VAR_HANDLE"; });
      });
  if (has_variables) {
    auto names = ReadVarHandleNames(model_path);
    if (!names.ok()) return names.status();
    i.var_handle_names_ = std::move(*names);
  }
  i.stats_.subgraphs.resize(plan.subgraphs.size());
  // Only the subgraphs the entry reaches through control flow are set up, as upstream prepares
  // only those (a signature's runner does not prepare the other signatures' subgraphs).
  std::deque<int32_t> pending = {i.entry_};
  std::vector<bool> seen(plan.subgraphs.size(), false);
  seen[static_cast<size_t>(i.entry_)] = true;
  std::vector<int32_t> reached;
  while (!pending.empty()) {
    const int32_t index = pending.front();
    pending.pop_front();
    reached.push_back(index);
    TFA_RETURN_IF_ERROR(i.SetUpSubgraph(plan, index).WithContext(model_path));
    for (const Node& node : i.subgraphs_[static_cast<size_t>(index)].graph.nodes) {
      for (int32_t child : CalledSubgraphs(node)) {
        if (child < 0 || static_cast<size_t>(child) >= plan.subgraphs.size() ||
            seen[static_cast<size_t>(child)])
          continue;
        seen[static_cast<size_t>(child)] = true;
        pending.push_back(child);
      }
    }
  }
  if (!i.entry().runnable) {
    return Status::Error(model_path + ": " + SubgraphName(i.entry_) + " " +
                         i.entry().not_runnable_reason);
  }
  TFA_RETURN_IF_ERROR(i.CheckMemoryLimit(0).WithContext(model_path));
  for (int32_t index : reached) {
    SubgraphState& s = i.subgraphs_[static_cast<size_t>(index)];
    if (s.runnable) TFA_RETURN_IF_ERROR(i.AllocateTensors(s).WithContext(model_path));
  }
  if (options.threads > 1) i.thread_pool_ = std::make_unique<KernelThreadPool>(options.threads);
  uint64_t scratch = 0;
  for (int32_t index : reached) {
    SubgraphState& s = i.subgraphs_[static_cast<size_t>(index)];
    if (s.runnable)
      TFA_RETURN_IF_ERROR(i.PrepareSteps(s, options, scratch).WithContext(model_path));
  }
  TFA_RETURN_IF_ERROR(i.CheckMemoryLimit(scratch).WithContext(model_path));
  if (scratch > 0) {
    const uint64_t rounded = CheckedAlignUp(scratch, kBufferAlignment).value_or(0);
    if (rounded == 0) return Status::Error(model_path + ": kernel scratch size overflows");
    i.scratch_.reset(static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, rounded)));
    if (!i.scratch_) {
      return Status::Error(model_path + ": cannot allocate " + std::to_string(scratch) +
                           " scratch bytes");
    }
  }
  i.stats_.scratch_bytes = scratch;
  for (SubgraphState& s : i.subgraphs_) {
    for (Step& step : s.steps) step.context.scratch = i.scratch_.get();
  }
  const SubgraphRunStats& entry_stats = i.stats_.subgraphs[static_cast<size_t>(i.entry_)];
  i.stats_.arena_bytes = entry_stats.arena_bytes;
  i.stats_.persistent_arena_bytes = entry_stats.persistent_arena_bytes;
  if (options.guard_writes && !options.own_buffers) {
    for (int32_t index : reached) {
      SubgraphState& s = i.subgraphs_[static_cast<size_t>(index)];
      if (s.runnable) WatchArenas(s);
    }
  }
  return interpreter;
}

// The memory a subgraph runs on: the entry's after AllocateTensors; a called subgraph's as upstream
// has it when it runs (after the first Invoke where the plan knows it: an IF branch re-planned
// with its outputs aliasing the parent's, a CALL_ONCE init subgraph planned at Eval).
Status Interpreter::SetUpSubgraph(const ModelPlan& plan, int32_t index) {
  const SubgraphPlan& planned = plan.subgraphs[static_cast<size_t>(index)];
  SubgraphState& s = subgraphs_[static_cast<size_t>(index)];
  SubgraphRunStats& stats = stats_.subgraphs[static_cast<size_t>(index)];
  s.index = index;
  const SubgraphMemory* memory = nullptr;
  std::string which;
  if (index != entry_ && planned.after_invoke && planned.after_invoke->planned) {
    memory = &*planned.after_invoke;
    which = "invoke";
  } else if (planned.memory && planned.memory->planned) {
    memory = &*planned.memory;
    which = "allocate";
  }
  if (own_buffers_) {
    s.graph = memory ? *memory->prepared : *planned.delegated;
    which = "own buffers";
  } else if (!memory) {
    s.not_runnable_reason = "has no arena plan to run on (" +
                            std::string(index == entry_ ? "AllocateTensors leaves it unplanned"
                                                        : "the plan has no memory for it") +
                            ")";
    s.graph = *planned.delegated;
    return Status::Ok();
  } else {
    s.graph = *memory->prepared;
    s.plan = memory->plan;
    TFA_RETURN_IF_ERROR(CheckArenaPlanDisjoint(s.plan).WithContext(SubgraphName(index)));
  }
  if (index == entry_ && memory) prepare_assumptions_ = memory->assumptions;
  if (memory) s.planning_stops_at = memory->planning_stops_at;
  s.made_after_stop.assign(s.graph.tensors.size(), false);
  if (s.planning_stops_at) {
    const auto& order = s.graph.execution_plan;
    for (size_t p = static_cast<size_t>(*s.planning_stops_at) + 1; p < order.size(); ++p) {
      for (int32_t t : s.graph.nodes[static_cast<size_t>(order[p])].outputs) {
        if (t >= 0) s.made_after_stop[static_cast<size_t>(t)] = true;
      }
    }
  }
  for (const Tensor& t : planned.delegated->tensors)
    s.model_shapes.emplace_back(t.shape.begin(), t.shape.end());
  s.runnable = true;
  stats.runnable = true;
  stats.memory = which;
  return Status::Ok();
}

Status Interpreter::Host::WriteVarHandle(int32_t subgraph, int32_t node, RuntimeTensor& handle) {
  const auto it = interpreter_.var_handle_names_.find({subgraph, node});
  if (it == interpreter_.var_handle_names_.end())
    return Status::Error("VAR_HANDLE: no name for node " + std::to_string(node));
  return interpreter_.variables_.WriteHandle(it->second.first, it->second.second, handle);
}

PartitionHost::ModelSubgraph Interpreter::Host::Graph(int32_t index) const {
  if (index < 0 || static_cast<size_t>(index) >= interpreter_.model_graphs_.size()) return {};
  return interpreter_.model_graphs_[static_cast<size_t>(index)];
}

std::string Interpreter::NodeName(const SubgraphState& s, int32_t node) {
  return SubgraphName(s.index) + ": node " + std::to_string(node) + " (" +
         s.graph.nodes[static_cast<size_t>(node)].op + ")";
}

}  // namespace tfa::runtime
