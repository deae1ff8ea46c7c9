#include "libanalysis/arena/arena_planner_reference.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

// Upstream marks unassigned alloc/dealloc nodes with INT32_MAX, so a tensor that is never freed
// overlaps every later step.
constexpr int32_t kNodeNotAssigned = std::numeric_limits<int32_t>::max();
constexpr uint64_t kScalarTensorBytes = 4;
constexpr int kMaxSharableOpInputs = 3;

struct ArenaAllocation {
  int32_t tensor = -1;
  uint64_t offset = 0;
  uint64_t size = 0;
  int32_t first_step = 0;
  int32_t last_step = 0;
};

// SimpleMemoryArena's planning half: allocations sorted by offset, best-fit among the
// allocations whose [first_step, last_step] overlap the new one.
class SimpleArenaReplay {
 public:
  explicit SimpleArenaReplay(uint64_t alignment) : alignment_(alignment) {}

  Result<ArenaAllocation> Allocate(int32_t tensor, uint64_t size, int32_t first_step,
                                   int32_t last_step) {
    ArenaAllocation allocation{tensor, 0, size, first_step, last_step};
    if (size == 0) return allocation;
    bool found = false;
    uint64_t best_offset = 0;
    uint64_t best_gap = std::numeric_limits<uint64_t>::max();
    uint64_t current_offset = 0;
    for (const ArenaAllocation& placed : active_) {
      if (placed.last_step < first_step || placed.first_step > last_step) continue;
      const auto aligned_offset = CheckedAlignUp(current_offset, alignment_);
      const auto aligned_end = aligned_offset ? CheckedAdd(*aligned_offset, size) : std::nullopt;
      if (!aligned_end) return Overflow(tensor);
      // Upstream compares the aligned gap with the best gap so far but records the gap measured
      // from the unaligned end of the previous allocation (tflite/simple_memory_arena.cc).
      // Its "a gap of zero stops the search" exit can never fire: a recorded gap is at least
      // `size` bytes.
      if (*aligned_end <= placed.offset && placed.offset - *aligned_offset < best_gap) {
        found = true;
        best_offset = *aligned_offset;
        best_gap = placed.offset - current_offset;
      }
      const auto placed_end = CheckedAdd(placed.offset, placed.size);
      if (!placed_end) return Overflow(tensor);
      current_offset = std::max(current_offset, *placed_end);
    }
    if (!found) {
      const auto aligned_offset = CheckedAlignUp(current_offset, alignment_);
      if (!aligned_offset) return Overflow(tensor);
      best_offset = *aligned_offset;
    }
    const auto end = CheckedAdd(best_offset, size);
    if (!end) return Overflow(tensor);
    high_water_mark_ = std::max(high_water_mark_, *end);
    allocation.offset = best_offset;
    auto position = std::upper_bound(
        active_.begin(), active_.end(), allocation,
        [](const ArenaAllocation& a, const ArenaAllocation& b) { return a.offset < b.offset; });
    active_.insert(position, allocation);
    return allocation;
  }

  uint64_t high_water_mark() const { return high_water_mark_; }

 private:
  static Status Overflow(int32_t tensor) {
    return Status::Error("tensor " + std::to_string(tensor) + ": arena offset overflows");
  }

  uint64_t alignment_;
  uint64_t high_water_mark_ = 0;
  std::vector<ArenaAllocation> active_;  // by offset; equal offsets in insertion order
};

class ArenaPlannerReplay {
 public:
  ArenaPlannerReplay(const Subgraph& subgraph, const ArenaPlannerOptions& options)
      : subgraph_(subgraph),
        tensors_(subgraph.tensors),
        options_(options),
        num_steps_(static_cast<int32_t>(subgraph.execution_plan.size())) {}

  Result<ArenaPlan> Run() {
    PlanAllocations();
    AddTemporaries();
    TFA_RETURN_IF_ERROR(CalculateAllocations());
    return Resolve();
  }

 private:
  const Node& NodeAt(int32_t step) const { return subgraph_.nodes[subgraph_.execution_plan[step]]; }
  uint64_t Bytes(int32_t tensor) const { return tensors_[tensor].bytes_or_zero(); }

  int32_t FindSharedTensor(int32_t tensor) const {
    auto it = actual_tensor_id_.find(tensor);
    return it == actual_tensor_id_.end() ? tensor : it->second;
  }

  void Allocate(int32_t step, int32_t tensor) {
    if (alloc_node_[tensor] == kNodeNotAssigned) alloc_node_[tensor] = step;
  }
  void Deallocate(int32_t step, int32_t tensor) {
    // Tensors never allocated (constants) are never freed either.
    if (alloc_node_[tensor] != kNodeNotAssigned) dealloc_node_[tensor] = step;
  }

  // ArenaPlanner::PlanAllocations: refcounts, in-place sharing, alloc/dealloc steps.
  void PlanAllocations() {
    const size_t num_tensors = tensors_.size();
    alloc_node_.assign(num_tensors, kNodeNotAssigned);
    dealloc_node_.assign(num_tensors, kNodeNotAssigned);
    step_tensors_.assign(std::max(num_steps_, 1), {});
    refcounts_.assign(num_tensors, 0);
    for (int32_t tensor : subgraph_.outputs) {
      if (tensor != -1) ++refcounts_[tensor];
    }
    for (int32_t tensor : subgraph_.variables) {
      ++refcounts_[tensor];
      Allocate(0, tensor);
      step_tensors_[0].insert(tensor);
    }
    for (int32_t tensor : subgraph_.inputs) {
      if (tensor == -1) continue;
      ++refcounts_[tensor];
      Allocate(0, tensor);
      step_tensors_[0].insert(tensor);
    }
    // Upstream keeps two counts: `refcounts_` (all references, read by the in-place checks) and
    // this copy, taken before node inputs are counted, that follows shared buffers to their owner.
    std::vector<int> remaining = refcounts_;
    for (int32_t step = 0; step < num_steps_; ++step) {
      for (int32_t tensor : NodeAt(step).inputs) {
        if (tensor != -1) ++refcounts_[tensor];
      }
    }
    IdentifyInPlaceTensors();
    for (int32_t step = 0; step < num_steps_; ++step) {
      for (int32_t tensor : NodeAt(step).inputs) {
        if (tensor != -1) ++remaining[FindSharedTensor(tensor)];
      }
    }
    for (int32_t step = 0; step < num_steps_; ++step) {
      const Node& node = NodeAt(step);
      for (int32_t tensor : node.outputs) {
        if (tensor == -1) continue;
        step_tensors_[step].insert(tensor);
        Allocate(step, tensor);
      }
      if (options_.preserve_all_tensors) continue;
      for (int32_t tensor : node.inputs) {
        if (tensor == -1) continue;
        const int32_t owner = FindSharedTensor(tensor);
        if (--remaining[owner] == 0) Deallocate(step, owner);
      }
    }
  }

  bool InputTensorCanBeShared(int32_t input, int32_t output, bool tensor_changed) const {
    if (tensor_changed) {
      if (Bytes(input) != Bytes(output) || Bytes(input) <= kScalarTensorBytes) return false;
      if (refcounts_[input] > 1) return false;
    }
    for (int32_t graph_input : subgraph_.inputs) {
      if (graph_input == input) return false;
    }
    for (int32_t graph_output : subgraph_.outputs) {
      if (graph_output == output) return false;
    }
    const AllocationType input_type = tensors_[input].allocation;
    if (input_type != tensors_[output].allocation && input_type != AllocationType::kArenaRw) {
      return false;
    }
    return !options_.preserve_all_tensors;
  }

  // ArenaPlanner::IdentifyInPlaceTensors: output 0 may take the buffer of the first shareable
  // input among inputs 0..2, chained to that input's own owner.
  void IdentifyInPlaceTensors() {
    actual_tensor_id_.clear();
    for (int32_t step = 0; step < num_steps_; ++step) {
      const Node& node = NodeAt(step);
      if (node.outputs.empty() || node.inplace == kInplaceNone) continue;
      const int32_t output = node.outputs[0];
      // Upstream would read tensor -1 here; an absent output has nothing to share.
      if (output == -1) continue;
      const bool tensor_changed = !(node.inplace & kInplaceOpDataUnmodified);
      int32_t shared_input = -1;
      const int loop_end = std::min<int>(kMaxSharableOpInputs, node.inputs.size());
      for (int i = 0; i < loop_end; ++i) {
        const int32_t input = node.inputs[i];
        if (input == -1) continue;
        if (!(node.inplace & (kInplaceInput0Shared << i))) continue;
        if (InputTensorCanBeShared(input, output, tensor_changed)) {
          shared_input = input;
          break;
        }
      }
      if (shared_input == -1) continue;
      const int32_t owner = FindSharedTensor(shared_input);
      if (tensor_changed && refcounts_[owner] > 1) continue;
      actual_tensor_id_[output] = owner;
    }
  }

  // ArenaPlanner::ExecuteAllocations: temporaries live exactly at their node.
  void AddTemporaries() {
    for (int32_t step = 0; step < num_steps_; ++step) {
      for (int32_t tensor : NodeAt(step).temporaries) {
        alloc_node_[tensor] = step;
        step_tensors_[step].insert(tensor);
        if (!options_.preserve_all_tensors) dealloc_node_[tensor] = step;
      }
    }
  }

  bool LivesWholeRun(int32_t tensor) const {
    return alloc_node_[tensor] == 0 && dealloc_node_[tensor] == kNodeNotAssigned;
  }

  // ArenaPlanner::CreateTensorAllocationVector's order: whole-run tensors by index, then size
  // descending, then alloc step. Ties keep whatever std::sort makes of the input order.
  bool AllocatedBefore(int32_t a, int32_t b) const {
    if (LivesWholeRun(a)) return LivesWholeRun(b) ? a < b : true;
    if (LivesWholeRun(b)) return false;
    if (Bytes(a) != Bytes(b)) return Bytes(a) > Bytes(b);
    return alloc_node_[a] < alloc_node_[b];
  }

  int32_t BlockLastStep(int32_t last_step) const {
    return last_step == kNodeNotAssigned ? num_steps_ - 1 : last_step;
  }

  // ArenaPlanner::CalculateAllocations for steps 0..num_steps-1 on an empty arena.
  Status CalculateAllocations() {
    allocations_.assign(tensors_.size(), ArenaAllocation{});
    // The queue is the per-step hash sets concatenated: a tensor queued at two steps appears
    // twice (and a non-persistent one is then placed twice).
    std::vector<int32_t> queued;
    for (int32_t step = 0; step < num_steps_; ++step) {
      queued.insert(queued.end(), step_tensors_[step].begin(), step_tensors_[step].end());
    }
    std::vector<int32_t> to_allocate;
    for (int32_t tensor : queued) {
      const AllocationType type = tensors_[tensor].allocation;
      if ((type == AllocationType::kArenaRw && Bytes(tensor) > 0) ||
          type == AllocationType::kArenaRwPersistent) {
        to_allocate.push_back(tensor);
      }
    }
    std::sort(to_allocate.begin(), to_allocate.end(),
              [this](int32_t a, int32_t b) { return AllocatedBefore(a, b); });
    SimpleArenaReplay rw_arena(options_.tensor_alignment);
    SimpleArenaReplay persistent_arena(options_.tensor_alignment);
    for (int32_t tensor : to_allocate) {
      auto shared = actual_tensor_id_.find(tensor);
      if (shared != actual_tensor_id_.end()) {
        // Sharing is dropped when the owner is not in the non-persistent arena or the sizes
        // differ (possible for ops that leave data unmodified); the tensor then gets its own
        // buffer, keeping the lifetime computed for the shared one.
        const int32_t owner = shared->second;
        if (tensors_[owner].allocation != AllocationType::kArenaRw ||
            Bytes(owner) != Bytes(tensor)) {
          actual_tensor_id_.erase(shared);
        } else {
          continue;
        }
      }
      const AllocationType type = tensors_[tensor].allocation;
      if (type == AllocationType::kArenaRw) {
        auto allocation =
            rw_arena.Allocate(tensor, Bytes(tensor), alloc_node_[tensor], dealloc_node_[tensor]);
        if (!allocation.ok()) return allocation.status();
        allocations_[tensor] = *allocation;
        rw_blocks_.push_back({tensor, allocation->offset, allocation->size, allocation->first_step,
                              BlockLastStep(allocation->last_step)});
      } else if (allocations_[tensor].size == 0 && Bytes(tensor) > 0) {
        auto allocation =
            persistent_arena.Allocate(tensor, Bytes(tensor), alloc_node_[tensor], kNodeNotAssigned);
        if (!allocation.ok()) return allocation.status();
        allocations_[tensor] = *allocation;
        persistent_blocks_.push_back(
            {tensor, allocation->offset, allocation->size, allocation->first_step, num_steps_ - 1});
      }
    }
    arena_size_ = rw_arena.high_water_mark();
    persistent_arena_size_ = persistent_arena.high_water_mark();
    return Status::Ok();
  }

  static bool SameArena(AllocationType a, AllocationType b) {
    return a == b && (a == AllocationType::kArenaRw || a == AllocationType::kArenaRwPersistent);
  }

  // ArenaPlanner::ResolveTensorAllocation: an alias in the same arena takes its owner's buffer
  // (resolved recursively); otherwise the tensor's own allocation, if it has bytes.
  Result<TensorPlacement> ResolveTensor(int32_t tensor, int depth) const {
    if (depth > static_cast<int>(tensors_.size())) {
      return Status::Error("tensor " + std::to_string(tensor) + ": in-place sharing forms a cycle");
    }
    TensorPlacement placement;
    placement.size = Bytes(tensor);
    if (alloc_node_[tensor] != kNodeNotAssigned) placement.first_step = alloc_node_[tensor];
    if (dealloc_node_[tensor] != kNodeNotAssigned) placement.last_step = dealloc_node_[tensor];
    const int32_t owner = FindSharedTensor(tensor);
    if (owner != tensor) placement.shares_buffer_of = owner;
    const AllocationType type = tensors_[tensor].allocation;
    if (owner != tensor && SameArena(tensors_[owner].allocation, type)) {
      auto owner_placement = ResolveTensor(owner, depth + 1);
      if (!owner_placement.ok()) return owner_placement.status();
      placement.arena = owner_placement->arena;
      placement.offset = owner_placement->offset;
      return placement;
    }
    if (allocations_[tensor].size == 0) return placement;
    if (type == AllocationType::kArenaRw) placement.arena = ArenaKind::kRw;
    if (type == AllocationType::kArenaRwPersistent) placement.arena = ArenaKind::kPersistent;
    placement.offset = allocations_[tensor].offset;
    return placement;
  }

  Result<ArenaPlan> Resolve() const {
    ArenaPlan plan;
    plan.num_steps = num_steps_;
    plan.tensors.reserve(tensors_.size());
    for (size_t tensor = 0; tensor < tensors_.size(); ++tensor) {
      auto placement = ResolveTensor(static_cast<int32_t>(tensor), 0);
      if (!placement.ok()) return placement.status();
      plan.tensors.push_back(*placement);
    }
    plan.rw_blocks = rw_blocks_;
    plan.persistent_blocks = persistent_blocks_;
    plan.arena_size = arena_size_;
    plan.persistent_arena_size = persistent_arena_size_;
    return plan;
  }

  const Subgraph& subgraph_;
  const SharedList<Tensor>& tensors_;
  ArenaPlannerOptions options_;
  int32_t num_steps_;

  std::vector<int32_t> alloc_node_;
  std::vector<int32_t> dealloc_node_;
  std::vector<int> refcounts_;
  // Upstream's nodes_to_tensors_: the same container type, because its iteration order decides
  // the allocation order of equal tensors.
  std::vector<std::unordered_set<int>> step_tensors_;
  std::unordered_map<int32_t, int32_t> actual_tensor_id_;
  std::vector<ArenaAllocation> allocations_;
  std::vector<ArenaBlock> rw_blocks_;
  std::vector<ArenaBlock> persistent_blocks_;
  uint64_t arena_size_ = 0;
  uint64_t persistent_arena_size_ = 0;
};

}  // namespace

Result<ArenaPlan> PlanArenaReference(const Subgraph& subgraph, const ArenaPlannerOptions& options) {
  TFA_RETURN_IF_ERROR(ValidateForArenaPlanning(subgraph));
  return ArenaPlannerReplay(subgraph, options).Run();
}

}  // namespace tfa
