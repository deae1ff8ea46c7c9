#include "runtime/interpreter.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <queue>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/model_loader.h"
#include "runtime/kernels/cpu/cpu_kernels.h"
#include "runtime/kernels/cpu/kernel_thread_pool.h"

namespace tfa::runtime {
namespace {

constexpr uint64_t kBufferAlignment = 64;
constexpr uint64_t kHugePageBytes = uint64_t{2} << 20;

std::string NodeName(const Subgraph& graph, int32_t node) {
  return "subgraph 0: node " + std::to_string(node) + " (" +
         graph.nodes[static_cast<size_t>(node)].op + ")";
}

}  // namespace

void Interpreter::AlignedFree::operator()(uint8_t* p) const { std::free(p); }

Status CheckArenaPlanDisjoint(const ArenaPlan& plan) {
  for (const auto* blocks : {&plan.rw_blocks, &plan.persistent_blocks}) {
    std::vector<const ArenaBlock*> order;
    for (const ArenaBlock& block : *blocks) {
      if (block.size > 0) order.push_back(&block);
    }
    std::stable_sort(order.begin(), order.end(), [](const ArenaBlock* a, const ArenaBlock* b) {
      return a->first_step < b->first_step;
    });
    // Live blocks by offset. They are disjoint, so a new block overlaps one of them iff it
    // overlaps its neighbour below or above in offset order.
    std::map<uint64_t, const ArenaBlock*> live;
    using Expiry = std::pair<int32_t, uint64_t>;  // last step, offset
    std::priority_queue<Expiry, std::vector<Expiry>, std::greater<>> expiries;
    for (const ArenaBlock* block : order) {
      while (!expiries.empty() && expiries.top().first < block->first_step) {
        live.erase(expiries.top().second);
        expiries.pop();
      }
      const ArenaBlock* clash = nullptr;
      const auto above = live.lower_bound(block->offset);
      if (above != live.end() && above->second->offset - block->offset < block->size)
        clash = above->second;
      if (!clash && above != live.begin()) {
        const ArenaBlock* below = std::prev(above)->second;
        if (block->offset - below->offset < below->size) clash = below;
      }
      if (clash && clash->tensor == block->tensor) continue;  // one tensor listed twice
      if (clash) {
        return Status::Error("arena plan places tensors " + std::to_string(clash->tensor) +
                             " and " + std::to_string(block->tensor) +
                             " in overlapping bytes while both are live");
      }
      live.emplace(block->offset, block);
      expiries.emplace(block->last_step, block->offset);
    }
  }
  return Status::Ok();
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
  TFA_RETURN_IF_ERROR(CheckDelegatesMatchPlan(plan, options.delegates).WithContext(model_path));
  const SubgraphPlan& main = plan.subgraphs[0];
  if (!main.memory || !main.memory->planned) {
    return Status::Error(model_path + ": subgraph 0 has no arena plan to run on");
  }
  std::unique_ptr<Interpreter> interpreter(new Interpreter());
  auto data = ModelData::Open(model_path);
  if (!data.ok()) return data.status();
  interpreter->model_data_ = std::move(*data);
  // The plan's subgraph 0 as AllocateTensors leaves it: delegate kernels in, the kernels' Prepare
  // memory effects (temporaries, constant DEQUANTIZE outputs moved to the persistent arena)
  // applied, and its arena plan; the runtime executes it as planned.
  interpreter->graph_ = main.memory->prepared;
  interpreter->plan_ = main.memory->plan;
  interpreter->prepare_assumptions_ = main.memory->assumptions;
  interpreter->poison_outputs_ = options.poison_outputs;
  interpreter->memory_limit_bytes_ = options.memory_limit_bytes;
  TFA_RETURN_IF_ERROR(CheckArenaPlanDisjoint(interpreter->plan_).WithContext(model_path));
  TFA_RETURN_IF_ERROR(interpreter->CheckMemoryLimit(0).WithContext(model_path));
  TFA_RETURN_IF_ERROR(interpreter->AllocateTensors().WithContext(model_path));
  if (options.threads > 1)
    interpreter->thread_pool_ = std::make_unique<KernelThreadPool>(options.threads);
  TFA_RETURN_IF_ERROR(interpreter->PrepareSteps(options).WithContext(model_path));
  if (options.guard_writes) {
    Interpreter& i = *interpreter;
    i.write_guard_ = std::make_unique<WriteGuard>(std::vector<std::span<const uint8_t>>{
        {i.arena_.get(), i.plan_.arena_size},
        {i.persistent_arena_.get(), i.plan_.persistent_arena_size}});
  }
  return interpreter;
}

// The delegates that run the plan's delegate kernels must be the plan's, in its order: a kernel
// node is matched to its delegate by name.
Status CheckDelegatesMatchPlan(const ModelPlan& plan, const std::vector<Delegate*>& delegates) {
  if (delegates.size() != plan.delegates.size()) {
    return Status::Error("the plan applies " + std::to_string(plan.delegates.size()) +
                         " delegates, the run has " + std::to_string(delegates.size()));
  }
  for (size_t i = 0; i < delegates.size(); ++i) {
    if (delegates[i]->Name() != plan.delegates[i].name) {
      return Status::Error("delegate " + std::to_string(i) + " is " + delegates[i]->Name() +
                           " but the plan applied " + plan.delegates[i].name);
    }
    for (size_t j = 0; j < i; ++j) {
      if (delegates[j]->Name() == delegates[i]->Name()) {
        return Status::Error("two delegates are named " + delegates[i]->Name() +
                             ": their kernels could not be told apart");
      }
    }
  }
  return Status::Ok();
}

// Checked before anything is allocated, so a hostile model cannot make the runtime commit
// gigabytes; `scratch_bytes` is known only once the kernels' Prepare ran.
Status Interpreter::CheckMemoryLimit(uint64_t scratch_bytes) const {
  uint64_t dynamic = 0;
  for (const Tensor& t : graph_.tensors) {
    if (t.allocation == AllocationType::kDynamic && !t.is_constant())
      dynamic = CheckedAdd(dynamic, t.bytes_or_zero()).value_or(UINT64_MAX);
  }
  uint64_t total = CheckedAdd(plan_.arena_size, plan_.persistent_arena_size).value_or(UINT64_MAX);
  total = CheckedAdd(total, dynamic).value_or(UINT64_MAX);
  total = CheckedAdd(total, scratch_bytes).value_or(UINT64_MAX);
  if (total <= memory_limit_bytes_) return Status::Ok();
  return Status::Error("the run needs " + std::to_string(total) + " bytes (arena " +
                       std::to_string(plan_.arena_size) + ", persistent " +
                       std::to_string(plan_.persistent_arena_size) + ", dynamic " +
                       std::to_string(dynamic) + ", kernel scratch " +
                       std::to_string(scratch_bytes) + "), above the memory limit of " +
                       std::to_string(memory_limit_bytes_) + " bytes");
}

Status Interpreter::AllocateTensors() {
  // Buffers of a megabyte or more are 2 MiB-aligned and marked for transparent huge pages: their
  // first touch then faults once per 2 MiB instead of once per 4 KiB, which was most of the time
  // before Invoke on a virtual machine (16 MiB: 150 ms of page faults, 2 to 10 ms with them).
  auto allocate = [](uint64_t bytes) -> Buffer {
    const uint64_t alignment = bytes >= kHugePageBytes / 2 ? kHugePageBytes : kBufferAlignment;
    const uint64_t rounded = CheckedAlignUp(std::max<uint64_t>(bytes, 1), alignment).value_or(0);
    if (rounded == 0) return Buffer();
    Buffer buffer(static_cast<uint8_t*>(std::aligned_alloc(alignment, rounded)));
    // Only a hint: without huge pages the buffer works the same.
    if (buffer && alignment == kHugePageBytes) madvise(buffer.get(), rounded, MADV_HUGEPAGE);
    return buffer;
  };
  arena_ = allocate(plan_.arena_size);
  persistent_arena_ = allocate(plan_.persistent_arena_size);
  if (!arena_ || !persistent_arena_) return Status::Error("cannot allocate the arena");
  // Everything starts as NaN bytes: a read of a tensor nobody wrote shows in the outputs.
  std::memset(arena_.get(), 0xff, plan_.arena_size);
  std::memset(persistent_arena_.get(), 0xff, plan_.persistent_arena_size);

  tensors_.resize(graph_.tensors.size());
  for (size_t i = 0; i < graph_.tensors.size(); ++i) {
    const Tensor& t = graph_.tensors[i];
    RuntimeTensor& r = tensors_[i];
    r.type = t.type;
    r.shape = t.shape;
    r.bytes = t.bytes_or_zero();
    r.quantization = &t.quantization;
    r.is_constant = t.is_constant();
    const auto index = static_cast<int32_t>(i);
    if (t.is_constant()) {
      const auto bytes = model_data_->TensorData(0, index);
      r.data = const_cast<uint8_t*>(bytes.data());  // kernels never write their inputs
      r.bytes = bytes.size();
      r.sparsity = model_data_->TensorSparsity(0, index);
      continue;
    }
    if (t.allocation == AllocationType::kDynamic) {
      if (!t.bytes)
        return Status::Error("tensor " + std::to_string(i) + " has a size only known at run time");
      dynamic_buffers_.push_back(allocate(*t.bytes));
      r.data = dynamic_buffers_.back().get();
      stats_.dynamic_bytes += *t.bytes;
      continue;
    }
    const TensorPlacement& p = plan_.tensors[i];
    if (p.arena == ArenaKind::kNone)
      continue;  // never used, zero bytes, or no buffer upstream either
    const uint64_t arena_size =
        p.arena == ArenaKind::kRw ? plan_.arena_size : plan_.persistent_arena_size;
    const auto end = CheckedAdd(p.offset, r.bytes);
    if (!end || *end > arena_size) {
      return Status::Error("tensor " + std::to_string(i) + " ends past its arena");
    }
    uint8_t* base = p.arena == ArenaKind::kRw ? arena_.get() : persistent_arena_.get();
    r.data = base + p.offset;
    uint64_t& committed =
        p.arena == ArenaKind::kRw ? stats_.arena_bytes : stats_.persistent_arena_bytes;
    committed = std::max(committed, *end);
  }
  return Status::Ok();
}

Status Interpreter::PrepareSteps(const InterpreterOptions& options) {
  uint64_t scratch = 0;
  for (int32_t index : graph_.execution_plan) {
    const Node& node = graph_.nodes[static_cast<size_t>(index)];
    Step step;
    step.node = index;
    step.context.node = &node;
    step.context.node_data = &model_data_->Node(0, index);
    step.context.thread_pool = thread_pool_.get();
    for (int32_t t : node.inputs)
      step.context.inputs.push_back(t < 0 ? nullptr : &tensors_[static_cast<size_t>(t)]);
    for (int32_t t : node.outputs)
      step.context.outputs.push_back(t < 0 ? nullptr : &tensors_[static_cast<size_t>(t)]);
    for (int32_t t : node.outputs) {
      if (t >= 0 && !tensors_[static_cast<size_t>(t)].data &&
          tensors_[static_cast<size_t>(t)].bytes > 0) {
        return Status::Error(NodeName(graph_, index) + ": output tensor " + std::to_string(t) +
                             " has no buffer");
      }
    }
    Status prepared;
    if (node.kind == NodeKind::kDelegateKernel) {
      Delegate* owner = nullptr;
      for (Delegate* d : options.delegates) {
        if (d->Name() == node.op) owner = d;
      }
      if (!owner) return Status::Error(NodeName(graph_, index) + ": no delegate of that name");
      DelegatePartition partition{
          &graph_, node.replaces, node.inputs, node.outputs, &tensors_, model_data_.get(), 0};
      auto kernel = owner->CreateKernel(partition);
      if (!kernel.ok()) return kernel.status().WithContext(NodeName(graph_, index));
      step.delegate = std::move(*kernel);
      prepared = step.delegate->Prepare(step.context);
      CountCopies(step, stats_.copies, true);
    } else {
      step.kernel = FindCpuKernel(node.op);
      if (!step.kernel)
        return Status::Error(NodeName(graph_, index) + ": the runtime has no kernel for this op");
      prepared = step.kernel->prepare(step.context);
    }
    TFA_RETURN_IF_ERROR(prepared.WithContext(NodeName(graph_, index)));
    scratch = std::max(scratch, step.context.scratch_bytes);
    steps_.push_back(std::move(step));
  }
  TFA_RETURN_IF_ERROR(CheckMemoryLimit(scratch));
  if (scratch > 0) {
    const uint64_t rounded = CheckedAlignUp(scratch, kBufferAlignment).value_or(0);
    if (rounded == 0) return Status::Error("kernel scratch size overflows");
    scratch_.reset(static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, rounded)));
    if (!scratch_)
      return Status::Error("cannot allocate " + std::to_string(scratch) + " scratch bytes");
  }
  stats_.scratch_bytes = scratch;
  for (Step& step : steps_) step.context.scratch = scratch_.get();
  return Status::Ok();
}

void Interpreter::CountCopies(const Step& step, CopyStats& copies, bool at_prepare) const {
  const Node& node = graph_.nodes[static_cast<size_t>(step.node)];
  for (int32_t t : node.inputs) {
    if (t < 0) continue;
    const Tensor& tensor = graph_.tensors[static_cast<size_t>(t)];
    if (IsMadeOnce(tensor) != at_prepare) continue;
    (at_prepare ? copies.init_upload_bytes : copies.bytes_to_delegate) += tensor.bytes_or_zero();
  }
  if (at_prepare) return;
  for (int32_t t : node.outputs) {
    if (t >= 0)
      copies.bytes_from_delegate += graph_.tensors[static_cast<size_t>(t)].bytes_or_zero();
  }
}

Status Interpreter::CheckWrites(const Step& step) const {
  const Node& node = *step.context.node;
  auto range_of = [&](int32_t t) -> std::optional<GuardedRange> {
    const TensorPlacement& p = plan_.tensors[static_cast<size_t>(t)];
    if (p.arena == ArenaKind::kNone) return std::nullopt;
    const uint64_t bytes = tensors_[static_cast<size_t>(t)].bytes;
    return GuardedRange{p.arena == ArenaKind::kRw ? 0u : 1u, p.offset, p.offset + bytes};
  };
  std::vector<GuardedRange> allowed;
  for (const auto* list : {&node.outputs, &node.temporaries}) {
    for (int32_t t : *list) {
      if (t < 0) continue;
      if (auto range = range_of(t)) allowed.push_back(*range);
    }
  }
  // Stateful kernels update their variable inputs in place.
  for (int32_t t : node.inputs) {
    if (t < 0 || !graph_.tensors[static_cast<size_t>(t)].is_variable) continue;
    if (auto range = range_of(t)) allowed.push_back(*range);
  }
  const std::optional<GuardedRange> write = write_guard_->FirstWriteOutside(std::move(allowed));
  if (!write) return Status::Ok();
  // Name a tensor live at this step that holds the first changed byte.
  const int32_t position = static_cast<int32_t>(&step - steps_.data());
  std::string victim = "bytes no live tensor holds";
  for (const ArenaBlock& block : write->buffer == 0 ? plan_.rw_blocks : plan_.persistent_blocks) {
    if (block.first_step <= position && position <= block.last_step &&
        block.offset <= write->begin && write->begin - block.offset < block.size) {
      victim = "tensor " + std::to_string(block.tensor) + " '" +
               graph_.tensors[static_cast<size_t>(block.tensor)].name + "'";
      break;
    }
  }
  return Status::Error(NodeName(graph_, step.node) + ": guard check: wrote " +
                       (write->buffer == 0 ? "arena" : "persistent arena") + " bytes [" +
                       std::to_string(write->begin) + ", " + std::to_string(write->end) +
                       ") outside its outputs and temporaries, into " + victim);
}

Status Interpreter::Invoke() {
  CopyStats copies;
  copies.init_upload_bytes = stats_.copies.init_upload_bytes;
  std::vector<NodeTiming> timings;
  timings.reserve(steps_.size());
  bool previous_on_cpu = true;
  std::string previous_delegate;
  for (Step& step : steps_) {
    const Node& node = *step.context.node;
    const bool on_cpu = !step.delegate;
    if (on_cpu != previous_on_cpu || (!on_cpu && node.op != previous_delegate))
      ++copies.transitions;
    previous_on_cpu = on_cpu;
    previous_delegate = on_cpu ? std::string() : node.op;
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
    if (write_guard_) write_guard_->Snapshot();
    const auto start = std::chrono::steady_clock::now();
    const Status status =
        on_cpu ? step.kernel->eval(step.context) : step.delegate->Eval(step.context);
    const auto end = std::chrono::steady_clock::now();
    TFA_RETURN_IF_ERROR(status.WithContext(NodeName(graph_, step.node)));
    if (write_guard_) TFA_RETURN_IF_ERROR(CheckWrites(step));
    if (!on_cpu) CountCopies(step, copies, false);
    timings.push_back(
        {step.node, node.op, std::chrono::duration<double, std::micro>(end - start).count()});
  }
  if (!previous_on_cpu) ++copies.transitions;  // outputs go back to the application
  stats_.copies = copies;
  stats_.timings = std::move(timings);
  ++stats_.invocations;
  return Status::Ok();
}

}  // namespace tfa::runtime
