// ArenaPlan: where TFLite's ArenaPlanner puts every tensor of one subgraph, as plain data.
//
// Both planners (arena_planner_reference.h, the specification; arena_planner.h, the fast one)
// return this type; tests compare two plans field by field. Steps are positions in the
// execution plan the arena was planned on, not node indices.
#ifndef LIBANALYSIS_ARENA_ARENA_PLAN_H_
#define LIBANALYSIS_ARENA_ARENA_PLAN_H_

#include <cstdint>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// Upstream's default tensor alignment (kDefaultTensorAlignment in tflite/core/subgraph.h).
inline constexpr uint64_t kDefaultTensorAlignment = 64;

// A step that was never assigned: `first_step` of a tensor that is never allocated, or
// `last_step` of a tensor that is never freed (it lives until the end of the run).
inline constexpr int32_t kUnassignedStep = -1;

struct ArenaPlannerOptions {
  // Upstream's `preserve_all_tensors` (InterpreterOptions::SetPreserveAllTensors): nothing is
  // freed, nothing is shared in place.
  bool preserve_all_tensors = false;
  uint64_t tensor_alignment = kDefaultTensorAlignment;  // a power of two
};

enum class ArenaKind : uint8_t {
  kNone,        // the tensor has no arena bytes (not arena-allocated, zero bytes, or never used)
  kRw,          // the non-persistent arena
  kPersistent,  // the persistent arena
};

const char* ArenaKindName(ArenaKind kind);  // "none", "rw", "persistent"

// What upstream resolves for one tensor after planning. The arena kind comes last so that the
// struct packs into 32 bytes: a plan holds one per tensor (issue 18).
struct TensorPlacement {
  uint64_t offset = 0;  // byte offset in `arena` (meaningful only when arena != kNone)
  uint64_t size = 0;    // the tensor's bytes
  // Upstream's alloc_node_ / dealloc_node_ for this tensor (kUnassignedStep when unassigned).
  int32_t first_step = kUnassignedStep;
  int32_t last_step = kUnassignedStep;
  // Upstream's in-place entry (actual_tensor_id_) left after planning: the owner whose buffer
  // this tensor uses, or -1. The buffer is really shared only when both are in the same arena;
  // otherwise the tensor has no buffer at all (arena == kNone).
  int32_t shares_buffer_of = -1;
  ArenaKind arena = ArenaKind::kNone;

  bool operator==(const TensorPlacement&) const = default;
};

// One allocation placed in an arena, in placement order. A tensor normally has one block;
// upstream places a tensor twice when it is queued at two steps (a graph input that a node also
// writes), and the first block keeps its bytes; aliases sharing a buffer have none.
struct ArenaBlock {
  int32_t tensor = -1;
  uint64_t offset = 0;
  uint64_t size = 0;
  int32_t first_step = 0;
  int32_t last_step = 0;  // inclusive; the last step of the plan when the tensor is never freed

  bool operator==(const ArenaBlock&) const = default;
};

struct ArenaPlan {
  int32_t num_steps = 0;                 // length of the execution plan
  std::vector<TensorPlacement> tensors;  // indexed by tensor
  std::vector<ArenaBlock> rw_blocks;     // the non-persistent arena, in placement order
  std::vector<ArenaBlock> persistent_blocks;
  uint64_t arena_size = 0;             // high-water mark of the non-persistent arena (not rounded)
  uint64_t persistent_arena_size = 0;  // high-water mark of the persistent arena

  bool operator==(const ArenaPlan&) const = default;
};

// The smallest size any planner with aligned offsets could reach for the same blocks: at each
// step, the live blocks' sizes rounded up to the alignment, minus the largest rounding (the top
// block needs none); the maximum over steps.
struct ArenaLowerBound {
  uint64_t bytes = 0;
  int32_t peak_step = 0;  // the first step where `bytes` is reached

  bool operator==(const ArenaLowerBound&) const = default;
};

ArenaLowerBound LowerBound(const std::vector<ArenaBlock>& blocks, int32_t num_steps,
                           uint64_t alignment = kDefaultTensorAlignment);

// Checks what both planners rely on: every index in range, plan entries name existing nodes,
// every arena tensor has a known byte size. Errors name the subgraph, node and tensor.
[[nodiscard]] Status ValidateForArenaPlanning(const Subgraph& subgraph);

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_ARENA_PLAN_H_
