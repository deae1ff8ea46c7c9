// The nodes the interpreter runs itself: WHILE, IF, CALL_ONCE and STABLEHLO_COMPOSITE call their
// subgraphs (tflite/kernels/while.cc, if.cc, call_once.cc), the resource-variable ops use its
// variables.

#include <algorithm>
#include <cstring>

#include "runtime/interpreter.h"

namespace tfa::runtime {

namespace {

// Copies a tensor's bytes into another of the same byte size (a child subgraph's input, a
// control-flow node's output), which the caller resized first: upstream points or copies.
Status CopyTensor(const RuntimeTensor& from, RuntimeTensor& to, const std::string& what) {
  if (from.bytes != to.bytes) {
    return Status::Error(what + ": " + std::to_string(from.bytes) + " bytes into " +
                         std::to_string(to.bytes));
  }
  if (from.bytes == 0 || from.data == to.data) return Status::Ok();
  if (!from.data || !to.data) return Status::Error(what + ": a tensor has no buffer");
  std::memmove(to.data, from.data, from.bytes);
  return Status::Ok();
}

}  // namespace

Status Interpreter::EvalControlFlow(SubgraphState& s, Step& step) {
  const Node& node = *step.context.node;
  KernelContext& c = step.context;
  if (node.op == "WHILE") return EvalWhile(s, step);
  if (node.op == "IF") return EvalIf(s, step);
  if (node.op == "STABLEHLO_COMPOSITE") {
    // tflite/kernels/stablehlo_composite.cc: the decomposition subgraph on the node's inputs.
    const std::vector<const RuntimeTensor*> values(step.context.inputs.begin(),
                                                   step.context.inputs.end());
    auto outputs = CallSubgraph(node.options->subgraph, values);
    if (!outputs.ok()) return outputs.status();
    return CopyCalleeOutputs(s, step, *outputs);
  }
  if (node.op == "VAR_HANDLE") {
    const auto& [container, shared_name] = var_handle_names_[{s.index, step.node}];
    return variables_.WriteHandle(container, shared_name, c.output(0));
  }
  if (node.op == "READ_VARIABLE") return variables_.Read(c.input(0), c.output(0));
  if (node.op == "ASSIGN_VARIABLE") return variables_.Assign(c.input(0), c.input(1));
  // CALL_ONCE: the init subgraph runs at the first Invoke only (tflite/kernels/call_once.cc).
  const NodeRef ref{s.index, step.node};
  if (std::find(called_once_.begin(), called_once_.end(), ref) != called_once_.end())
    return Status::Ok();
  called_once_.push_back(ref);
  return CallSubgraph(node.options->init_subgraph, {}).status();
}

Result<std::vector<const RuntimeTensor*>> Interpreter::CallSubgraph(
    int32_t index, const std::vector<const RuntimeTensor*>& values) {
  SubgraphState& child = subgraphs_[static_cast<size_t>(index)];
  // tflite/kernels/while.cc and if.cc resize the child's inputs to the values' shapes and
  // allocate it again when any changed.
  bool resized = false;
  for (size_t i = 0; i < child.graph.inputs.size() && i < values.size(); ++i) {
    const int32_t t = child.graph.inputs[i];
    if (t < 0 || !values[i] || values[i]->shape == child.tensors[static_cast<size_t>(t)].shape)
      continue;
    TFA_RETURN_IF_ERROR(ResizeTensor(child, t, values[i]->shape));
    resized = true;
  }
  if (resized) TFA_RETURN_IF_ERROR(Reshape(child, 0));
  for (size_t i = 0; i < child.graph.inputs.size() && i < values.size(); ++i) {
    const int32_t t = child.graph.inputs[i];
    if (t < 0 || !values[i]) continue;  // an input the child never reads (dropped in Prepare)
    TFA_RETURN_IF_ERROR(
        CopyIntoTensor(child, t, *values[i], SubgraphName(index) + " input " + std::to_string(i)));
  }
  TFA_RETURN_IF_ERROR(RunSubgraph(index));
  std::vector<const RuntimeTensor*> outputs;
  for (int32_t t : child.graph.outputs)
    outputs.push_back(t < 0 ? nullptr : &child.tensors[static_cast<size_t>(t)]);
  return outputs;
}

// tflite/kernels/while.cc: the loop state starts as the inputs; cond reads it, and while it says
// true the body turns it into the next state; the outputs are the last state.
Status Interpreter::EvalWhile(SubgraphState& s, Step& step) {
  const Node& node = *step.context.node;
  const size_t n = node.inputs.size();
  std::vector<std::vector<uint8_t>> bytes(n);
  std::vector<RuntimeTensor> state(n);
  std::vector<const RuntimeTensor*> values(n);
  for (size_t i = 0; i < n; ++i) {
    const RuntimeTensor* in = step.context.inputs[i];
    if (!in) return Status::Error("WHILE input " + std::to_string(i) + " is absent");
    state[i] = *in;
    bytes[i].assign(in->data, in->data + in->bytes);
    state[i].data = bytes[i].data();
    values[i] = &state[i];
  }
  int64_t iterations = 0;
  for (;;) {
    auto cond = CallSubgraph(node.options->cond_subgraph, values);
    if (!cond.ok()) return cond.status();
    const RuntimeTensor* verdict = cond->empty() ? nullptr : cond->front();
    if (!verdict || verdict->bytes < 1 || !verdict->data)
      return Status::Error("the cond subgraph gives no boolean");
    if (verdict->data[0] == 0) break;
    if (static_cast<uint64_t>(iterations) >= max_loop_iterations_) {
      return Status::Error(NodeName(s, step.node) + ": the loop ran " + std::to_string(iterations) +
                           " iterations and its condition is still true; stopped at "
                           "--max-loop-iterations (upstream would loop on: give inputs that end "
                           "the loop, or raise the limit)");
    }
    auto body = CallSubgraph(node.options->body_subgraph, values);
    if (!body.ok()) return body.status();
    if (body->size() < n) {
      return Status::Error(NodeName(s, step.node) + ": the body gives " +
                           std::to_string(body->size()) + " outputs for " + std::to_string(n) +
                           " loop values");
    }
    for (size_t i = 0; i < n; ++i) {
      const RuntimeTensor* out = (*body)[i];
      if (!out) continue;
      if (out->bytes > 0 && !out->data)
        return Status::Error("body output " + std::to_string(i) + " has no buffer");
      // The next state, whatever its shape.
      bytes[i].assign(out->data, out->data + out->bytes);
      state[i].shape = out->shape;
      state[i].bytes = out->bytes;
      state[i].data = bytes[i].data();
    }
    ++iterations;
  }
  for (size_t i = 0; i < n; ++i) {
    if (RuntimeTensor* out = step.context.outputs[i]) {
      if (out->shape != state[i].shape)
        TFA_RETURN_IF_ERROR(ResizeOutput(s, node.outputs[i], state[i].shape));
      TFA_RETURN_IF_ERROR(
          CopyIntoTensor(s, node.outputs[i], state[i], "output " + std::to_string(i)));
    }
  }
  stats_.facts.while_iterations[{s.index, step.node}] = iterations;
  return Status::Ok();
}

// tflite/kernels/if.cc: input 0 chooses the branch, the other inputs are its inputs, its outputs
// are the node's.
Status Interpreter::EvalIf(SubgraphState& s, Step& step) {
  const Node& node = *step.context.node;
  const RuntimeTensor* condition = step.context.inputs[0];
  if (!condition || condition->bytes < 1 || !condition->data)
    return Status::Error("IF has no condition value");
  const bool taken = condition->data[0] != 0;
  const std::vector<const RuntimeTensor*> values(step.context.inputs.begin() + 1,
                                                 step.context.inputs.end());
  auto outputs =
      CallSubgraph(taken ? node.options->then_subgraph : node.options->else_subgraph, values);
  if (!outputs.ok()) return outputs.status();
  TFA_RETURN_IF_ERROR(CopyCalleeOutputs(s, step, *outputs));
  stats_.facts.if_conditions[{s.index, step.node}] = taken;
  return Status::Ok();
}

Status Interpreter::CopyCalleeOutputs(SubgraphState& s, Step& step,
                                      const std::vector<const RuntimeTensor*>& values) {
  const Node& node = *step.context.node;
  for (size_t i = 0; i < step.context.outputs.size(); ++i) {
    RuntimeTensor* out = step.context.outputs[i];
    if (!out) continue;
    const RuntimeTensor* value = i < values.size() ? values[i] : nullptr;
    if (!value) return Status::Error("subgraph output " + std::to_string(i) + " is absent");
    if (out->shape != value->shape)
      TFA_RETURN_IF_ERROR(ResizeOutput(s, node.outputs[i], value->shape));
    TFA_RETURN_IF_ERROR(CopyIntoTensor(s, node.outputs[i], *value, "output " + std::to_string(i)));
  }
  return Status::Ok();
}

Status Interpreter::CopyIntoTensor(SubgraphState& s, int32_t t, const RuntimeTensor& from,
                                   const std::string& what) {
  const auto i = static_cast<size_t>(t);
  RuntimeTensor& to = s.tensors[i];
  if (to.type == TensorType::kString && !to.is_constant && to.bytes != from.bytes) {
    Buffer& own = s.own_buffers[i];
    if (s.own_capacity[i] < from.bytes) {
      TFA_RETURN_IF_ERROR(CheckMemoryLimit(stats_.scratch_bytes).WithContext(what));
      own = AllocateBuffer(from.bytes);
      if (!own)
        return Status::Error(what + ": cannot allocate " + std::to_string(from.bytes) + " bytes");
      stats_.dynamic_bytes += from.bytes - s.own_capacity[i];
      s.own_capacity[i] = from.bytes;
    }
    to.bytes = from.bytes;
    to.data = from.bytes > 0 ? own.get() : nullptr;
  }
  return CopyTensor(from, to, what);
}

Status Interpreter::ResizeOutput(SubgraphState& s, int32_t t, const std::vector<int32_t>& shape) {
  if (!s.own_buffers[static_cast<size_t>(t)] && !own_buffers_ &&
      s.graph.tensors[static_cast<size_t>(t)].allocation != AllocationType::kDynamic) {
    return Status::Error("output tensor " + std::to_string(t) +
                         " changes shape at run time, but the plan placed it in the arena "
                         "(upstream makes such an output dynamic)");
  }
  TFA_RETURN_IF_ERROR(ResizeTensor(s, t, shape));
  s.outputs_resized = true;
  return Status::Ok();
}

}  // namespace tfa::runtime
