// The interpreter's Invoke: the entry subgraph node by node, and what each run measures (bytes
// written, copies across delegate boundaries, node times).

#include <algorithm>
#include <chrono>
#include <cstring>
#include <sstream>

#include "runtime/arena_watermark.h"
#include "runtime/interpreter.h"

namespace tfa::runtime {

namespace {

// "2.5 s": a limit as the user gave it.
std::string FormatSeconds(double seconds) {
  std::ostringstream out;
  out << seconds << " s";
  return out.str();
}

}  // namespace

void Interpreter::CountCopies(const SubgraphState& s, const Step& step, CopyStats& copies,
                              bool at_prepare) const {
  if (!step.copies_at_boundary) return;
  const Node& node = s.graph.nodes[static_cast<size_t>(step.node)];
  for (int32_t t : node.inputs) {
    if (t < 0) continue;
    const Tensor& tensor = s.graph.tensors[static_cast<size_t>(t)];
    if (IsMadeOnce(tensor) != at_prepare) continue;
    (at_prepare ? copies.init_upload_bytes : copies.bytes_to_delegate) += tensor.bytes_or_zero();
  }
  if (at_prepare) return;
  for (int32_t t : node.outputs) {
    if (t >= 0)
      copies.bytes_from_delegate += s.graph.tensors[static_cast<size_t>(t)].bytes_or_zero();
  }
}

Status Interpreter::Invoke() {
  copies_ = CopyStats();
  copies_.init_upload_bytes = stats_.copies.init_upload_bytes;
  timings_.clear();
  timings_.reserve(entry().steps.size());
  stats_.facts = InvokeFacts();
  for (SubgraphRunStats& s : stats_.subgraphs) s.runs = 0;
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(time_limit_seconds_));
  TFA_RETURN_IF_ERROR(RunSubgraph(entry_));
  for (const SubgraphState& s : subgraphs_) {
    if (!s.runnable || own_buffers_) continue;
    SubgraphRunStats& stats = stats_.subgraphs[static_cast<size_t>(s.index)];
    stats.arena_bytes_written =
        std::max(stats.arena_bytes_written,
                 WrittenExtent({s.arena.get(), s.arena_capacity}, s.tensors_written_end));
    stats.persistent_bytes_written =
        std::max(stats.persistent_bytes_written,
                 WrittenExtent({s.persistent_arena.get(), s.persistent_capacity},
                               s.persistent_tensors_written_end));
  }
  RecordRunShapes();
  const SubgraphRunStats& entry_stats = stats_.subgraphs[static_cast<size_t>(entry_)];
  stats_.arena_bytes = entry_stats.arena_bytes;
  stats_.persistent_arena_bytes = entry_stats.persistent_arena_bytes;
  stats_.arena_bytes_written = entry_stats.arena_bytes_written;
  stats_.persistent_bytes_written = entry_stats.persistent_bytes_written;
  stats_.copies = copies_;
  stats_.timings = std::move(timings_);
  ++stats_.invocations;
  return Status::Ok();
}

void Interpreter::MarkWritten(SubgraphState& s, int32_t t) {
  if (t < 0 || static_cast<size_t>(t) >= s.plan.tensors.size() ||
      s.own_buffers[static_cast<size_t>(t)])
    return;
  const TensorPlacement& placed = s.plan.tensors[static_cast<size_t>(t)];
  if (placed.arena == ArenaKind::kNone) return;
  uint64_t& end =
      placed.arena == ArenaKind::kRw ? s.tensors_written_end : s.persistent_tensors_written_end;
  end = std::max(end, placed.offset + s.tensors[static_cast<size_t>(t)].bytes);
}

Status Interpreter::RunSubgraph(int32_t index) {
  SubgraphState& s = subgraphs_[static_cast<size_t>(index)];
  if (!s.runnable) return Status::Error(SubgraphName(index) + " " + s.not_runnable_reason);
  if (s.running) {
    return Status::Error(SubgraphName(index) + " is called while it runs (recursive control flow)");
  }
  s.running = true;
  ++stats_.subgraphs[static_cast<size_t>(index)].runs;
  const bool is_entry = index == entry_;
  bool previous_on_cpu = true;
  std::string previous_delegate;
  Status status;
  bool reshape = false;  // the step before was a dynamic node
  s.dynamic_stop = s.planning_stops_at;
  for (int32_t t : s.graph.inputs) MarkWritten(s, t);  // by the caller, or the calling node
  for (size_t position = 0; position < s.steps.size(); ++position) {
    Step& step = s.steps[position];
    if (reshape) {
      status = Reshape(s, position);
      if (!status.ok()) break;
    }
    reshape = s.dynamic_stop && static_cast<int32_t>(position) == *s.dynamic_stop;
    if (step.made_at_prepare) continue;
    if (reshape && step.kind == StepKind::kCpu) {
      status = PrepareDynamicStep(s, step);
      if (!status.ok()) break;
    }
    const Node& node = *step.context.node;
    if (time_limit_seconds_ > 0 && std::chrono::steady_clock::now() > deadline_) {
      status =
          Status::Error(NodeName(s, step.node) + ": the Invoke ran past its time limit of " +
                        FormatSeconds(time_limit_seconds_) + " (--time-limit) before this node");
      break;
    }
    const bool on_cpu = step.kind != StepKind::kDelegate;
    if (is_entry) {
      if (on_cpu != previous_on_cpu || (!on_cpu && node.op != previous_delegate))
        ++copies_.transitions;
      previous_on_cpu = on_cpu;
      previous_delegate = on_cpu ? std::string() : node.op;
    }
    if (poison_outputs_) {
      for (RuntimeTensor* out : step.context.outputs) {
        if (!out || !out->data) continue;
        // An output sharing an input's buffer in place must keep the input's bytes.
        const bool in_place =
            std::any_of(step.context.inputs.begin(), step.context.inputs.end(),
                        [&](const RuntimeTensor* in) { return in && in->data == out->data; });
        if (!in_place) std::memset(out->data, 0xff, out->bytes);
      }
    }
    const bool guarded = s.guard != nullptr;
    if (guarded) s.guard->Snapshot();
    const auto start = std::chrono::steady_clock::now();
    switch (step.kind) {
      case StepKind::kCpu:
        status = step.kernel->eval(step.context);
        break;
      case StepKind::kDelegate:
        status = step.delegate->Eval(step.context);
        break;
      case StepKind::kControlFlow:
        status = EvalControlFlow(s, step);
        break;
    }
    const auto end = std::chrono::steady_clock::now();
    if (!status.ok()) {
      status = status.WithContext(NodeName(s, step.node));
      break;
    }
    for (int32_t t : node.outputs) MarkWritten(s, t);
    reshape |= s.outputs_resized;
    s.outputs_resized = false;
    if (guarded) {
      status = CheckWrites(s, step);
      if (!status.ok()) break;
    }
    if (!is_entry) continue;
    if (!on_cpu) CountCopies(s, step, copies_, false);
    timings_.push_back(
        {step.node, node.op, std::chrono::duration<double, std::micro>(end - start).count()});
  }
  if (is_entry && !previous_on_cpu) ++copies_.transitions;  // outputs go back to the application
  s.running = false;
  return status;
}

}  // namespace tfa::runtime
