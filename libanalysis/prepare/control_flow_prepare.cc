#include "libanalysis/prepare/control_flow_prepare.h"

#include <algorithm>
#include <span>
#include <utility>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/prepare/model_memory_replay.h"

namespace tfa {
namespace replay_internal {

bool IsDynamic(const Subgraph& graph, int32_t tensor) {
  return tensor >= 0 &&
         graph.tensors[static_cast<size_t>(tensor)].allocation == AllocationType::kDynamic;
}

bool IsResourceOrVariant(const Tensor& tensor) {
  return tensor.type == TensorType::kResource || tensor.type == TensorType::kVariant;
}

namespace {

// tflite/kernels/var_handle.cc Prepare: the resource id, 4 bytes in the persistent arena.
void PrepareVarHandleOutput(Tensor& handle) {
  handle.allocation = AllocationType::kArenaRwPersistent;
  handle.bytes = sizeof(int32_t);
  handle.shape.clear();
}

// Whether tensor `t` is a VAR_HANDLE's resource output.
bool IsVarHandleOutput(const Subgraph& graph, int32_t t) {
  if (t < 0 || graph.tensors[static_cast<size_t>(t)].type != TensorType::kResource) return false;
  return std::any_of(graph.nodes.begin(), graph.nodes.end(), [&](const Node& n) {
    return n.kind == NodeKind::kBuiltin && n.op == "VAR_HANDLE" && !n.outputs.empty() &&
           n.outputs[0] == t;
  });
}

// Upstream's Subgraph::GetInputTensorsCount: reads by the plan's nodes plus the graph outputs.
std::vector<int32_t> InputTensorsCount(const Subgraph& graph) {
  std::vector<int32_t> count(graph.tensors.size(), 0);
  for (int32_t node_index : graph.execution_plan) {
    for (int32_t t : graph.nodes[static_cast<size_t>(node_index)].inputs) {
      if (t >= 0) ++count[static_cast<size_t>(t)];
    }
  }
  for (int32_t t : graph.outputs) {
    if (t >= 0) ++count[static_cast<size_t>(t)];
  }
  return count;
}

// Upstream's Subgraph::RemoveUnusedInputs.
void RemoveUnusedInputs(Subgraph& graph) {
  const std::vector<int32_t> count = InputTensorsCount(graph);
  for (int32_t& input : graph.inputs) {
    if (input < 0 || count[static_cast<size_t>(input)] > 0) continue;
    graph.tensors[static_cast<size_t>(input)].bytes = 0;
    input = -1;
  }
}

// The plan positions 0..stop of `graph`, then one node that reads what the later nodes read
// (tensors they produce excepted): lifetimes, the allocation order and in-place sharing then come
// out as upstream computes them over the whole plan, while only tensors of the first chunk get
// placed (ArenaPlanner::ExecuteAllocations up to the dynamic node).
Subgraph FirstChunk(const Subgraph& graph, int32_t stop) {
  Subgraph chunk = graph;
  std::vector<bool> produced_later(graph.tensors.size(), false);
  const auto plan_size = static_cast<int32_t>(graph.execution_plan.size());
  for (int32_t p = stop + 1; p < plan_size; ++p) {
    for (int32_t t : graph.nodes[static_cast<size_t>(graph.execution_plan[p])].outputs) {
      if (t >= 0) produced_later[static_cast<size_t>(t)] = true;
    }
  }
  Node later_reads;
  later_reads.op = "(nodes after the dynamic one)";
  for (int32_t p = stop + 1; p < plan_size; ++p) {
    for (int32_t t : graph.nodes[static_cast<size_t>(graph.execution_plan[p])].inputs) {
      if (t >= 0 && !produced_later[static_cast<size_t>(t)]) later_reads.inputs.push_back(t);
    }
  }
  chunk.execution_plan.resize(static_cast<size_t>(stop) + 1);
  chunk.nodes.push_back(std::move(later_reads));
  chunk.execution_plan.push_back(static_cast<int32_t>(chunk.nodes.size()) - 1);
  return chunk;
}

// Puts the real last reads back where FirstChunk's stand-in node freed tensors.
void RestoreLastSteps(const Subgraph& graph, int32_t stop, ArenaPlan& plan) {
  const int32_t stand_in = stop + 1;
  const auto plan_size = static_cast<int32_t>(graph.execution_plan.size());
  std::vector<int32_t> last_read(graph.tensors.size(), kUnassignedStep);
  for (int32_t p = stop + 1; p < plan_size; ++p) {
    for (int32_t t : graph.nodes[static_cast<size_t>(graph.execution_plan[p])].inputs) {
      if (t >= 0) last_read[static_cast<size_t>(t)] = p;
    }
  }
  for (size_t t = 0; t < plan.tensors.size() && t < last_read.size(); ++t) {
    if (plan.tensors[t].last_step == stand_in) plan.tensors[t].last_step = last_read[t];
  }
  for (std::vector<ArenaBlock>* blocks : {&plan.rw_blocks, &plan.persistent_blocks}) {
    for (ArenaBlock& block : *blocks) {
      if (block.last_step != stand_in) continue;
      const auto t = static_cast<size_t>(block.tensor);
      block.last_step = t < last_read.size() && last_read[t] >= 0 ? last_read[t] : plan_size - 1;
    }
  }
  plan.num_steps = plan_size;
}

}  // namespace

ModelMemoryReplay::ModelMemoryReplay(const Model& model, const PrepareOptions& options)
    : options_(options), signatures_(model.signatures) {
  states_.resize(model.subgraphs.size());
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    states_[s].graph = model.subgraphs[s];
    if (states_[s].graph.execution_plan.empty()) {
      states_[s].graph.execution_plan = IdentityExecutionPlan(states_[s].graph);
    }
  }
}

Status ModelMemoryReplay::AllocateModel(const std::vector<ModelDelegate>& delegates) {
  for (const ModelDelegate& delegate : delegates) {
    for (size_t s = 0; s < states_.size(); ++s) {
      auto applied = ModifyGraphWithDelegate(static_cast<int32_t>(s), delegate);
      if (!applied.ok()) return applied.status();
      if (!*applied) break;
    }
  }
  if (states_.empty()) return Status::Ok();
  TFA_RETURN_IF_ERROR(AllocateTensors(0, "AllocateTensors"));
  // A model's signatures are run through their SignatureRunners, whose AllocateTensors plans the
  // signature's subgraph (tflite/signature_runner.cc); a user of every signature allocates each.
  // One already planned returns early, as upstream's AllocateTensors does on an invokable one.
  for (const SignatureDef& signature : signatures_) {
    const int32_t s = signature.subgraph_index;
    if (s < 0 || static_cast<size_t>(s) >= states_.size()) continue;
    if (states_[static_cast<size_t>(s)].stage != Stage::kUninvokable) continue;
    TFA_RETURN_IF_ERROR(
        AllocateTensors(s, "the runner of signature " + signature.key + " (AllocateTensors)"));
  }
  return Status::Ok();
}

std::vector<SubgraphMemory> ModelMemoryReplay::Snapshot(bool invoke_notes_only) const {
  std::vector<SubgraphMemory> out;
  for (const SubgraphState& state : states_) {
    SubgraphMemory memory = state.memory;
    if (invoke_notes_only) {
      memory.notes.erase(
          memory.notes.begin(),
          memory.notes.begin() + static_cast<std::ptrdiff_t>(state.notes_before_invoke));
    }
    if (!memory.planned) {
      memory.prepared = std::make_shared<const Subgraph>(state.graph);
      memory.notes.push_back(
          invoke_notes_only ? "not planned: the first Invoke did not run it"
                            : "not planned by AllocateTensors: no delegate re-planned it and no "
                              "WHILE or IF planned it (a CALL_ONCE init subgraph is planned "
                              "when it first runs)");
    }
    out.push_back(std::move(memory));
  }
  return out;
}

// Upstream's Subgraph::ModifyGraphWithDelegateImpl; false = kTfLiteApplicationError.
Result<bool> ModelMemoryReplay::ModifyGraphWithDelegate(int32_t s, const ModelDelegate& delegate) {
  SubgraphState& state = states_[static_cast<size_t>(s)];
  const Stage before = state.stage;
  if (state.stage == Stage::kImmutable) {
    state.stage = Stage::kUninvokable;
  } else if (!delegate.allows_dynamic_tensors) {
    TFA_RETURN_IF_ERROR(PrepareOps(s));
    if (state.has_dynamic_tensors) {
      state.stage = Stage::kUninvokable;
      TFA_RETURN_IF_ERROR(
          AllocateTensors(s, "the interpreter before refusing delegate " + delegate.name));
      state.memory.notes.push_back(
          "delegate " + delegate.name +
          " not applied to this subgraph or the ones after it: dynamic tensors (upstream's "
          "ModifyGraphWithDelegate returns kTfLiteApplicationError)");
      // tflite/core/subgraph.cc, ModifyGraphWithDelegateImpl: its warning, word for word.
      state.memory.refused_delegates.push_back(
          {delegate.name, state.dynamic_tensor,
           "Attempting to use a delegate that only supports static-sized tensors with a graph "
           "that has dynamic-sized tensors (tensor#" +
               std::to_string(state.dynamic_tensor) + " is a dynamic-sized tensor)."});
      return false;
    }
  }
  auto delegated = delegate.apply(s, state.graph);
  if (!delegated.ok()) return delegated.status();
  state.graph = std::move(delegated).value();
  ++state.memory.delegates_applied;
  const std::string replanner = "the interpreter after delegate " + delegate.name;
  if (!delegate.allows_dynamic_tensors || before == Stage::kImmutable) {
    state.stage = Stage::kUninvokable;
    TFA_RETURN_IF_ERROR(AllocateTensors(s, replanner));
    state.stage = Stage::kImmutable;
  } else if (before == Stage::kInvokable) {
    state.stage = Stage::kUninvokable;
    TFA_RETURN_IF_ERROR(AllocateTensors(s, replanner));
  }
  return true;
}

// Upstream's Subgraph::AllocateTensors (plan and commit; nothing when already invokable).
Status ModelMemoryReplay::AllocateTensors(int32_t s, const std::string& planner) {
  SubgraphState& state = states_[static_cast<size_t>(s)];
  bool dynamic_input = false;
  for (int32_t t : state.graph.inputs) dynamic_input |= IsDynamic(state.graph, t);
  if (state.stage != Stage::kUninvokable && !dynamic_input) return Status::Ok();
  if (state.allocating) {
    return Status::Error("subgraph " + std::to_string(s) +
                         " plans itself through its control flow");
  }
  state.allocating = true;
  TFA_RETURN_IF_ERROR(PrepareOps(s));
  state.allocating = false;
  return PlanAndCommit(s, planner);
}

// The kernels' Prepare, then ArenaPlanner up to the first dynamic node, committed: a buffer only
// grows (SimpleMemoryArena::Commit), the high-water mark is the new plan's.
Status ModelMemoryReplay::PlanAndCommit(int32_t s, const std::string& planner) {
  SubgraphState& state = states_[static_cast<size_t>(s)];
  auto prepared = ReplayKernelPrepare(state.graph, options_);
  if (!prepared.ok()) return prepared.status().WithContext("subgraph " + std::to_string(s));
  const Subgraph& graph = prepared->subgraph;
  auto plan = state.dynamic_stop ? PlanArena(FirstChunk(graph, *state.dynamic_stop), options_.arena)
                                 : PlanArena(graph, options_.arena);
  if (!plan.ok()) return plan.status().WithContext("subgraph " + std::to_string(s));
  if (state.dynamic_stop) RestoreLastSteps(graph, *state.dynamic_stop, *plan);
  state.stage = Stage::kInvokable;

  SubgraphMemory& memory = state.memory;
  memory.planned = true;
  memory.released = false;
  ++memory.plan_count;
  memory.arena_size = std::max(memory.arena_size, plan->arena_size);
  memory.persistent_arena_size =
      std::max(memory.persistent_arena_size, plan->persistent_arena_size);
  memory.plan = std::move(plan).value();
  memory.prepared = std::make_shared<const Subgraph>(std::move(prepared->subgraph));
  memory.assumptions = std::move(prepared->assumptions);
  memory.planning_stops_at = state.dynamic_stop;
  memory.notes.push_back("planned by " + planner);
  return Status::Ok();
}

// Upstream's PrepareOpsStartingAt(0): the control-flow and resource kernels' Prepare in plan
// order, up to the first node with dynamic outputs.
Status ModelMemoryReplay::PrepareOps(int32_t s) {
  SubgraphState& state = states_[static_cast<size_t>(s)];
  state.has_dynamic_tensors = false;
  state.dynamic_tensor = -1;
  for (int32_t t : state.graph.outputs) {
    if (state.has_dynamic_tensors || !IsDynamic(state.graph, t)) continue;
    state.has_dynamic_tensors = true;
    state.dynamic_tensor = t;
  }
  return PrepareOpsFrom(s, 0);
}

// Upstream's PrepareOpsStartingAt(first): it stops after the first node with a dynamic output,
// whether control flow made it so or a kernel's Prepare (reduce ops with an axis unknown at
// Prepare, TRANSPOSE_CONV with an unknown output shape, RANGE with unknown bounds, ...: see
// docs/kernel-temporaries.md).
Status ModelMemoryReplay::PrepareOpsFrom(int32_t s, int32_t first) {
  SubgraphState& state = states_[static_cast<size_t>(s)];
  state.dynamic_stop.reset();
  auto kernel_prepared = ReplayKernelPrepare(state.graph, options_);
  if (!kernel_prepared.ok()) {
    return kernel_prepared.status().WithContext("subgraph " + std::to_string(s));
  }
  // Only what a kernel's Prepare made dynamic: the graph's own dynamic tensors (a resource before
  // its VAR_HANDLE ran) are judged as the loop leaves them.
  std::vector<bool> kernel_dynamic(state.graph.tensors.size(), false);
  for (size_t t = 0; t < kernel_dynamic.size(); ++t) {
    const auto i = static_cast<int32_t>(t);
    kernel_dynamic[t] = IsDynamic(kernel_prepared->subgraph, i) && !IsDynamic(state.graph, i);
  }
  const auto plan_size = static_cast<int32_t>(state.graph.execution_plan.size());
  for (int32_t p = first; p < plan_size; ++p) {
    const int32_t node_index = state.graph.execution_plan[static_cast<size_t>(p)];
    if (node_index < 0 || static_cast<size_t>(node_index) >= state.graph.nodes.size()) {
      return Status::Error("subgraph " + std::to_string(s) + ": execution plan names node " +
                           std::to_string(node_index));
    }
    TFA_RETURN_IF_ERROR(PrepareNode(s, node_index));
    int32_t dynamic_output = -1;
    for (int32_t t : state.graph.nodes[static_cast<size_t>(node_index)].outputs) {
      const bool dynamic = IsDynamic(state.graph, t) || (t >= 0 && kernel_dynamic[t]);
      if (dynamic && dynamic_output < 0) dynamic_output = t;
    }
    if (dynamic_output >= 0) {
      state.has_dynamic_tensors = true;
      state.dynamic_tensor = dynamic_output;
      state.dynamic_stop = p;
      break;
    }
  }
  return Status::Ok();
}

Status ModelMemoryReplay::PrepareNode(int32_t s, int32_t node_index) {
  Subgraph& graph = states_[static_cast<size_t>(s)].graph;
  const Node& node = graph.nodes[static_cast<size_t>(node_index)];
  if (node.kind == NodeKind::kDelegateKernel) {
    // A delegate that took a VAR_HANDLE prepares it when its resource crosses the kernel's
    // boundary, as the CPU kernel would (tflite/delegates/xnnpack/xnnpack_delegate.cc,
    // Subgraph::Prepare: PrepareVarHandle on each external resource's VAR_HANDLE).
    for (const auto* list : {&node.inputs, &node.outputs}) {
      for (int32_t t : *list) {
        if (IsVarHandleOutput(graph, t))
          PrepareVarHandleOutput(graph.tensors[static_cast<size_t>(t)]);
      }
    }
    return Status::Ok();
  }
  if (node.kind != NodeKind::kBuiltin) return Status::Ok();
  const std::string where = "subgraph " + std::to_string(s) + ": node " +
                            std::to_string(node_index) + " (" + node.op + ")";
  Status status = Status::Ok();
  if (node.op == "WHILE") {
    status = PrepareWhile(s, node_index);
  } else if (node.op == "IF") {
    status = PrepareIf(s, node_index);
  } else if (node.op == "STABLEHLO_COMPOSITE") {
    status = PrepareComposite(s, node_index);
  } else if (node.op == "VAR_HANDLE" && !node.outputs.empty() && node.outputs[0] >= 0) {
    PrepareVarHandleOutput(graph.tensors[static_cast<size_t>(node.outputs[0])]);
  } else if (node.op == "READ_VARIABLE" && !node.outputs.empty() && node.outputs[0] >= 0) {
    // A scalar and an unranked output look the same to upstream: both become dynamic.
    Tensor& value = graph.tensors[static_cast<size_t>(node.outputs[0])];
    if (value.shape.empty()) value.allocation = AllocationType::kDynamic;
  }
  return status.ok() ? status : status.WithContext(where);
}

Status ModelMemoryReplay::CheckSubgraphIndex(int32_t parent, int32_t child,
                                             const char* role) const {
  if (child < 0 || static_cast<size_t>(child) >= states_.size() || child == parent) {
    return Status::Error(std::string(role) + " subgraph " + std::to_string(child) +
                         " is not a valid callee");
  }
  return Status::Ok();
}

// Upstream's CopyTensorsShapeAndType into a child's inputs (resizing them); a changed shape
// makes the child uninvokable, as ResizeInputTensor does.
void ModelMemoryReplay::CopyShapesToInputs(const Subgraph& parent, std::span<const int32_t> sources,
                                           int32_t child) {
  SubgraphState& state = states_[static_cast<size_t>(child)];
  for (size_t i = 0; i < sources.size() && i < state.graph.inputs.size(); ++i) {
    const int32_t from = sources[i];
    const int32_t to = state.graph.inputs[i];
    if (from < 0 || to < 0) continue;
    const Tensor& source = parent.tensors[static_cast<size_t>(from)];
    Tensor& target = state.graph.tensors[static_cast<size_t>(to)];
    if (IsResourceOrVariant(source) || source.type == TensorType::kString) continue;
    if (target.shape != source.shape || target.type != source.type)
      state.stage = Stage::kUninvokable;
    target.type = source.type;
    target.shape = source.shape;
    target.bytes = source.bytes;
  }
}

// The parent node's outputs after its children were planned: dynamic, or shaped as `shapes_from`.
void ModelMemoryReplay::SetOutputs(int32_t s, int32_t node_index, bool dynamic, int32_t shapes_from,
                                   const std::vector<int32_t>& child_outputs) {
  Subgraph& parent = states_[static_cast<size_t>(s)].graph;
  const Subgraph& child = states_[static_cast<size_t>(shapes_from)].graph;
  const auto& outputs = parent.nodes[static_cast<size_t>(node_index)].outputs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i] < 0) continue;
    Tensor& output = parent.tensors[static_cast<size_t>(outputs[i])];
    if (dynamic) {
      output.allocation = AllocationType::kDynamic;
      continue;
    }
    if (i >= child_outputs.size() || child_outputs[i] < 0) continue;
    const Tensor& source = child.tensors[static_cast<size_t>(child_outputs[i])];
    output.shape = source.shape;
    if (!IsResourceOrVariant(output) && output.type != TensorType::kString)
      output.bytes = source.bytes;
  }
}

std::string ModelMemoryReplay::Caller(const char* op, int32_t s, int32_t node_index) const {
  return std::string(op) + " node " + std::to_string(node_index) + " of subgraph " +
         std::to_string(s);
}

// tflite/kernels/while.cc Prepare_impl.
Status ModelMemoryReplay::PrepareWhile(int32_t s, int32_t node_index) {
  const Node node = states_[static_cast<size_t>(s)].graph.nodes[static_cast<size_t>(node_index)];
  const int32_t cond = node.options->cond_subgraph;
  const int32_t body = node.options->body_subgraph;
  TFA_RETURN_IF_ERROR(CheckSubgraphIndex(s, cond, "cond"));
  TFA_RETURN_IF_ERROR(CheckSubgraphIndex(s, body, "body"));
  if (cond == body) return Status::Error("cond and body are the same subgraph");
  const size_t n = node.inputs.size();
  const Subgraph& cond_graph = states_[static_cast<size_t>(cond)].graph;
  const Subgraph& body_graph = states_[static_cast<size_t>(body)].graph;
  if (node.outputs.size() != n || cond_graph.inputs.size() != n || cond_graph.outputs.size() != 1 ||
      body_graph.inputs.size() != n || body_graph.outputs.size() != n) {
    return Status::Error(
        "inputs, outputs and the cond and body subgraphs' inputs and outputs do not match");
  }
  const std::string caller = Caller("WHILE", s, node_index);

  RemoveUnusedInputs(states_[static_cast<size_t>(cond)].graph);
  CopyShapesToInputs(states_[static_cast<size_t>(s)].graph, node.inputs, cond);
  TFA_RETURN_IF_ERROR(AllocateTensors(cond, caller));

  CopyShapesToInputs(states_[static_cast<size_t>(s)].graph, node.inputs, body);
  Subgraph& parent = states_[static_cast<size_t>(s)].graph;
  Subgraph& body_sg = states_[static_cast<size_t>(body)].graph;
  const std::vector<int32_t> reads = InputTensorsCount(parent);
  IdList& outputs = parent.nodes[static_cast<size_t>(node_index)].outputs;
  for (size_t i = 0; i < n; ++i) {
    // A read-only loop variable nobody reads afterwards needs no output buffer.
    if (body_sg.inputs[i] != body_sg.outputs[i] || outputs[i] < 0 || body_sg.inputs[i] < 0)
      continue;
    if (reads[static_cast<size_t>(outputs[i])] != 0) continue;
    const Tensor& body_input = body_sg.tensors[static_cast<size_t>(body_sg.inputs[i])];
    if (body_input.type == TensorType::kString || IsResourceOrVariant(body_input)) continue;
    outputs[i] = -1;
  }
  for (int32_t t : body_sg.inputs) {
    if (t >= 0 && !IsResourceOrVariant(body_sg.tensors[static_cast<size_t>(t)])) {
      body_sg.tensors[static_cast<size_t>(t)].allocation = AllocationType::kCustom;
    }
  }
  TFA_RETURN_IF_ERROR(AllocateTensors(body, caller));

  const SubgraphState& body_state = states_[static_cast<size_t>(body)];
  bool dynamic = body_state.has_dynamic_tensors;
  for (size_t i = 0; i < n && !dynamic; ++i) {
    const int32_t in = body_state.graph.inputs[i];
    const int32_t out = body_state.graph.outputs[i];
    if (in < 0 || out < 0) continue;
    const auto& in_shape = body_state.graph.tensors[static_cast<size_t>(in)].shape;
    const auto& out_shape = body_state.graph.tensors[static_cast<size_t>(out)].shape;
    if (in_shape == out_shape) continue;
    // A scalar against a one-element vector is not a shape change.
    const int64_t elements =
        (in_shape.empty() ? 0 : in_shape[0]) + (out_shape.empty() ? 0 : out_shape[0]);
    if (elements == 1) continue;
    dynamic = true;
  }
  SetOutputs(s, node_index, dynamic, body, body_state.graph.outputs);
  return Status::Ok();
}

// tflite/kernels/if.cc Prepare.
Status ModelMemoryReplay::PrepareIf(int32_t s, int32_t node_index) {
  const Node node = states_[static_cast<size_t>(s)].graph.nodes[static_cast<size_t>(node_index)];
  const int32_t then_sg = node.options->then_subgraph;
  const int32_t else_sg = node.options->else_subgraph;
  TFA_RETURN_IF_ERROR(CheckSubgraphIndex(s, then_sg, "then"));
  TFA_RETURN_IF_ERROR(CheckSubgraphIndex(s, else_sg, "else"));
  if (node.inputs.empty()) return Status::Error("needs a condition input");
  const std::vector<int32_t> branch_inputs(node.inputs.begin() + 1, node.inputs.end());
  for (int32_t branch : {then_sg, else_sg}) {
    const Subgraph& g = states_[static_cast<size_t>(branch)].graph;
    if (g.inputs.size() != branch_inputs.size() || g.outputs.size() != node.outputs.size()) {
      return Status::Error("subgraph " + std::to_string(branch) +
                           "'s inputs and outputs do not match the node's");
    }
  }
  const std::string caller = Caller("IF", s, node_index);
  for (int32_t branch : {then_sg, else_sg})
    RemoveUnusedInputs(states_[static_cast<size_t>(branch)].graph);
  for (int32_t branch : {then_sg, else_sg}) {
    CopyShapesToInputs(states_[static_cast<size_t>(s)].graph, branch_inputs, branch);
  }
  bool dynamic = false;
  for (int32_t branch : {then_sg, else_sg}) {
    Subgraph& g = states_[static_cast<size_t>(branch)].graph;
    for (int32_t t : g.inputs) {
      if (t >= 0 && !IsResourceOrVariant(g.tensors[static_cast<size_t>(t)])) {
        g.tensors[static_cast<size_t>(t)].allocation = AllocationType::kCustom;
      }
    }
    TFA_RETURN_IF_ERROR(AllocateTensors(branch, caller));
    dynamic |= states_[static_cast<size_t>(branch)].has_dynamic_tensors;
  }
  const Subgraph& then_graph = states_[static_cast<size_t>(then_sg)].graph;
  const Subgraph& else_graph = states_[static_cast<size_t>(else_sg)].graph;
  for (size_t i = 0; i < node.outputs.size() && !dynamic; ++i) {
    const int32_t a = then_graph.outputs[i];
    const int32_t b = else_graph.outputs[i];
    if (a < 0 || b < 0) continue;
    dynamic = then_graph.tensors[static_cast<size_t>(a)].shape !=
              else_graph.tensors[static_cast<size_t>(b)].shape;
  }
  SetOutputs(s, node_index, dynamic, then_sg, then_graph.outputs);
  return Status::Ok();
}

// tflite/kernels/stablehlo_composite.cc Prepare: as IF with one branch, the decomposition
// subgraph, which every Eval runs (without RemoveUnusedInputs).
Status ModelMemoryReplay::PrepareComposite(int32_t s, int32_t node_index) {
  const Node node = states_[static_cast<size_t>(s)].graph.nodes[static_cast<size_t>(node_index)];
  const int32_t decomposition = node.options->subgraph;
  TFA_RETURN_IF_ERROR(CheckSubgraphIndex(s, decomposition, "decomposition"));
  Subgraph& g = states_[static_cast<size_t>(decomposition)].graph;
  if (g.inputs.size() != node.inputs.size() || g.outputs.size() != node.outputs.size()) {
    return Status::Error("subgraph " + std::to_string(decomposition) +
                         "'s inputs and outputs do not match the node's");
  }
  CopyShapesToInputs(states_[static_cast<size_t>(s)].graph, node.inputs, decomposition);
  for (int32_t t : g.inputs) {
    if (t >= 0 && !IsResourceOrVariant(g.tensors[static_cast<size_t>(t)]))
      g.tensors[static_cast<size_t>(t)].allocation = AllocationType::kCustom;
  }
  TFA_RETURN_IF_ERROR(AllocateTensors(decomposition, Caller("STABLEHLO_COMPOSITE", s, node_index)));
  const SubgraphState& state = states_[static_cast<size_t>(decomposition)];
  SetOutputs(s, node_index, state.has_dynamic_tensors, decomposition, state.graph.outputs);
  return Status::Ok();
}

}  // namespace replay_internal

Result<std::vector<SubgraphMemory>> ReplayModelMemory(const Model& model,
                                                      const std::vector<ModelDelegate>& delegates,
                                                      const PrepareOptions& options) {
  replay_internal::ModelMemoryReplay replay(model, options);
  TFA_RETURN_IF_ERROR(replay.AllocateModel(delegates));
  return replay.Snapshot(false);
}

}  // namespace tfa
