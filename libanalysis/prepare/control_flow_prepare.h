// Replays, for a whole model, what upstream's interpreter does to every subgraph's memory from
// loading to the end of AllocateTensors, so models with WHILE, IF and CALL_ONCE get each
// subgraph's arena as upstream has it:
//   1. each delegate is applied to every subgraph in turn (Interpreter::ModifyGraphWithDelegate):
//      a delegate without kTfLiteDelegateFlagsAllowDynamicTensors first prepares the subgraph
//      (whose WHILE / IF nodes plan their children then, still undelegated), stops with an
//      application error at the first subgraph with dynamic tensors (that subgraph and the ones
//      after it keep their plan), and otherwise re-plans the subgraph after delegating it;
//   2. AllocateTensors on subgraph 0 prepares and plans it; its WHILE and IF nodes plan their child
//      subgraphs in their own Prepare (nested ones too). A subgraph already planned is not
//      planned again (upstream's AllocateTensors returns early on an invokable subgraph);
//   3. each signature's runner then allocates its subgraph (in the file's signature order), as
//      a user of every signature (an LLM's prefill and decode) does.
// Every subgraph has its own arenas. An arena buffer only grows (SimpleMemoryArena), so a subgraph
// planned before and after delegation reports the larger of both plans as its size.
//
// What the control-flow kernels' Prepare does (tflite/kernels/while.cc, if.cc, call_once.cc):
//   - WHILE cond and IF branch inputs nothing reads are dropped (-1, 0 bytes);
//   - WHILE body and IF branch inputs alias the parent's buffers (custom allocation, no arena);
//     WHILE cond inputs stay arena tensors (filled by copy);
//   - a WHILE output whose body passes the input straight through and that the parent never reads
//     is dropped (-1) and never allocated;
//   - WHILE / IF outputs take the body / then-branch output shapes, or become dynamic when the
//     body changes a shape or the branches disagree; planning of the parent then stops at that
//     node (the interpreter plans the rest at Invoke);
//   - CALL_ONCE plans its init subgraph only when it runs, so AllocateTensors leaves it unplanned.
// Resource variables: VAR_HANDLE's output becomes a 4-byte persistent handle; READ_VARIABLE of a
// scalar makes its output dynamic (tflite/kernels/var_handle.cc, read_variable.cc).
// What the first Invoke does after this is control_flow_invoke.h.
#ifndef LIBANALYSIS_PREPARE_CONTROL_FLOW_PREPARE_H_
#define LIBANALYSIS_PREPARE_CONTROL_FLOW_PREPARE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/kernel_prepare.h"

namespace tfa {

// One delegate as the interpreter applies it to the whole model.
struct ModelDelegate {
  std::string name;
  bool allows_dynamic_tensors = false;  // kTfLiteDelegateFlagsAllowDynamicTensors (XNNPACK)
  // Returns `current` (subgraph `subgraph_index` as it stands) with the delegate's kernels in.
  std::function<Result<Subgraph>(int32_t subgraph_index, const Subgraph& current)> apply;
};

// One subgraph's memory after AllocateTensors.
// A delegate upstream's ModifyGraphWithDelegate refused on a subgraph with kTfLiteApplicationError
// before offering it a node: the delegate only supports static-sized tensors, and Prepare made a
// tensor dynamic. The interpreter goes on without it, for this subgraph and the ones after it.
struct DelegateRefusal {
  std::string delegate;
  int32_t dynamic_tensor = -1;  // the tensor upstream's warning names
  std::string message;          // upstream's warning
};

struct SubgraphMemory {
  bool planned = false;
  // The graph the last plan was made on (control-flow and kernel Prepare effects applied); when
  // never planned, the subgraph as it stands. Never null once made. Shared, not copied, where it
  // is the same graph as another (a Graph JSON subgraph is planned as delegation left it): a
  // million-node graph is hundreds of megabytes per copy.
  std::shared_ptr<const Subgraph> prepared;
  std::vector<std::string> assumptions;  // the kernel Prepare replay's, for the last plan
  ArenaPlan plan;                        // the last plan
  // The committed buffers: the largest high-water marks over all plans since the buffer was last
  // released. The high-water marks themselves are the last plan's (plan.arena_size and
  // plan.persistent_arena_size: upstream's ClearPlan resets them on each plan).
  uint64_t arena_size = 0;
  uint64_t persistent_arena_size = 0;
  int32_t plan_count = 0;
  // Plan position of the first node with dynamic outputs: nothing after it is planned yet.
  std::optional<int32_t> planning_stops_at;
  int32_t delegates_applied = 0;
  std::vector<std::string> notes;  // who planned it, or why not; delegates not applied
  std::vector<DelegateRefusal> refused_delegates;
  // After an Invoke (control_flow_invoke.h): whether it ran, and whether its non-persistent
  // buffer was then released (arena_size 0; `plan`, hence the high-water marks, kept).
  bool invoked = false;
  bool released = false;
};

// Subgraph i of the result is subgraph i of `model`. Errors name the subgraph, the node and the
// reason (a control-flow node upstream's Prepare would reject, e.g. mismatched input counts).
[[nodiscard]] Result<std::vector<SubgraphMemory>> ReplayModelMemory(
    const Model& model, const std::vector<ModelDelegate>& delegates, const PrepareOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_CONTROL_FLOW_PREPARE_H_
