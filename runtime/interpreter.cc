#include "runtime/interpreter.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <span>
#include <sstream>

#include "libanalysis/arena/arena_planner.h"
#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"
#include "libanalysis/prepare/shape_inference.h"
#include "runtime/arena_watermark.h"
#include "runtime/kernels/cpu/cpu_kernels.h"
#include "runtime/kernels/cpu/kernel_thread_pool.h"
#include "runtime/var_handle_names.h"

namespace tfa::runtime {
namespace {

constexpr uint64_t kBufferAlignment = 64;
constexpr uint64_t kHugePageBytes = uint64_t{2} << 20;
// A VAR_HANDLE output holds a resource id (tflite/kernels/var_handle.cc).
constexpr uint64_t kResourceHandleBytes = sizeof(int32_t);

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

// Variable tensors (recurrent state) start as upstream's ResetVariableTensors leaves them: int8
// ones at their zero point, all others at zero bytes.
void ResetVariable(const Tensor& t, RuntimeTensor& r) {
  const bool int8 = t.type == TensorType::kInt8 && !t.quantization->zero_point.empty();
  std::memset(r.data, int8 ? static_cast<int>(t.quantization->zero_point[0]) : 0, r.bytes);
}

// The values of an int32 / int64 tensor that holds data, for the shape rules; nullopt otherwise.
std::optional<std::vector<int64_t>> IntValues(const RuntimeTensor& r) {
  if (!r.data) return std::nullopt;
  std::vector<int64_t> v(static_cast<size_t>(r.NumElements()));
  for (size_t k = 0; k < v.size(); ++k) {
    if (r.type == TensorType::kInt32) {
      v[k] = r.Data<const int32_t>()[k];
    } else if (r.type == TensorType::kInt64) {
      v[k] = r.Data<const int64_t>()[k];
    } else {
      return std::nullopt;
    }
  }
  return v;
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

namespace {

std::string SubgraphName(int32_t subgraph) { return "subgraph " + std::to_string(subgraph); }

}  // namespace

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

namespace {

// Whether the interpreter took delegate `name` back (ModelPlan::delegate_failures): it runs
// nothing.
bool TakenBack(const ModelPlan& plan, const std::string& name) {
  for (const DelegateFailure& f : plan.delegate_failures) {
    if (f.delegate == name) return true;
    for (const std::string& removed : f.also_removed) {
      if (removed == name) return true;
    }
  }
  return false;
}

}  // namespace

// The delegates that run the plan's delegate kernels must be the plan's, in its order, besides
// those the interpreter took back: a kernel node is matched to its delegate by name.
Status CheckDelegatesMatchPlan(const ModelPlan& plan, const std::vector<Delegate*>& given) {
  std::vector<Delegate*> delegates;
  for (Delegate* d : given) {
    if (!TakenBack(plan, d->Name())) delegates.push_back(d);
  }
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

std::string Interpreter::NodeName(const SubgraphState& s, int32_t node) {
  return SubgraphName(s.index) + ": node " + std::to_string(node) + " (" +
         s.graph.nodes[static_cast<size_t>(node)].op + ")";
}

namespace {

// Whether tensor `t` of `s` gets a buffer of its own rather than arena bytes: every used
// non-constant tensor of known size in own-buffer mode; otherwise dynamic and constant-folded
// tensors, and the tensors upstream points at the parent's buffers (custom allocation: WHILE body
// and IF branch inputs and outputs). An arena tensor a node after a dynamic one makes
// (`made_after_stop`) gets its arena bytes once that node ran.
bool NeedsOwnBuffer(const Subgraph& graph, const ArenaPlan& plan, bool own_buffers,
                    bool made_after_stop, size_t t) {
  const Tensor& tensor = graph.tensors[t];
  if (tensor.is_constant()) return false;
  if (own_buffers) return tensor.bytes.has_value() || tensor.type == TensorType::kResource;
  switch (tensor.allocation) {
    case AllocationType::kDynamic:
    case AllocationType::kCustom:
    case AllocationType::kPersistentRo:
      return true;
    default:
      break;
  }
  if (made_after_stop) return false;
  if (plan.tensors.size() > t && plan.tensors[t].arena != ArenaKind::kNone) return false;
  const auto index = static_cast<int32_t>(t);
  const auto listed = [&](std::span<const int32_t> list) {
    return std::find(list.begin(), list.end(), index) != list.end();
  };
  return tensor.bytes_or_zero() > 0 && (listed(graph.inputs) || listed(graph.outputs));
}

// "2.5 s": a limit as the user gave it.
std::string FormatSeconds(double seconds) {
  std::ostringstream out;
  out << seconds << " s";
  return out.str();
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

uint64_t OwnBufferBytes(const Tensor& tensor) {
  if (tensor.type == TensorType::kResource)
    return std::max(tensor.bytes_or_zero(), kResourceHandleBytes);
  return tensor.bytes_or_zero();
}

}  // namespace

// Checked before anything is allocated, so a hostile model cannot make the runtime commit
// gigabytes; `scratch_bytes` is known only once the kernels' Prepare ran.
Status Interpreter::CheckMemoryLimit(uint64_t scratch_bytes) const {
  uint64_t arenas = 0, persistent = 0, own = 0;
  for (const SubgraphState& s : subgraphs_) {
    if (!s.runnable) continue;
    arenas = CheckedAdd(arenas, s.plan.arena_size).value_or(UINT64_MAX);
    persistent = CheckedAdd(persistent, s.plan.persistent_arena_size).value_or(UINT64_MAX);
    for (size_t t = 0; t < s.graph.tensors.size(); ++t) {
      if (NeedsOwnBuffer(s.graph, s.plan, own_buffers_, s.made_after_stop[t], t))
        own = CheckedAdd(own, OwnBufferBytes(s.graph.tensors[t])).value_or(UINT64_MAX);
    }
  }
  uint64_t total = CheckedAdd(arenas, persistent).value_or(UINT64_MAX);
  total = CheckedAdd(total, own).value_or(UINT64_MAX);
  total = CheckedAdd(total, scratch_bytes).value_or(UINT64_MAX);
  if (total <= memory_limit_bytes_) return Status::Ok();
  return Status::Error("the run needs " + std::to_string(total) + " bytes (arenas " +
                       std::to_string(arenas) + ", persistent " + std::to_string(persistent) +
                       ", dynamic and own buffers " + std::to_string(own) + ", kernel scratch " +
                       std::to_string(scratch_bytes) + "), above the memory limit of " +
                       std::to_string(memory_limit_bytes_) + " bytes");
}

// Buffers of a megabyte or more are 2 MiB-aligned and the huge pages they fill are marked for
// transparent huge pages: their first touch then faults once per 2 MiB instead of once per 4 KiB,
// which was most of the time before Invoke on a virtual machine (16 MiB: 150 ms of page faults,
// 2 to 10 ms with them). The tail past the last whole huge page stays in small pages (glibc's
// malloc.hugetlb, which the CLI sets, would make it one huge page): one touch there would make
// the whole rounded-up 2 MiB resident, memory upstream's arena never holds.
Interpreter::Buffer Interpreter::AllocateBuffer(uint64_t bytes) {
  const uint64_t alignment = bytes >= kHugePageBytes / 2 ? kHugePageBytes : kBufferAlignment;
  const uint64_t rounded = CheckedAlignUp(std::max<uint64_t>(bytes, 1), alignment).value_or(0);
  if (rounded == 0) return Buffer();
  Buffer buffer(static_cast<uint8_t*>(std::aligned_alloc(alignment, rounded)));
  if (!buffer || alignment != kHugePageBytes) return buffer;
  // Only hints: without them the buffer works the same.
  const uint64_t whole_huge_pages = bytes / kHugePageBytes * kHugePageBytes;
  if (whole_huge_pages > 0) madvise(buffer.get(), whole_huge_pages, MADV_HUGEPAGE);
  madvise(buffer.get() + whole_huge_pages, rounded - whole_huge_pages, MADV_NOHUGEPAGE);
  return buffer;
}

Status Interpreter::AllocateTensors(SubgraphState& s) {
  const std::string where = SubgraphName(s.index);
  s.arena = AllocateBuffer(s.plan.arena_size);
  s.persistent_arena = AllocateBuffer(s.plan.persistent_arena_size);
  if (!s.arena || !s.persistent_arena) return Status::Error(where + ": cannot allocate the arena");
  s.arena_capacity = s.plan.arena_size;
  s.persistent_capacity = s.plan.persistent_arena_size;
  // Everything starts as the unwritten pattern (NaN words): a read of a tensor nobody wrote shows
  // in the outputs, and the bytes a run wrote can be told from the rest (arena_watermark.h).
  FillUnwritten({s.arena.get(), s.plan.arena_size});
  FillUnwritten({s.persistent_arena.get(), s.plan.persistent_arena_size});

  SubgraphRunStats& stats = stats_.subgraphs[static_cast<size_t>(s.index)];
  s.tensors.resize(s.graph.tensors.size());
  s.own_buffers.resize(s.graph.tensors.size());
  s.own_capacity.assign(s.graph.tensors.size(), 0);
  for (size_t i = 0; i < s.graph.tensors.size(); ++i) {
    const Tensor& t = s.graph.tensors[i];
    RuntimeTensor& r = s.tensors[i];
    r.type = t.type;
    r.shape.assign(t.shape.begin(), t.shape.end());
    r.bytes = t.bytes_or_zero();
    r.quantization = &*t.quantization;
    r.is_constant = t.is_constant();
    const auto index = static_cast<int32_t>(i);
    if (t.is_constant()) {
      const auto bytes = model_data_->TensorData(s.index, index);
      r.data = const_cast<uint8_t*>(bytes.data());  // kernels never write their inputs
      r.bytes = bytes.size();
      r.sparsity = model_data_->TensorSparsity(s.index, index);
      continue;
    }
    // Upstream makes every string tensor dynamic (tflite/core/subgraph.cc): no buffer until a
    // kernel or the application writes one of the size its contents need.
    if (t.type == TensorType::kString) {
      r.bytes = 0;
      r.data = nullptr;
      continue;
    }
    if (NeedsOwnBuffer(s.graph, s.plan, own_buffers_, s.made_after_stop[i], i)) {
      if (!t.bytes && t.type != TensorType::kResource) {
        return Status::Error(where + ": tensor " + std::to_string(i) +
                             " has a size only known at run time");
      }
      r.bytes = OwnBufferBytes(t);
      s.own_buffers[i] = AllocateBuffer(r.bytes);
      if (!s.own_buffers[i]) return Status::Error(where + ": cannot allocate a tensor");
      std::memset(s.own_buffers[i].get(), 0xff, r.bytes);
      s.own_capacity[i] = r.bytes;
      r.data = s.own_buffers[i].get();
      stats_.dynamic_bytes += r.bytes;
      // In own-buffer mode too (the --validate rerun), or the state starts as garbage.
      if (t.is_variable) ResetVariable(t, r);
      continue;
    }
    if (i >= s.plan.tensors.size()) {
      return Status::Error(where + ": tensor " + std::to_string(i) +
                           " has no buffer: the plan does not place it and it is not dynamic");
    }
    const TensorPlacement& p = s.plan.tensors[i];
    if (p.arena == ArenaKind::kNone)
      continue;  // never used, zero bytes, or no buffer upstream either
    const uint64_t arena_size =
        p.arena == ArenaKind::kRw ? s.plan.arena_size : s.plan.persistent_arena_size;
    const auto end = CheckedAdd(p.offset, r.bytes);
    if (!end || *end > arena_size) {
      return Status::Error(where + ": tensor " + std::to_string(i) + " ends past its arena");
    }
    uint8_t* base = p.arena == ArenaKind::kRw ? s.arena.get() : s.persistent_arena.get();
    r.data = base + p.offset;
    if (t.is_variable) ResetVariable(t, r);
    uint64_t& committed =
        p.arena == ArenaKind::kRw ? stats.arena_bytes : stats.persistent_arena_bytes;
    committed = std::max(committed, *end);
  }
  return Status::Ok();
}

Status Interpreter::ResizeTensor(SubgraphState& s, int32_t t, const std::vector<int32_t>& shape) {
  const auto i = static_cast<size_t>(t);
  Tensor& tensor = s.graph.tensors[i];
  RuntimeTensor& r = s.tensors[i];
  const std::string what = SubgraphName(s.index) + ": tensor " + std::to_string(t);
  if (r.is_constant) return Status::Error(what + " is a constant, whose shape cannot change");
  const auto bytes = ShapeBytes(tensor.type, shape);
  if (!bytes)
    return Status::Error(what + ": a shape of rank " + std::to_string(shape.size()) +
                         " with no byte size (negative or overflowing)");
  tensor.shape = shape;
  tensor.bytes = *bytes;
  r.shape = shape;
  r.bytes = *bytes;
  Buffer& own = s.own_buffers[i];
  // An arena tensor gets its bytes from the plan made next (Replan).
  if (!own && !own_buffers_ && tensor.allocation != AllocationType::kDynamic) return Status::Ok();
  if (own && s.own_capacity[i] >= *bytes) return Status::Ok();
  TFA_RETURN_IF_ERROR(CheckMemoryLimit(stats_.scratch_bytes).WithContext(what));
  // As upstream's TfLiteTensorRealloc: a larger buffer that keeps the bytes already there.
  Buffer grown = AllocateBuffer(*bytes);
  if (!grown) return Status::Error(what + ": cannot allocate " + std::to_string(*bytes) + " bytes");
  std::memset(grown.get(), 0xff, *bytes);
  if (own) std::memcpy(grown.get(), own.get(), s.own_capacity[i]);
  stats_.dynamic_bytes += *bytes - s.own_capacity[i];
  own = std::move(grown);
  s.own_capacity[i] = *bytes;
  r.data = own.get();
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

// A kernel whose outputs upstream makes dynamic (STRIDED_SLICE with an end computed at Eval,
// RESHAPE to a computed shape, ...) sizes them in its Eval, from its inputs' values, all computed
// by now: the outputs take the shapes its shape rule gives, in buffers of their own, and the
// kernel prepares on them.
Status Interpreter::PrepareDynamicStep(SubgraphState& s, Step& step) {
  const Node& node = *step.context.node;
  const IntValuesOf values = [&](int32_t t) {
    return IntValues(s.tensors[static_cast<size_t>(t)]);
  };
  auto shapes = InferOutputShapes(s.graph, node, values);
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
  // A value the steps from `first` compute is not known yet (upstream's Prepare would make the
  // output dynamic; here the shape inference says which value it lacks).
  const IntValuesOf values = [&](int32_t t) -> std::optional<std::vector<int64_t>> {
    if (computed_later[static_cast<size_t>(t)]) return std::nullopt;
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
      if (inferred->dynamic && step.kind == StepKind::kCpu) {
        // Its Prepare makes the outputs dynamic (SetTensorToDynamic): they leave the arena and
        // get their shapes at Eval (PrepareDynamicStep); preparing stops here.
        for (int32_t t : n->outputs) {
          if (t >= 0) s.graph.tensors[static_cast<size_t>(t)].allocation = AllocationType::kDynamic;
        }
        dynamic = true;
        break;
      }
      if (inferred->dynamic) {
        return Status::Error(NodeName(s, step.node) +
                             ": a delegated node's output shape depends on values known only at "
                             "run time (not supported)");
      }
      const std::vector<Shape>* shapes = &inferred->shapes;
      for (size_t o = 0; o < n->outputs.size() && o < shapes->size(); ++o) {
        const int32_t t = n->outputs[o];
        if (t < 0 || s.tensors[static_cast<size_t>(t)].shape == (*shapes)[o]) continue;
        if (!n->temporaries.empty()) {
          return Status::Error(NodeName(s, step.node) +
                               ": its output changes shape, and its kernel's temporaries are "
                               "sized for the old one (not supported)");
        }
        TFA_RETURN_IF_ERROR(ResizeTensor(s, t, (*shapes)[o]));
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

Status Interpreter::EnsureScratch(uint64_t bytes) {
  if (bytes <= stats_.scratch_bytes) return Status::Ok();
  TFA_RETURN_IF_ERROR(CheckMemoryLimit(bytes));
  const uint64_t rounded = CheckedAlignUp(bytes, kBufferAlignment).value_or(0);
  if (rounded == 0) return Status::Error("kernel scratch size overflows");
  scratch_.reset(static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, rounded)));
  if (!scratch_)
    return Status::Error("cannot allocate " + std::to_string(bytes) + " scratch bytes");
  stats_.scratch_bytes = bytes;
  for (SubgraphState& s : subgraphs_) {
    for (Step& step : s.steps) step.context.scratch = scratch_.get();
  }
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
    for (int32_t t : node.intermediates)
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
                                  s.index};
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

Status Interpreter::CheckWrites(const SubgraphState& s, const Step& step) {
  const Node& node = *step.context.node;
  auto range_of = [&](int32_t t) -> std::optional<GuardedRange> {
    const TensorPlacement& p = s.plan.tensors[static_cast<size_t>(t)];
    if (p.arena == ArenaKind::kNone) return std::nullopt;
    const uint64_t bytes = s.tensors[static_cast<size_t>(t)].bytes;
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
    if (t < 0 || !s.graph.tensors[static_cast<size_t>(t)].is_variable) continue;
    if (auto range = range_of(t)) allowed.push_back(*range);
  }
  const std::optional<GuardedRange> write = s.guard->FirstWriteOutside(std::move(allowed));
  if (!write) return Status::Ok();
  // Name a tensor live at this step that holds the first changed byte.
  const int32_t position = static_cast<int32_t>(&step - s.steps.data());
  std::string victim = "bytes no live tensor holds";
  for (const ArenaBlock& block : write->buffer == 0 ? s.plan.rw_blocks : s.plan.persistent_blocks) {
    if (block.first_step <= position && position <= block.last_step &&
        block.offset <= write->begin && write->begin - block.offset < block.size) {
      victim = "tensor " + std::to_string(block.tensor) + " '" +
               s.graph.tensors[static_cast<size_t>(block.tensor)].name + "'";
      break;
    }
  }
  return Status::Error(NodeName(s, step.node) + ": guard check: wrote " +
                       (write->buffer == 0 ? "arena" : "persistent arena") + " bytes [" +
                       std::to_string(write->begin) + ", " + std::to_string(write->end) +
                       ") outside its outputs and temporaries, into " + victim);
}

void Interpreter::WatchArenas(SubgraphState& s) {
  s.guard = std::make_unique<WriteGuard>(std::vector<std::span<const uint8_t>>{
      {s.arena.get(), s.arena_capacity}, {s.persistent_arena.get(), s.persistent_capacity}});
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

}  // namespace tfa::runtime
