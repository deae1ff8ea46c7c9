// The interpreter's Prepare: one step per node of the execution plan (a CPU kernel, a delegate
// kernel or a node the interpreter runs itself), each prepared as upstream's PrepareOpsAndTensors.

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "libanalysis/core/checked_math.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_intermediates.h"
#include "runtime/kernels/cpu/cpu_kernels.h"

namespace tfa::runtime {

namespace {

// Ops the interpreter runs itself: they call subgraphs or use its resource variables.
bool IsInterpreterOp(const Node& node) {
  static const std::set<std::string> kOps = {"WHILE",
                                             "IF",
                                             "CALL_ONCE",
                                             "VAR_HANDLE",
                                             "READ_VARIABLE",
                                             "ASSIGN_VARIABLE",
                                             "STABLEHLO_COMPOSITE"};
  return node.kind == NodeKind::kBuiltin && kOps.count(node.op) > 0;
}

// The state inputs upstream's RNN kernels read with GetVariableInput, which gives null for a
// tensor that is not a variable: their Eval then fails (basic_rnn.cc,
// unidirectional_sequence_rnn.cc, bidirectional_sequence_rnn.cc), so such a model is refused.
Status CheckStatesAreVariables(const Subgraph& graph, const Node& node) {
  static const std::map<std::string_view, std::vector<size_t>> kStates = {
      {"RNN", {4}}, {"UNIDIRECTIONAL_SEQUENCE_RNN", {4}}, {"BIDIRECTIONAL_SEQUENCE_RNN", {4, 8}}};
  const auto states = kStates.find(node.op);
  if (node.kind != NodeKind::kBuiltin || states == kStates.end()) return Status::Ok();
  for (size_t i : states->second) {
    if (i >= node.inputs.size() || node.inputs[i] < 0) continue;  // the kernel's Prepare refuses
    if (graph.tensors[static_cast<size_t>(node.inputs[i])].is_variable) continue;
    return Status::Error("input " + std::to_string(i) + " (a hidden state) is not a variable " +
                         "tensor: upstream's kernel reads it with GetVariableInput and its Eval " +
                         "fails");
  }
  return Status::Ok();
}

// Upstream kernels whose inputs are all constant compute their outputs once, at Prepare, into
// persistent read-only tensors, and skip them at Eval (e.g. tflite/kernels/gather.cc).
bool MakesOnlyPersistentRo(const Subgraph& graph, const Node& node) {
  bool any = false;
  for (int32_t t : node.outputs) {
    if (t < 0) continue;
    if (graph.tensors[static_cast<size_t>(t)].allocation != AllocationType::kPersistentRo)
      return false;
    any = true;
  }
  return any;
}

}  // namespace

Status Interpreter::PrepareControlFlow(const Node& node) const {
  auto child = [&](int32_t index, const char* role) -> Result<const SubgraphState*> {
    if (index < 0 || static_cast<size_t>(index) >= subgraphs_.size())
      return Status::Error(std::string(role) + " subgraph " + std::to_string(index) +
                           " does not exist");
    const SubgraphState& c = subgraphs_[static_cast<size_t>(index)];
    if (!c.runnable)
      return Status::Error(std::string(role) + " " + SubgraphName(index) + " " +
                           c.not_runnable_reason);
    return &c;
  };
  auto counts = [](const char* what, size_t got, size_t want) {
    if (got == want) return Status::Ok();
    return Status::Error(std::string(what) + ": " + std::to_string(got) + ", expected " +
                         std::to_string(want));
  };
  const OpOptions& o = node.options;
  if (node.op == "WHILE") {
    auto cond = child(o.cond_subgraph, "cond");
    if (!cond.ok()) return cond.status();
    auto body = child(o.body_subgraph, "body");
    if (!body.ok()) return body.status();
    const size_t n = node.inputs.size();
    TFA_RETURN_IF_ERROR(counts("outputs", node.outputs.size(), n));
    TFA_RETURN_IF_ERROR(counts("cond inputs", (*cond)->graph.inputs.size(), n));
    TFA_RETURN_IF_ERROR(counts("cond outputs", (*cond)->graph.outputs.size(), 1));
    TFA_RETURN_IF_ERROR(counts("body inputs", (*body)->graph.inputs.size(), n));
    return counts("body outputs", (*body)->graph.outputs.size(), n);
  }
  if (node.op == "IF") {
    if (node.inputs.empty()) return Status::Error("IF has no condition input");
    for (int32_t branch : {o.then_subgraph, o.else_subgraph}) {
      auto b = child(branch, branch == o.then_subgraph ? "then" : "else");
      if (!b.ok()) return b.status();
      TFA_RETURN_IF_ERROR(
          counts("branch inputs", (*b)->graph.inputs.size(), node.inputs.size() - 1));
      TFA_RETURN_IF_ERROR(
          counts("branch outputs", (*b)->graph.outputs.size(), node.outputs.size()));
    }
    return Status::Ok();
  }
  if (node.op == "CALL_ONCE") return child(o.init_subgraph, "init").status();
  if (node.op == "STABLEHLO_COMPOSITE") {
    auto decomposition = child(o.subgraph, "decomposition");
    if (!decomposition.ok()) return decomposition.status();
    TFA_RETURN_IF_ERROR(
        counts("decomposition inputs", (*decomposition)->graph.inputs.size(), node.inputs.size()));
    return counts("decomposition outputs", (*decomposition)->graph.outputs.size(),
                  node.outputs.size());
  }
  if (node.op == "VAR_HANDLE") return counts("outputs", node.outputs.size(), 1);
  if (node.op == "READ_VARIABLE") {
    TFA_RETURN_IF_ERROR(counts("inputs", node.inputs.size(), 1));
    return counts("outputs", node.outputs.size(), 1);
  }
  return counts("inputs", node.inputs.size(), 2);  // ASSIGN_VARIABLE
}

Status Interpreter::PrepareSteps(SubgraphState& s, const InterpreterOptions& options,
                                 uint64_t& scratch) {
  for (size_t position = 0; position < s.graph.execution_plan.size(); ++position) {
    const int32_t index = s.graph.execution_plan[position];
    const Node& node = s.graph.nodes[static_cast<size_t>(index)];
    const std::string name = NodeName(s, index);
    // Prepared once the dynamic node before it ran (Reshape), with the shapes it gave.
    const bool after_stop =
        s.planning_stops_at && static_cast<int32_t>(position) > *s.planning_stops_at;
    const bool at_stop =
        s.planning_stops_at && static_cast<int32_t>(position) == *s.planning_stops_at;
    Step step;
    step.node = index;
    step.context.node = &node;
    step.context.node_data = &model_data_->Node(s.index, index);
    step.context.thread_pool = thread_pool_.get();
    for (int32_t t : node.inputs)
      step.context.inputs.push_back(t < 0 ? nullptr : &s.tensors[static_cast<size_t>(t)]);
    for (int32_t t : node.outputs)
      step.context.outputs.push_back(t < 0 ? nullptr : &s.tensors[static_cast<size_t>(t)]);
    for (int32_t t : node.temporaries)
      step.context.temporaries.push_back(t < 0 ? nullptr : &s.tensors[static_cast<size_t>(t)]);
    for (int32_t t : KernelIntermediates(s.graph, node))
      step.context.intermediates.push_back(t < 0 ? nullptr : &s.tensors[static_cast<size_t>(t)]);
    for (int32_t t : node.outputs) {
      if (!after_stop && !at_stop && t >= 0 && !s.tensors[static_cast<size_t>(t)].data &&
          s.tensors[static_cast<size_t>(t)].bytes > 0) {
        return Status::Error(name + ": output tensor " + std::to_string(t) + " has no buffer");
      }
    }
    if (node.kind == NodeKind::kDelegateKernel) {
      Delegate* owner = nullptr;
      for (Delegate* d : options.delegates) {
        if (d->Name() == node.op) owner = d;
      }
      if (!owner) return Status::Error(name + ": no delegate of that name");
      DelegatePartition partition{&s.graph,
                                  std::vector<int32_t>(node.replaces),
                                  std::vector<int32_t>(node.inputs),
                                  std::vector<int32_t>(node.outputs),
                                  &s.tensors,
                                  model_data_.get(),
                                  s.index,
                                  &host_};
      auto kernel = owner->CreateKernel(partition);
      if (!kernel.ok()) return kernel.status().WithContext(name);
      step.kind = StepKind::kDelegate;
      step.delegate = std::move(*kernel);
      step.copies_at_boundary = !owner->Profile().transfer.in_place;
      if (s.index == entry_) CountCopies(s, step, stats_.copies, true);
    } else if (IsInterpreterOp(node)) {
      step.kind = StepKind::kControlFlow;
    } else {
      step.kernel = FindCpuKernel(node.op);
      if (!step.kernel) return Status::Error(name + ": the runtime has no kernel for this op");
      TFA_RETURN_IF_ERROR(CheckStatesAreVariables(s.graph, node).WithContext(name));
    }
    step.made_at_prepare = step.kind == StepKind::kCpu && MakesOnlyPersistentRo(s.graph, node);
    // The dynamic node itself, when a kernel, prepares at Eval (PrepareDynamicStep).
    const bool later = after_stop || (at_stop && step.kind == StepKind::kCpu);
    if (!later || step.made_at_prepare) TFA_RETURN_IF_ERROR(PrepareStep(s, step));
    if (step.made_at_prepare) {
      // Evaluated now, before the shared scratch exists: it gets its own for this one call.
      const uint64_t own = CheckedAlignUp(step.context.scratch_bytes, kBufferAlignment).value_or(0);
      Buffer own_scratch(
          static_cast<uint8_t*>(own ? std::aligned_alloc(kBufferAlignment, own) : nullptr));
      step.context.scratch = own_scratch.get();
      TFA_RETURN_IF_ERROR(step.kernel->eval(step.context).WithContext(name));
      step.context.scratch_bytes = 0;
    }
    scratch = std::max(scratch, step.context.scratch_bytes);
    s.steps.push_back(std::move(step));
  }
  return Status::Ok();
}

Status Interpreter::PrepareStep(SubgraphState& s, Step& step) {
  Status prepared;
  switch (step.kind) {
    case StepKind::kCpu:
      prepared = step.kernel->prepare(step.context);
      break;
    case StepKind::kDelegate:
      prepared = step.delegate->Prepare(step.context);
      break;
    case StepKind::kControlFlow:
      prepared = PrepareControlFlow(*step.context.node);
      break;
  }
  TFA_RETURN_IF_ERROR(prepared.WithContext(NodeName(s, step.node)));
  step.prepared = true;
  return Status::Ok();
}

}  // namespace tfa::runtime
