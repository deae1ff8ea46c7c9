// The interpreter state that two phases replay in turn, one class with its phases in two files:
// control_flow_prepare.cc from loading to the end of AllocateTensors, control_flow_invoke.cc one
// Invoke after it. Internal to libanalysis/prepare: callers use ReplayModelMemory and
// ReplayFirstInvoke.
#ifndef LIBANALYSIS_PREPARE_MODEL_MEMORY_REPLAY_H_
#define LIBANALYSIS_PREPARE_MODEL_MEMORY_REPLAY_H_

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/control_flow_invoke.h"
#include "libanalysis/prepare/control_flow_prepare.h"
#include "libanalysis/prepare/kernel_prepare.h"

namespace tfa::replay_internal {

// Upstream's Subgraph::State.
enum class Stage : uint8_t { kUninvokable, kInvokable, kImmutable };

struct SubgraphState {
  Subgraph graph;  // as it stands: delegated or not, with the control-flow effects applied
  Stage stage = Stage::kUninvokable;
  bool has_dynamic_tensors = false;
  std::optional<int32_t> dynamic_stop;  // of the last preparation
  int32_t dynamic_tensor = -1;          // upstream's dynamic_tensor_index_: the first one found
  bool allocating = false;              // guards against a subgraph planning itself
  SubgraphMemory memory;
  size_t notes_before_invoke = 0;  // memory.notes written before Invoke started
};

bool IsDynamic(const Subgraph& graph, int32_t tensor);
bool IsResourceOrVariant(const Tensor& tensor);

class ModelMemoryReplay {
 public:
  ModelMemoryReplay(const Model& model, const PrepareOptions& options);

  // Delegation, then AllocateTensors on subgraph 0 (control_flow_prepare.cc).
  Status AllocateModel(const std::vector<ModelDelegate>& delegates);
  // Subgraph 0's first Invoke (control_flow_invoke.cc). When the run needs a fact `facts` lacks,
  // fills `missing_fact` and stops where upstream would have read it.
  Status InvokeModel(const InvokeFacts& facts, std::vector<std::string>& facts_used,
                     std::optional<MissingFact>& missing_fact);
  // Every subgraph's memory as it stands; `invoke_notes_only` keeps the notes Invoke wrote.
  std::vector<SubgraphMemory> Snapshot(bool invoke_notes_only) const;

 private:
  // control_flow_prepare.cc
  Result<bool> ModifyGraphWithDelegate(int32_t s, const ModelDelegate& delegate);
  Status AllocateTensors(int32_t s, const std::string& planner);
  Status PlanAndCommit(int32_t s, const std::string& planner);
  Status PrepareOps(int32_t s);
  Status PrepareOpsFrom(int32_t s, int32_t first);
  Status PrepareNode(int32_t s, int32_t node_index);
  Status CheckSubgraphIndex(int32_t parent, int32_t child, const char* role) const;
  void CopyShapesToInputs(const Subgraph& parent, std::span<const int32_t> sources, int32_t child);
  void SetOutputs(int32_t s, int32_t node_index, bool dynamic, int32_t shapes_from,
                  const std::vector<int32_t>& child_outputs);
  std::string Caller(const char* op, int32_t s, int32_t node_index) const;
  Status PrepareWhile(int32_t s, int32_t node_index);
  Status PrepareIf(int32_t s, int32_t node_index);
  Status PrepareComposite(int32_t s, int32_t node_index);

  // control_flow_invoke.cc
  Status InvokeSubgraph(int32_t s);
  Status PlanAfterDynamicNode(int32_t s, int32_t position);
  Status EvalWhile(int32_t s, int32_t node_index);
  Status EvalIf(int32_t s, int32_t node_index);
  Status EvalCallOnce(int32_t s, int32_t node_index);
  Status EvalComposite(int32_t s, int32_t node_index);
  void ReleaseNonPersistentMemory(int32_t s, const std::string& releaser);
  Status ApplyRunShapes(int32_t s,
                        const std::string& fact);  // `fact`: what is missing without them
  Status NeedFact(MissingFact::Kind kind, NodeRef where, std::string description);

  const PrepareOptions& options_;
  std::vector<SignatureDef> signatures_;
  std::vector<SubgraphState> states_;
  // Set for the Invoke phase only.
  const InvokeFacts* facts_ = nullptr;
  std::vector<std::string>* facts_used_ = nullptr;
  std::optional<MissingFact>* missing_fact_ = nullptr;
  std::set<int32_t> initialized_;  // CALL_ONCE init subgraphs already run
};

}  // namespace tfa::replay_internal

#endif  // LIBANALYSIS_PREPARE_MODEL_MEMORY_REPLAY_H_
