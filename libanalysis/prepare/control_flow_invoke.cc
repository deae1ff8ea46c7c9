#include "libanalysis/prepare/control_flow_invoke.h"

#include <utility>

#include "libanalysis/prepare/builtin_kernel_prepare.h"
#include "libanalysis/prepare/model_memory_replay.h"

namespace tfa {
namespace replay_internal {
namespace {

bool HasControlFlow(const Subgraph& graph) {
  for (int32_t n : graph.execution_plan) {
    const Node& node = graph.nodes[static_cast<size_t>(n)];
    if (node.kind == NodeKind::kBuiltin &&
        (node.op == "WHILE" || node.op == "IF" || node.op == "CALL_ONCE" ||
         node.op == "STABLEHLO_COMPOSITE")) {
      return true;
    }
  }
  return false;
}

}  // namespace

Status ModelMemoryReplay::InvokeModel(const InvokeFacts& facts,
                                      std::vector<std::string>& facts_used,
                                      std::optional<MissingFact>& missing_fact) {
  facts_ = &facts;
  facts_used_ = &facts_used;
  missing_fact_ = &missing_fact;
  for (SubgraphState& state : states_) state.notes_before_invoke = state.memory.notes.size();
  if (states_.empty()) return Status::Ok();
  const Status status = InvokeSubgraph(0);
  // A missing fact stops the run like an error, but is an answer, not a failure.
  return missing_fact ? Status::Ok() : status;
}

Status ModelMemoryReplay::NeedFact(MissingFact::Kind kind, NodeRef where, std::string description) {
  *missing_fact_ = MissingFact{kind, where, std::move(description)};
  return Status::Error("needs " + (*missing_fact_)->description);
}

// Upstream's Subgraph::Invoke: nodes in plan order; the nodes after a dynamic one are prepared and
// planned once it has run.
Status ModelMemoryReplay::InvokeSubgraph(int32_t s) {
  if (states_[static_cast<size_t>(s)].stage == Stage::kUninvokable) {
    return Status::Error("subgraph " + std::to_string(s) + " is invoked before it is planned");
  }
  states_[static_cast<size_t>(s)].memory.invoked = true;
  const auto plan_size =
      static_cast<int32_t>(states_[static_cast<size_t>(s)].graph.execution_plan.size());
  for (int32_t p = 0; p < plan_size; ++p) {
    const SubgraphState& state = states_[static_cast<size_t>(s)];
    if (state.dynamic_stop && p == *state.dynamic_stop + 1)
      TFA_RETURN_IF_ERROR(PlanAfterDynamicNode(s, p));
    const int32_t node_index = state.graph.execution_plan[static_cast<size_t>(p)];
    const Node& node = state.graph.nodes[static_cast<size_t>(node_index)];
    if (node.kind != NodeKind::kBuiltin) continue;
    Status status = Status::Ok();
    if (node.op == "WHILE") {
      status = EvalWhile(s, node_index);
    } else if (node.op == "IF") {
      status = EvalIf(s, node_index);
    } else if (node.op == "CALL_ONCE") {
      status = EvalCallOnce(s, node_index);
    } else if (node.op == "STABLEHLO_COMPOSITE") {
      status = EvalComposite(s, node_index);
    }
    TFA_RETURN_IF_ERROR(status);
  }
  return Status::Ok();
}

// Upstream's Invoke reaching the node after a dynamic one: PrepareOpsAndTensors from there, with
// the shapes the run produced.
Status ModelMemoryReplay::PlanAfterDynamicNode(int32_t s, int32_t position) {
  TFA_RETURN_IF_ERROR(
      ApplyRunShapes(s, "subgraph " + std::to_string(s) +
                            ": the shapes of its tensors after the dynamic node at plan "
                            "position " +
                            std::to_string(position - 1) + " (input-dependent)"));
  const std::vector<TensorPlacement> before = states_[static_cast<size_t>(s)].memory.plan.tensors;
  TFA_RETURN_IF_ERROR(PrepareOpsFrom(s, position));
  TFA_RETURN_IF_ERROR(PlanAndCommit(s, "Invoke, after the dynamic node at plan position " +
                                           std::to_string(position - 1) + " ran"));
  SubgraphMemory& memory = states_[static_cast<size_t>(s)].memory;
  for (size_t t = 0; t < before.size() && t < memory.plan.tensors.size(); ++t) {
    const TensorPlacement& old = before[t];
    const TensorPlacement& now = memory.plan.tensors[t];
    if (old.arena == ArenaKind::kNone || (old.arena == now.arena && old.offset == now.offset))
      continue;
    memory.assumptions.push_back(
        "estimate: tensor " + std::to_string(t) + ", placed at " + std::to_string(old.offset) +
        " before the dynamic node, is at " + std::to_string(now.offset) +
        " in the re-plan (upstream keeps it and places the rest around it)");
  }
  return Status::Ok();
}

Status ModelMemoryReplay::ApplyRunShapes(int32_t s, const std::string& fact) {
  const auto given = facts_->run_shapes.find(s);
  if (given == facts_->run_shapes.end())
    return NeedFact(MissingFact::Kind::kRunShapes, {s, -1}, fact);
  Subgraph& graph = states_[static_cast<size_t>(s)].graph;
  for (const auto& [t, shape] : given->second) {
    if (t < 0 || static_cast<size_t>(t) >= graph.tensors.size()) {
      return Status::Error("run shapes name tensor " + std::to_string(t) + " of subgraph " +
                           std::to_string(s) + ", which has " +
                           std::to_string(graph.tensors.size()));
    }
    Tensor& tensor = graph.tensors[static_cast<size_t>(t)];
    tensor.shape = shape;
    if (IsResourceOrVariant(tensor) || tensor.type == TensorType::kString) continue;
    tensor.bytes = ShapeBytes(tensor.type, shape);
    if (!tensor.bytes) {
      return Status::Error("run shape of tensor " + std::to_string(t) + " of subgraph " +
                           std::to_string(s) + " has no byte size (negative or overflowing)");
    }
  }
  facts_used_->push_back("subgraph " + std::to_string(s) + ": the shapes of " +
                         std::to_string(given->second.size()) +
                         " tensors at the end of the run (given)");
  return Status::Ok();
}

void ModelMemoryReplay::ReleaseNonPersistentMemory(int32_t s, const std::string& releaser) {
  SubgraphState& state = states_[static_cast<size_t>(s)];
  state.stage = Stage::kUninvokable;
  state.memory.arena_size = 0;
  state.memory.released = true;
  state.memory.notes.push_back("non-persistent arena released by " + releaser + " once it ran");
}

// tflite/kernels/while.cc Eval.
Status ModelMemoryReplay::EvalWhile(int32_t s, int32_t node_index) {
  const Node node = states_[static_cast<size_t>(s)].graph.nodes[static_cast<size_t>(node_index)];
  const int32_t cond = node.options->cond_subgraph;
  const int32_t body = node.options->body_subgraph;
  const std::string caller = Caller("WHILE", s, node_index);
  TFA_RETURN_IF_ERROR(AllocateTensors(cond, caller));
  TFA_RETURN_IF_ERROR(AllocateTensors(body, caller));
  bool dynamic = false;
  for (int32_t t : node.outputs) dynamic |= IsDynamic(states_[static_cast<size_t>(s)].graph, t);

  const auto given = facts_->while_iterations.find({s, node_index});
  const bool count_matters = dynamic || HasControlFlow(states_[static_cast<size_t>(body)].graph);
  if (given == facts_->while_iterations.end() && count_matters) {
    return NeedFact(MissingFact::Kind::kWhileIterations, {s, node_index},
                    caller + ": how many times its body runs (input-dependent)");
  }
  int64_t iterations = 1;  // any count >= 1 leaves a static body without control flow alike
  if (given != facts_->while_iterations.end()) {
    iterations = given->second;
    facts_used_->push_back(caller + ": its body runs " + std::to_string(iterations) +
                           " times (given)");
  }
  TFA_RETURN_IF_ERROR(InvokeSubgraph(cond));
  if (iterations > 0 && dynamic) {
    // Every iteration resizes the body's inputs to the newest values and plans it again
    // (DeepOrShallowCopyTensorsShapeTypeData): what stays is the plan of the last iteration.
    TFA_RETURN_IF_ERROR(
        ApplyRunShapes(body, caller + ": the shapes of body subgraph " + std::to_string(body) +
                                 "'s tensors in its last iteration (input-dependent)"));
    states_[static_cast<size_t>(body)].stage = Stage::kUninvokable;
    TFA_RETURN_IF_ERROR(AllocateTensors(body, caller + " at Eval, in its last iteration"));
    TFA_RETURN_IF_ERROR(InvokeSubgraph(body));
    // The body's outputs become the cond's inputs and the node's outputs (still dynamic).
    const Subgraph& body_graph = states_[static_cast<size_t>(body)].graph;
    CopyShapesToInputs(body_graph, body_graph.outputs, cond);
    TFA_RETURN_IF_ERROR(AllocateTensors(cond, caller + " at Eval"));
    SetOutputs(s, node_index, false, body, body_graph.outputs);
  } else if (iterations > 0) {
    TFA_RETURN_IF_ERROR(InvokeSubgraph(body));
  }
  ReleaseNonPersistentMemory(cond, caller);
  ReleaseNonPersistentMemory(body, caller);
  return Status::Ok();
}

// tflite/kernels/if.cc Eval.
Status ModelMemoryReplay::EvalIf(int32_t s, int32_t node_index) {
  const Node node = states_[static_cast<size_t>(s)].graph.nodes[static_cast<size_t>(node_index)];
  const std::string caller = Caller("IF", s, node_index);
  const auto given = facts_->if_conditions.find({s, node_index});
  if (given == facts_->if_conditions.end()) {
    return NeedFact(MissingFact::Kind::kIfCondition, {s, node_index},
                    caller + ": its condition's value (input-dependent)");
  }
  const int32_t active = given->second ? node.options->then_subgraph : node.options->else_subgraph;
  const int32_t idle = given->second ? node.options->else_subgraph : node.options->then_subgraph;
  const std::string branch_name = given->second ? "then" : "else";
  facts_used_->push_back(caller + ": runs its " + branch_name + " branch, subgraph " +
                         std::to_string(active) + " (given)");
  states_[static_cast<size_t>(active)].memory.notes.push_back(
      "run as the " + branch_name + " branch of " + caller + " (condition given)");
  states_[static_cast<size_t>(idle)].memory.notes.push_back(
      "not run: " + caller + " took its " + branch_name +
      " branch (condition given); keeps its plan");
  bool dynamic = false;
  for (int32_t t : node.outputs) dynamic |= IsDynamic(states_[static_cast<size_t>(s)].graph, t);

  SubgraphState& branch = states_[static_cast<size_t>(active)];
  if (!dynamic) {
    // Eval_static: the branch writes straight into the node's outputs, so they leave its arena.
    for (int32_t t : branch.graph.outputs) {
      if (t < 0) continue;
      Tensor& output = branch.graph.tensors[static_cast<size_t>(t)];
      if (!IsResourceOrVariant(output) && !output.is_constant())
        output.allocation = AllocationType::kCustom;
    }
  }
  // Binding the inputs resizes them first; an input without a buffer yet (custom, bound only now)
  // makes the branch uninvokable, so it is planned again (tflite/core/subgraph.cc
  // ResizeInputTensor).
  for (size_t i = 0; i < branch.graph.inputs.size() && i + 1 < node.inputs.size(); ++i) {
    const int32_t t = branch.graph.inputs[i];
    if (t < 0 || node.inputs[i + 1] < 0) continue;
    if (!IsResourceOrVariant(branch.graph.tensors[static_cast<size_t>(t)]))
      branch.stage = Stage::kUninvokable;
  }
  TFA_RETURN_IF_ERROR(AllocateTensors(active, caller + " at Eval"));
  TFA_RETURN_IF_ERROR(InvokeSubgraph(active));
  if (dynamic)
    SetOutputs(s, node_index, false, active, states_[static_cast<size_t>(active)].graph.outputs);
  ReleaseNonPersistentMemory(active, caller);
  return Status::Ok();
}

// tflite/kernels/call_once.cc Eval: the init subgraph runs on the first Invoke only.
Status ModelMemoryReplay::EvalCallOnce(int32_t s, int32_t node_index) {
  const int32_t init = states_[static_cast<size_t>(s)]
                           .graph.nodes[static_cast<size_t>(node_index)]
                           .options->init_subgraph;
  TFA_RETURN_IF_ERROR(CheckSubgraphIndex(s, init, "init"));
  if (!initialized_.insert(init).second) return Status::Ok();
  const std::string caller = Caller("CALL_ONCE", s, node_index);
  TFA_RETURN_IF_ERROR(AllocateTensors(init, caller + " at Eval"));
  TFA_RETURN_IF_ERROR(InvokeSubgraph(init));
  ReleaseNonPersistentMemory(init, caller);
  return Status::Ok();
}

// tflite/kernels/stablehlo_composite.cc Eval: the decomposition runs on every Eval, writing
// straight into the node's outputs (Eval_static) or copied into them (Eval_dynamic), and then
// releases its memory (ReleaseMemory, unless the interpreter preserves all tensors).
Status ModelMemoryReplay::EvalComposite(int32_t s, int32_t node_index) {
  const Node node = states_[static_cast<size_t>(s)].graph.nodes[static_cast<size_t>(node_index)];
  const int32_t decomposition = node.options->subgraph;
  TFA_RETURN_IF_ERROR(CheckSubgraphIndex(s, decomposition, "decomposition"));
  const std::string caller = Caller("STABLEHLO_COMPOSITE", s, node_index);
  states_[static_cast<size_t>(decomposition)].memory.notes.push_back(
      "run as the decomposition of " + caller);
  bool dynamic = false;
  for (int32_t t : node.outputs) dynamic |= IsDynamic(states_[static_cast<size_t>(s)].graph, t);
  SubgraphState& child = states_[static_cast<size_t>(decomposition)];
  if (!dynamic) {
    for (int32_t t : child.graph.outputs) {
      if (t < 0) continue;
      Tensor& output = child.graph.tensors[static_cast<size_t>(t)];
      if (!IsResourceOrVariant(output) && !output.is_constant())
        output.allocation = AllocationType::kCustom;
    }
  }
  // DeepOrShallowCopyTensorsShapeTypeData binds the inputs as IF's Eval does: planned again.
  for (size_t i = 0; i < child.graph.inputs.size() && i < node.inputs.size(); ++i) {
    const int32_t t = child.graph.inputs[i];
    if (t >= 0 && node.inputs[i] >= 0 &&
        !IsResourceOrVariant(child.graph.tensors[static_cast<size_t>(t)]))
      child.stage = Stage::kUninvokable;
  }
  TFA_RETURN_IF_ERROR(AllocateTensors(decomposition, caller + " at Eval"));
  TFA_RETURN_IF_ERROR(InvokeSubgraph(decomposition));
  if (dynamic) SetOutputs(s, node_index, false, decomposition, child.graph.outputs);
  ReleaseNonPersistentMemory(decomposition, caller);
  return Status::Ok();
}

}  // namespace replay_internal

namespace {

// `fact` ("IF condition") names node `where`, which must be a builtin `op` of the model.
Status CheckFactNode(const Model& model, NodeRef where, const std::string& op,
                     const std::string& fact) {
  const std::string named = fact + " given for node " + std::to_string(where.node) +
                            " of subgraph " + std::to_string(where.subgraph);
  if (where.subgraph < 0 || static_cast<size_t>(where.subgraph) >= model.subgraphs.size()) {
    return Status::Error(named + ", but the model has " + std::to_string(model.subgraphs.size()) +
                         " subgraphs");
  }
  const Subgraph& graph = model.subgraphs[static_cast<size_t>(where.subgraph)];
  if (where.node < 0 || static_cast<size_t>(where.node) >= graph.nodes.size()) {
    return Status::Error(named + ", which has " + std::to_string(graph.nodes.size()) + " nodes");
  }
  const Node& node = graph.nodes[static_cast<size_t>(where.node)];
  if (node.kind != NodeKind::kBuiltin || node.op != op) {
    return Status::Error(named + ", which is " + node.op + ", not " + op);
  }
  return Status::Ok();
}

}  // namespace

Status CheckInvokeFacts(const Model& model, const InvokeFacts& facts) {
  for (const auto& [where, value] : facts.if_conditions)
    TFA_RETURN_IF_ERROR(CheckFactNode(model, where, "IF", "IF condition"));
  for (const auto& [where, iterations] : facts.while_iterations) {
    TFA_RETURN_IF_ERROR(CheckFactNode(model, where, "WHILE", "WHILE iteration count"));
    if (iterations < 0) {
      return Status::Error("WHILE node " + std::to_string(where.node) + " of subgraph " +
                           std::to_string(where.subgraph) + ": negative iteration count " +
                           std::to_string(iterations));
    }
  }
  for (const auto& [s, shapes] : facts.run_shapes) {
    if (s < 0 || static_cast<size_t>(s) >= model.subgraphs.size()) {
      return Status::Error("run shapes given for subgraph " + std::to_string(s) +
                           ", but the model has " + std::to_string(model.subgraphs.size()) +
                           " subgraphs");
    }
    const size_t tensors = model.subgraphs[static_cast<size_t>(s)].tensors.size();
    for (const auto& [t, shape] : shapes) {
      const std::string named =
          "run shape given for tensor " + std::to_string(t) + " of subgraph " + std::to_string(s);
      if (t < 0 || static_cast<size_t>(t) >= tensors)
        return Status::Error(named + ", which has " + std::to_string(tensors) + " tensors");
      for (int32_t d : shape) {
        if (d < 0) return Status::Error(named + " has a negative dimension " + std::to_string(d));
      }
    }
  }
  return Status::Ok();
}

Result<FirstInvokeMemory> ReplayFirstInvoke(const Model& model,
                                            const std::vector<ModelDelegate>& delegates,
                                            const PrepareOptions& options,
                                            const InvokeFacts& facts) {
  TFA_RETURN_IF_ERROR(CheckInvokeFacts(model, facts));
  replay_internal::ModelMemoryReplay replay(model, options);
  TFA_RETURN_IF_ERROR(replay.AllocateModel(delegates));
  FirstInvokeMemory out;
  out.after_allocate = replay.Snapshot(false);
  TFA_RETURN_IF_ERROR(replay.InvokeModel(facts, out.facts_used, out.undetermined));
  if (!out.undetermined) out.after_invoke = replay.Snapshot(true);
  return out;
}

}  // namespace tfa
