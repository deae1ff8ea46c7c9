// The interpreter's memory: the subgraphs' arenas and the tensors' buffers, as the plan places
// them, grown when a tensor is resized, within the memory limit.

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <span>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"
#include "runtime/arena_watermark.h"
#include "runtime/interpreter.h"

namespace tfa::runtime {

namespace {

constexpr uint64_t kHugePageBytes = uint64_t{2} << 20;

// A VAR_HANDLE output holds a resource id (tflite/kernels/var_handle.cc).
constexpr uint64_t kResourceHandleBytes = sizeof(int32_t);

// Variable tensors (recurrent state) start as upstream's ResetVariableTensors leaves them: int8
// ones at their zero point, all others at zero bytes.
void ResetVariable(const Tensor& t, RuntimeTensor& r) {
  const bool int8 = t.type == TensorType::kInt8 && !t.quantization->zero_point.empty();
  std::memset(r.data, int8 ? static_cast<int>(t.quantization->zero_point[0]) : 0, r.bytes);
}

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

}  // namespace tfa::runtime
