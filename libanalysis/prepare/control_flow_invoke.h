// Replays what upstream's first Invoke does to every subgraph's memory after AllocateTensors
// (control_flow_prepare.h), for models with WHILE, IF and CALL_ONCE:
//   - IF (tflite/kernels/if.cc) runs one branch. With static outputs it first points the branch's
//     outputs at its own (custom allocation, no arena bytes); resizing the branch inputs then
//     re-plans the branch, so its plan shrinks by its outputs. After the branch ran it is released.
//   - WHILE (while.cc) runs cond and body until cond says stop, then releases both. A body with
//     static shapes keeps the plan Prepare made; a body whose output shapes change is re-planned
//     every iteration, so what stays is the plan of its last iteration.
//   - CALL_ONCE (call_once.cc) plans its init subgraph, runs it and frees its non-persistent part:
//     the persistent arena (variable handles) stays.
//   - A subgraph whose planning stopped at a dynamic node plans the rest once that node has run.
// "Released" (Subgraph::ReleaseMemory / ReleaseNonPersistentMemory) frees the non-persistent
// buffer: its size reads 0 while the plan, hence the high-water mark, stays. A subgraph that never
// ran keeps what AllocateTensors gave it.
//
// What depends on input values is a fact the caller gives (InvokeFacts), never a guess: which
// branch an IF takes, how often a WHILE loops where that matters (a static body without control
// flow inside looks the same after 1 or 100 iterations; 0 iterations leave a body's nested
// control flow unrun), and the shapes a dynamic body's tensors had in its last iteration (the
// analyser does no shape inference: kernel Prepare keeps the model's shapes). When the run reaches
// a fact it lacks, the replay stops and says which one (FirstInvokeMemory::undetermined).
//
// Not exact: after a dynamic node, upstream places the tensors still to plan around the blocks
// already placed (ArenaPlanner::ExecuteAllocations on the remaining nodes); here the whole
// subgraph is planned again with the new shapes, and an assumption is written when that moved a
// block placed before the dynamic node.
#ifndef LIBANALYSIS_PREPARE_CONTROL_FLOW_INVOKE_H_
#define LIBANALYSIS_PREPARE_CONTROL_FLOW_INVOKE_H_

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/model/invoke_facts.h"
#include "libanalysis/prepare/control_flow_prepare.h"
#include "libanalysis/prepare/kernel_prepare.h"

namespace tfa {

struct FirstInvokeMemory {
  std::vector<SubgraphMemory> after_allocate;  // what ReplayModelMemory returns
  // After the Invoke, subgraph i at i; `notes` hold what Invoke did to it. Empty when undetermined.
  std::vector<SubgraphMemory> after_invoke;
  std::optional<MissingFact> undetermined;  // the fact the run needed and `facts` lacked
  std::vector<std::string> facts_used;  // one line per fact the run read, in the order it read them
};

// Errors unless every fact names what the model has: an IF or WHILE node, a tensor of a subgraph;
// iteration counts and shape dimensions must not be negative. A caller can check facts before any
// replay (e.g. for a model with one subgraph, which has nothing to read them).
[[nodiscard]] Status CheckInvokeFacts(const Model& model, const InvokeFacts& facts);

// Errors are CheckInvokeFacts's, ReplayModelMemory's, and a run shape with no byte size. Facts the
// run never reads are ignored.
[[nodiscard]] Result<FirstInvokeMemory> ReplayFirstInvoke(
    const Model& model, const std::vector<ModelDelegate>& delegates, const PrepareOptions& options,
    const InvokeFacts& facts);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_CONTROL_FLOW_INVOKE_H_
