#include "libanalysis/arena/arena_planner.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "libanalysis/arena/occupancy_tree.h"
#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

constexpr int32_t kNodeNotAssigned = std::numeric_limits<int32_t>::max();
constexpr uint64_t kScalarTensorBytes = 4;
constexpr int kMaxSharableOpInputs = 3;

Status OffsetOverflow(int32_t tensor) {
  return Status::Error("tensor " + std::to_string(tensor) + ": arena offset overflows");
}

class FastArenaPlanner {
 public:
  FastArenaPlanner(const Subgraph& subgraph, const ArenaPlannerOptions& options)
      : subgraph_(subgraph),
        tensors_(subgraph.tensors),
        options_(options),
        num_steps_(static_cast<int32_t>(subgraph.execution_plan.size())) {}

  Result<ArenaPlan> Run() {
    ComputeLifetimes();
    TFA_RETURN_IF_ERROR(PlaceTensors(AllocationOrder()));
    return Resolve();
  }

 private:
  const Node& NodeAt(int32_t step) const { return subgraph_.nodes[subgraph_.execution_plan[step]]; }
  uint64_t Bytes(int32_t tensor) const { return tensors_[tensor].bytes_or_zero(); }
  int32_t Owner(int32_t tensor) const { return owner_[tensor] == -1 ? tensor : owner_[tensor]; }
  int32_t LastStep(int32_t tensor) const {
    return free_step_[tensor] == kNodeNotAssigned ? num_steps_ - 1 : free_step_[tensor];
  }
  void Allocate(int32_t step, int32_t tensor) {
    if (alloc_step_[tensor] == kNodeNotAssigned) alloc_step_[tensor] = step;
  }

  // Upstream's PlanAllocations + the temporaries of ExecuteAllocations, with O(1) membership
  // tests instead of scans of the graph inputs and outputs.
  void ComputeLifetimes() {
    const size_t num_tensors = tensors_.size();
    alloc_step_.assign(num_tensors, kNodeNotAssigned);
    free_step_.assign(num_tensors, kNodeNotAssigned);
    owner_.assign(num_tensors, -1);
    std::vector<int> references(num_tensors, 0);
    std::vector<char> is_graph_input(num_tensors, 0);
    std::vector<char> is_graph_output(num_tensors, 0);
    for (int32_t tensor : subgraph_.outputs) {
      if (tensor == -1) continue;
      ++references[tensor];
      is_graph_output[tensor] = 1;
    }
    for (int32_t tensor : subgraph_.variables) {
      ++references[tensor];
      Allocate(0, tensor);
    }
    for (int32_t tensor : subgraph_.inputs) {
      if (tensor == -1) continue;
      ++references[tensor];
      Allocate(0, tensor);
      is_graph_input[tensor] = 1;
    }
    const std::vector<int> outside_references = references;
    for (int32_t step = 0; step < num_steps_; ++step) {
      for (int32_t tensor : NodeAt(step).inputs) {
        if (tensor != -1) ++references[tensor];
      }
    }
    auto can_share = [&](int32_t input, int32_t output, bool tensor_changed) {
      if (tensor_changed && (Bytes(input) != Bytes(output) || Bytes(input) <= kScalarTensorBytes ||
                             references[input] > 1)) {
        return false;
      }
      if (is_graph_input[input] || is_graph_output[output]) return false;
      const AllocationType input_type = tensors_[input].allocation;
      if (input_type != tensors_[output].allocation && input_type != AllocationType::kArenaRw) {
        return false;
      }
      return !options_.preserve_all_tensors;
    };
    for (int32_t step = 0; step < num_steps_; ++step) {
      const Node& node = NodeAt(step);
      if (node.outputs.empty() || node.inplace == kInplaceNone || node.outputs[0] == -1) {
        continue;
      }
      const int32_t output = node.outputs[0];
      const bool tensor_changed = !(node.inplace & kInplaceOpDataUnmodified);
      const int loop_end = std::min<int>(kMaxSharableOpInputs, node.inputs.size());
      for (int i = 0; i < loop_end; ++i) {
        const int32_t input = node.inputs[i];
        if (input == -1 || !(node.inplace & (kInplaceInput0Shared << i))) continue;
        if (!can_share(input, output, tensor_changed)) continue;
        const int32_t owner = Owner(input);
        if (!tensor_changed || references[owner] <= 1) owner_[output] = owner;
        break;
      }
    }
    // Each node input counts against the buffer's owner: the same sums as upstream's pass over
    // the node inputs, taken per tensor.
    std::vector<int> remaining = outside_references;
    for (size_t tensor = 0; tensor < num_tensors; ++tensor) {
      remaining[Owner(static_cast<int32_t>(tensor))] +=
          references[tensor] - outside_references[tensor];
    }
    // Temporaries are set after every node's outputs and inputs, as upstream's
    // ExecuteAllocations does after PlanAllocations; collected here to save a pass over the nodes.
    std::vector<std::pair<int32_t, int32_t>> temporaries;
    for (int32_t step = 0; step < num_steps_; ++step) {
      const Node& node = NodeAt(step);
      for (int32_t tensor : node.outputs) {
        if (tensor != -1) Allocate(step, tensor);
      }
      for (int32_t tensor : node.temporaries) temporaries.emplace_back(step, tensor);
      if (options_.preserve_all_tensors) continue;
      for (int32_t tensor : node.inputs) {
        if (tensor == -1) continue;
        const int32_t owner = Owner(tensor);
        if (--remaining[owner] == 0 && alloc_step_[owner] != kNodeNotAssigned) {
          free_step_[owner] = step;
        }
      }
    }
    for (const auto& [step, tensor] : temporaries) {
      alloc_step_[tensor] = step;
      if (!options_.preserve_all_tensors) free_step_[tensor] = step;
    }
  }

  // The tensors queued at each step, in the order upstream's per-step std::unordered_set<int>
  // iterates them. A step with one tensor needs no set; others go through a fresh set built
  // with the same insertions, since that order is what breaks ties later.
  std::vector<int32_t> QueuedTensors() const {
    std::vector<int32_t> queued;
    queued.reserve(tensors_.size());
    std::vector<int32_t> inserted;
    for (int32_t step = 0; step < num_steps_; ++step) {
      inserted.clear();
      if (step == 0) {
        inserted.insert(inserted.end(), subgraph_.variables.begin(), subgraph_.variables.end());
        for (int32_t tensor : subgraph_.inputs) {
          if (tensor != -1) inserted.push_back(tensor);
        }
      }
      const Node& node = NodeAt(step);
      for (int32_t tensor : node.outputs) {
        if (tensor != -1) inserted.push_back(tensor);
      }
      inserted.insert(inserted.end(), node.temporaries.begin(), node.temporaries.end());
      if (inserted.size() <= 1) {
        queued.insert(queued.end(), inserted.begin(), inserted.end());
        continue;
      }
      std::unordered_set<int> step_tensors;
      for (int32_t tensor : inserted) step_tensors.insert(tensor);
      queued.insert(queued.end(), step_tensors.begin(), step_tensors.end());
    }
    return queued;
  }

  // A tensor to place, with what placing it reads: the allocation order visits tensors in no
  // order of their own, and reading these from the Tensor records was a cache miss each.
  // 32 bytes: the size and first step are read back from the key.
  struct Placement {
    unsigned __int128 key;  // the allocation order's, see AllocationOrder
    int32_t tensor;
    int32_t last;
    int32_t owner;  // owner_ when the order was made
    AllocationType type;
  };
  // Whole-run tensors (the key's top bit clear) start at step 0, and their size is not in the key.
  static bool WholeRun(const Placement& placement) { return !(placement.key >> 127); }
  static int32_t FirstOf(const Placement& placement) {
    return WholeRun(placement) ? 0 : static_cast<int32_t>(static_cast<uint32_t>(placement.key));
  }
  uint64_t SizeOf(const Placement& placement) const {
    return WholeRun(placement) ? Bytes(placement.tensor)
                               : ~static_cast<uint64_t>(placement.key >> 32);
  }

  // Upstream's CreateTensorAllocationVector on precomputed keys. std::sort sees the same
  // comparison results as upstream's comparator, so equal tensors end in the same order. The
  // comparator's three cases are packed into one 128-bit key: whole-run tensors first, by index;
  // then the rest by size, larger first, then by first step (equal keys compare equal, as there).
  std::vector<Placement> AllocationOrder() const {
    const std::vector<int32_t> queued = QueuedTensors();
    std::vector<Placement> order;
    order.reserve(queued.size());
    for (int32_t tensor : queued) {
      const AllocationType type = tensors_[tensor].allocation;
      const uint64_t size = Bytes(tensor);
      if ((type == AllocationType::kArenaRw && size > 0) ||
          type == AllocationType::kArenaRwPersistent) {
        const int32_t first = alloc_step_[tensor];
        const bool whole_run = first == 0 && free_step_[tensor] == kNodeNotAssigned;
        using Key = unsigned __int128;
        const Key key = whole_run ? Key{static_cast<uint32_t>(tensor)} << 32
                                  : Key{1} << 127 | Key{~size} << 32 | static_cast<uint32_t>(first);
        order.push_back({key, tensor, LastStep(tensor), owner_[tensor], type});
      }
    }
    std::sort(order.begin(), order.end(),
              [](const Placement& a, const Placement& b) { return a.key < b.key; });
    return order;
  }

  Status PlaceTensors(const std::vector<Placement>& order) {
    placed_.assign(tensors_.size(), 0);
    offset_.assign(tensors_.size(), 0);
    rw_blocks_.reserve(order.size());
    OccupancyTree rw_occupancy(num_steps_, options_.tensor_alignment);
    std::vector<std::pair<int32_t, int32_t>> rw_lifetimes;
    for (const Placement& placement : order) {
      if (placement.type == AllocationType::kArenaRw) {
        rw_lifetimes.emplace_back(FirstOf(placement), placement.last);
      }
    }
    rw_occupancy.KeepOnlyUnionsReadBy(rw_lifetimes);
    rw_lifetimes = {};
    uint64_t persistent_end = 0;
    for (const Placement& placement : order) {
      const auto [key, tensor, last, owner, type] = placement;
      const uint64_t size = SizeOf(placement);
      const int32_t first = FirstOf(placement);
      if (owner != -1) {
        // Upstream drops the sharing when the owner is outside the non-persistent arena or
        // the sizes differ (tflite/arena_planner.cc, CalculateAllocations).
        if (tensors_[owner].allocation == AllocationType::kArenaRw && Bytes(owner) == size) {
          continue;
        }
        owner_[tensor] = -1;
      }
      if (type == AllocationType::kArenaRw) {
        const auto offset = rw_occupancy.BestFitOffset(first, last, size);
        if (!offset) return OffsetOverflow(tensor);
        const auto end = CheckedAdd(*offset, size);
        if (!end || !CheckedAlignUp(*end, options_.tensor_alignment)) {
          return OffsetOverflow(tensor);
        }
        rw_occupancy.Insert(first, last, *offset, size);
        arena_size_ = std::max(arena_size_, *end);
        placed_[tensor] = 1;
        offset_[tensor] = *offset;
        rw_blocks_.push_back({tensor, *offset, size, first, last});
      } else if (!placed_[tensor] && size > 0) {
        // Persistent allocations never end, so each one overlaps all others and upstream's
        // best fit always lands on top of the previous ones.
        const auto offset = CheckedAlignUp(persistent_end, options_.tensor_alignment);
        const auto end = offset ? CheckedAdd(*offset, size) : std::nullopt;
        if (!end) return OffsetOverflow(tensor);
        persistent_end = *end;
        placed_[tensor] = 1;
        offset_[tensor] = *offset;
        persistent_blocks_.push_back({tensor, *offset, size, first, num_steps_ - 1});
      }
    }
    persistent_arena_size_ = persistent_end;
    return Status::Ok();
  }

  static bool SameArena(AllocationType a, AllocationType b) {
    return a == b && (a == AllocationType::kArenaRw || a == AllocationType::kArenaRwPersistent);
  }

  Result<ArenaPlan> Resolve() {
    ArenaPlan plan;
    plan.num_steps = num_steps_;
    plan.tensors.resize(tensors_.size());
    for (size_t i = 0; i < tensors_.size(); ++i) {
      TensorPlacement& placement = plan.tensors[i];
      placement.size = Bytes(static_cast<int32_t>(i));
      if (alloc_step_[i] != kNodeNotAssigned) placement.first_step = alloc_step_[i];
      if (free_step_[i] != kNodeNotAssigned) placement.last_step = free_step_[i];
      if (owner_[i] != static_cast<int32_t>(i)) placement.shares_buffer_of = owner_[i];
      // Follow same-arena aliases to the tensor whose own allocation holds the bytes.
      int32_t holder = static_cast<int32_t>(i);
      for (size_t hops = 0;
           owner_[holder] != -1 && owner_[holder] != holder &&
           SameArena(tensors_[owner_[holder]].allocation, tensors_[holder].allocation);
           ++hops) {
        if (hops > tensors_.size()) {
          return Status::Error("tensor " + std::to_string(i) + ": in-place sharing forms a cycle");
        }
        holder = owner_[holder];
      }
      if (!placed_[holder]) continue;
      placement.arena = tensors_[holder].allocation == AllocationType::kArenaRw
                            ? ArenaKind::kRw
                            : ArenaKind::kPersistent;
      placement.offset = offset_[holder];
    }
    plan.rw_blocks = std::move(rw_blocks_);
    plan.persistent_blocks = std::move(persistent_blocks_);
    plan.arena_size = arena_size_;
    plan.persistent_arena_size = persistent_arena_size_;
    return plan;
  }

  const Subgraph& subgraph_;
  const SharedList<Tensor>& tensors_;
  ArenaPlannerOptions options_;
  int32_t num_steps_;

  std::vector<int32_t> alloc_step_;
  std::vector<int32_t> free_step_;
  std::vector<int32_t> owner_;  // in-place owner or -1 (upstream's actual_tensor_id_)
  std::vector<char> placed_;
  std::vector<uint64_t> offset_;
  std::vector<ArenaBlock> rw_blocks_;
  std::vector<ArenaBlock> persistent_blocks_;
  uint64_t arena_size_ = 0;
  uint64_t persistent_arena_size_ = 0;
};

}  // namespace

Result<ArenaPlan> PlanArena(const Subgraph& subgraph, const ArenaPlannerOptions& options) {
  TFA_RETURN_IF_ERROR(ValidateForArenaPlanning(subgraph));
  return FastArenaPlanner(subgraph, options).Run();
}

}  // namespace tfa
