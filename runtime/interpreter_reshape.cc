// Shapes that change at run time: the nodes after a dynamic one, and a subgraph whose inputs
// changed, get their output shapes from libanalysis's shape rules and the arena is planned again.

#include <algorithm>
#include <cstring>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/core/checked_math.h"
#include "libanalysis/prepare/shape_inference.h"
#include "runtime/arena_watermark.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/cpu/eval_output_shapes.h"

namespace tfa::runtime {

namespace {

template <typename T>
std::vector<int64_t> Widened(const RuntimeTensor& r) {
  const T* data = r.Data<const T>();
  return std::vector<int64_t>(data, data + r.NumElements());
}

// The values of an integer or bool tensor that holds data, for the shape rules (WHERE counts a
// bool condition's true elements); nullopt otherwise.
std::optional<std::vector<int64_t>> IntValues(const RuntimeTensor& r) {
  if (!r.data) return std::nullopt;
  switch (r.type) {
    case TensorType::kInt32:
      return Widened<int32_t>(r);
    case TensorType::kInt64:
      return Widened<int64_t>(r);
    case TensorType::kBool:
      return Widened<bool>(r);
    case TensorType::kInt8:
      return Widened<int8_t>(r);
    case TensorType::kUInt8:
      return Widened<uint8_t>(r);
    case TensorType::kInt16:
      return Widened<int16_t>(r);
    case TensorType::kUInt32:
      return Widened<uint32_t>(r);
    default:
      return std::nullopt;
  }
}

}  // namespace

// A kernel whose outputs upstream makes dynamic (STRIDED_SLICE with an end computed at Eval,
// RESHAPE to a computed shape, ...) sizes them in its Eval, from its inputs' values, all computed
// by now: the outputs take the shapes its shape rule gives, in buffers of their own, and the
// kernel prepares on them.
Status Interpreter::PrepareDynamicStep(SubgraphState& s, Step& step) {
  const Node& node = *step.context.node;
  const IntValuesOf values = [&](int32_t t) {
    return IntValues(s.tensors[static_cast<size_t>(t)]);
  };
  const EvalOutputShapes kernel_shapes = FindEvalOutputShapes(node.op);
  auto shapes =
      kernel_shapes ? kernel_shapes(step.context) : InferOutputShapes(s.graph, node, values);
  if (!shapes.ok()) return shapes.status().WithContext(NodeName(s, step.node));
  for (size_t o = 0; o < node.outputs.size() && o < shapes->size(); ++o) {
    const int32_t t = node.outputs[o];
    if (t < 0 || s.tensors[static_cast<size_t>(t)].shape == (*shapes)[o]) continue;
    TFA_RETURN_IF_ERROR(ResizeOutput(s, t, (*shapes)[o]).WithContext(NodeName(s, step.node)));
  }
  TFA_RETURN_IF_ERROR(PrepareStep(s, step));
  return EnsureScratch(step.context.scratch_bytes);
}

// Upstream's PrepareOpsAndTensors from plan position `first`: each node's Prepare computes its
// outputs' shapes from its inputs' (libanalysis's shape inference), up to the next node with
// dynamic outputs, whose shapes are known once it ran; then the arena is planned again.
Status Interpreter::Reshape(SubgraphState& s, size_t first) {
  std::vector<bool> computed_later(s.tensors.size(), false);
  for (size_t p = first; p < s.steps.size(); ++p) {
    for (int32_t t : s.steps[p].context.node->outputs) {
      if (t >= 0) computed_later[static_cast<size_t>(t)] = true;
    }
  }
  // Prepare reads only the values of constants and of what a kernel computed in its Prepare
  // (upstream's IsConstantOrPersistentTensor): an arena tensor's values, even one an earlier step
  // computed already, make the output dynamic (reshape.cc, where.cc, ... SetTensorToDynamic), so
  // the output leaves the arena as upstream's does.
  const IntValuesOf values = [&](int32_t t) -> std::optional<std::vector<int64_t>> {
    if (computed_later[static_cast<size_t>(t)] ||
        s.graph.tensors[static_cast<size_t>(t)].allocation != AllocationType::kPersistentRo)
      return std::nullopt;
    return IntValues(s.tensors[static_cast<size_t>(t)]);
  };
  size_t end = s.steps.size();
  for (size_t p = first; p < s.steps.size(); ++p) {
    const Step& step = s.steps[p];
    if (step.made_at_prepare) continue;
    const Node& node = *step.context.node;
    if (step.kind == StepKind::kControlFlow) {
      const bool dynamic = std::any_of(node.outputs.begin(), node.outputs.end(), [&](int32_t t) {
        return t >= 0 &&
               s.graph.tensors[static_cast<size_t>(t)].allocation == AllocationType::kDynamic;
      });
      if (dynamic) {
        end = p + 1;
        break;
      }
      continue;
    }
    std::vector<const Node*> nodes = {&node};
    if (step.kind == StepKind::kDelegate) {
      nodes.clear();
      for (int32_t n : node.replaces) nodes.push_back(&s.graph.nodes[static_cast<size_t>(n)]);
    }
    bool dynamic = false;
    for (const Node* n : nodes) {
      auto inferred = InferOutputShapesOrDynamic(s.graph, *n, values);
      if (!inferred.ok()) return inferred.status().WithContext(NodeName(s, step.node));
      if (inferred->dynamic && step.kind != StepKind::kCpu) {
        return Status::Error(NodeName(s, step.node) +
                             ": a delegated node's output shape depends on values known only at "
                             "run time (not supported)");
      }
      const std::vector<Shape>* shapes = &inferred->shapes;
      for (size_t o = 0; o < n->outputs.size() && o < shapes->size(); ++o) {
        const int32_t t = n->outputs[o];
        if (t < 0 || inferred->IsDynamicOutput(o) ||
            s.tensors[static_cast<size_t>(t)].shape == (*shapes)[o])
          continue;
        if (!n->temporaries.empty()) {
          return Status::Error(NodeName(s, step.node) +
                               ": its output changes shape, and its kernel's temporaries are "
                               "sized for the old one (not supported)");
        }
        TFA_RETURN_IF_ERROR(ResizeTensor(s, t, (*shapes)[o]));
      }
      if (inferred->dynamic) {
        // Its Prepare makes these outputs dynamic (SetTensorToDynamic): they leave the arena and
        // get their shapes at Eval (PrepareDynamicStep); preparing stops here. The outputs it
        // still sizes (NON_MAX_SUPPRESSION's count) stay in the arena.
        for (size_t o = 0; o < n->outputs.size(); ++o) {
          const int32_t t = n->outputs[o];
          if (t >= 0 && inferred->IsDynamicOutput(o))
            s.graph.tensors[static_cast<size_t>(t)].allocation = AllocationType::kDynamic;
        }
        dynamic = true;
        break;
      }
    }
    if (dynamic) {
      s.dynamic_stop = static_cast<int32_t>(p);
      end = p;
      break;
    }
  }
  if (!own_buffers_) TFA_RETURN_IF_ERROR(Replan(s, first));
  uint64_t scratch = stats_.scratch_bytes;
  for (size_t p = first; p < end; ++p) {
    Step& step = s.steps[p];
    if (step.made_at_prepare) continue;
    TFA_RETURN_IF_ERROR(PrepareStep(s, step));
    scratch = std::max(scratch, step.context.scratch_bytes);
  }
  return EnsureScratch(scratch);
}

// ArenaPlanner on the current shapes. The buffers only grow and keep their bytes (as
// SimpleMemoryArena::Commit); a tensor made before `first` that is still needed and that the new
// plan moved is copied to its new place (upstream keeps such tensors where they are: the
// analyser's replay notes when its re-plan moved one, control_flow_invoke.h).
Status Interpreter::Replan(SubgraphState& s, size_t first) {
  const std::string where = SubgraphName(s.index);
  auto planned = PlanArena(s.graph, arena_options_);
  if (!planned.ok()) return planned.status().WithContext(where);
  TFA_RETURN_IF_ERROR(CheckArenaPlanDisjoint(*planned).WithContext(where));
  const ArenaPlan old = std::move(s.plan);
  s.plan = std::move(planned).value();
  TFA_RETURN_IF_ERROR(CheckMemoryLimit(stats_.scratch_bytes).WithContext(where));
  const Buffer old_arena = std::move(s.arena);
  const Buffer old_persistent = std::move(s.persistent_arena);
  const uint64_t old_capacity = s.arena_capacity;
  const uint64_t old_persistent_capacity = s.persistent_capacity;
  s.arena_capacity = std::max(old_capacity, s.plan.arena_size);
  s.persistent_capacity = std::max(old_persistent_capacity, s.plan.persistent_arena_size);
  s.arena = AllocateBuffer(s.arena_capacity);
  s.persistent_arena = AllocateBuffer(s.persistent_capacity);
  if (!s.arena || !s.persistent_arena) return Status::Error(where + ": cannot allocate the arena");
  FillUnwritten({s.arena.get(), s.arena_capacity});
  FillUnwritten({s.persistent_arena.get(), s.persistent_capacity});
  std::memcpy(s.arena.get(), old_arena.get(), old_capacity);
  std::memcpy(s.persistent_arena.get(), old_persistent.get(), old_persistent_capacity);
  SubgraphRunStats& stats = stats_.subgraphs[static_cast<size_t>(s.index)];
  const auto before = static_cast<int32_t>(first);
  for (size_t t = 0; t < s.tensors.size(); ++t) {
    RuntimeTensor& r = s.tensors[t];
    if (r.is_constant || s.own_buffers[t]) continue;
    const TensorPlacement& now = s.plan.tensors[t];
    if (now.arena == ArenaKind::kNone) {
      r.data = nullptr;
      continue;
    }
    const bool rw = now.arena == ArenaKind::kRw;
    const auto end = CheckedAdd(now.offset, r.bytes);
    if (!end || *end > (rw ? s.arena_capacity : s.persistent_capacity))
      return Status::Error(where + ": tensor " + std::to_string(t) + " ends past its arena");
    r.data = (rw ? s.arena.get() : s.persistent_arena.get()) + now.offset;
    uint64_t& committed = rw ? stats.arena_bytes : stats.persistent_arena_bytes;
    committed = std::max(committed, *end);
    if (t >= old.tensors.size()) continue;
    const TensorPlacement& was = old.tensors[t];
    const bool live =
        now.first_step < before && (now.last_step == kUnassignedStep || now.last_step >= before);
    if (!live || was.arena == ArenaKind::kNone ||
        (was.arena == now.arena && was.offset == now.offset))
      continue;
    const uint8_t* from =
        (was.arena == ArenaKind::kRw ? old_arena.get() : old_persistent.get()) + was.offset;
    std::memcpy(r.data, from, std::min(was.size, r.bytes));
  }
  if (s.guard) WatchArenas(s);
  return Status::Ok();
}

// The shapes that differ from the model's at the end of the run: InvokeFacts::run_shapes.
void Interpreter::RecordRunShapes() {
  for (const SubgraphState& s : subgraphs_) {
    if (!s.runnable) continue;
    for (size_t t = 0; t < s.model_shapes.size() && t < s.graph.tensors.size(); ++t) {
      const Tensor& tensor = s.graph.tensors[t];
      // Tensors made after the planning stop are facts even when unchanged: the replay plans the
      // rest of the subgraph (and what its CALL_ONCE runs) only from them.
      const bool made_after_stop = t < s.made_after_stop.size() && s.made_after_stop[t];
      if (tensor.is_constant() || (tensor.shape == s.model_shapes[t] && !made_after_stop)) continue;
      stats_.facts.run_shapes[s.index][static_cast<int32_t>(t)] =
          std::vector<int32_t>(tensor.shape);
    }
  }
}

}  // namespace tfa::runtime
