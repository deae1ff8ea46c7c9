// The one answer to "what does TFLite do with this model and these delegates": ModelPlan.
//
// PlanModel runs the whole pipeline once, for every subgraph:
//   1. the delegates apply one after another, as upstream's ModifyGraphWithDelegate applies them
//      (node verdicts under each profile, the delegate-side node choice, then
//      ReplaceNodeSubsetsWithDelegateKernels on the plan the earlier delegates left);
//   2. the kernels' Prepare replay (temporaries, persistent DEQUANTIZE outputs, delegate kernels'
//      tensors) and the arenas, as AllocateTensors leaves them; for .tflite models with several
//      subgraphs, WHILE / IF / CALL_ONCE planning their children and what the first Invoke does
//      (control_flow_prepare.h, control_flow_invoke.h);
//   3. the same for the model with no delegate (the CPU-only arena the report compares with).
// report, the advisor, gate, diff, the visualizers and the runtime all read a ModelPlan; none of
// them calls the partitioner, the Prepare replay or the arena planner itself.
//
// Graph JSON models state each node's temporaries and in-place flags, and describe a planner-level
// graph (upstream's ArenaPlanner over the whole plan, no interpreter around it): their subgraphs
// are delegated and planned one by one, without the kernel Prepare replay and the control-flow
// interpreter, which .tflite models have (and Graph JSON written by `convert`:
// Model::kernel_prepare).
#ifndef LIBANALYSIS_PLAN_MODEL_PLAN_H_
#define LIBANALYSIS_PLAN_MODEL_PLAN_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/shared_string.h"
#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/model/runtime_version.h"
#include "libanalysis/prepare/control_flow_invoke.h"
#include "libanalysis/prepare/control_flow_prepare.h"
#include "libanalysis/prepare/kernel_prepare.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {

struct PlanOptions {
  // As the command line lists them; applied in the interpreter's order (delegate_order.h).
  std::vector<DelegateProfile> delegates;
  // False: delegation only (no Prepare replay, no arenas), e.g. for a partition picture.
  bool plan_arena = true;
  // Models with control flow: the input-dependent facts of the first Invoke.
  InvokeFacts invoke_facts;
  // The interpreter's planner options (upstream's preserve_all_tensors).
  ArenaPlannerOptions arena;
  // How TFLite was built, where kernels' Prepare depends on it (--platform, --num-threads).
  KernelBuild build;
  // Keep, per subgraph, the graph each delegate was shown (SubgraphPlan::delegate_inputs), which
  // the advisor re-selects on. Off by default: a copy of the subgraph per delegate.
  bool keep_delegate_inputs = false;
};

// A node a delegate's profile rejected, with the profile's reason. The texts are shared with the
// other rejected nodes that have the same (half a million in a large graph, issue 46).
struct RejectedNode {
  int32_t node = 0;
  SharedString op;
  SharedString delegate;
  SharedString reason;
};

struct SubgraphPlan {
  int32_t index = 0;
  size_t model_nodes = 0;  // nodes of the model's subgraph, before any delegate kernel
  // The subgraph after every delegate: one kDelegateKernel node per delegated subset appended,
  // the fp16 helper's input remaps applied, `execution_plan` final. No Prepare effects. Never
  // null; `memory->prepared` shares it when Prepare changes nothing (Graph JSON).
  std::shared_ptr<const Subgraph> delegated;
  // The partitioning the last delegate that claimed nodes made (empty: none did), and the index
  // in `delegated.nodes` of the kernel of each of its delegate subsets, in subset order.
  std::vector<NodeSubset> last_subsets;
  std::vector<int32_t> last_kernel_nodes;
  std::vector<RejectedNode> rejected;
  // With PlanOptions::keep_delegate_inputs: the subgraph as delegate k found it, at k.
  std::vector<Subgraph> delegate_inputs;
  // The memory after AllocateTensors (PlanOptions::plan_arena): the graph the arena was planned
  // on (Prepare effects in), the plan, the committed buffer sizes.
  std::optional<SubgraphMemory> memory;
  // The same with no delegate (equal to `memory` when there is none).
  std::optional<SubgraphMemory> cpu_only_memory;
  // Models with control flow, when the first Invoke's facts were all known.
  std::optional<SubgraphMemory> after_invoke;
  // Flex ops no delegate took, in plan order: no kernel resolves them, so upstream's
  // AllocateTensors returns kTfLiteUnresolvedOps (tflite/core/subgraph.cc, OpPrepare). The memory
  // above is planned as if they were resolved.
  std::vector<int32_t> unresolved_flex_nodes;
};

// The first Invoke of a model with control flow.
struct InvokePlan {
  std::vector<std::string> facts_used;
  std::optional<MissingFact> undetermined;
};

// A delegate the interpreter took back: a kernel it created failed its init (the GPU delegate
// builds its GPU graph there, profiles/gpu_kernel_init.h), so the kernel's Prepare failed, the
// subgraph restored its original execution plan and ModifyGraphWithDelegate returned
// kTfLiteDelegateError, on which the interpreter removes every delegate applied so far from every
// subgraph (tflite/core/subgraph.cc, interpreter.cc RemoveAllDelegates). The model then runs as
// if the delegate had never been given; delegates given after it apply to the restored model.
struct DelegateFailure {
  std::string delegate;
  int32_t subgraph = 0;
  std::vector<int32_t> nodes;    // the failed kernel's nodes
  std::string reason;            // upstream's message ("FULLY_CONNECTED: Amount of input ...")
  std::vector<std::string> log;  // upstream's log lines, from the init to the restore
  std::vector<std::string> also_removed;  // delegates applied before it, removed with it
};

struct ModelPlan {
  std::string model_path;
  std::string model_format;                   // "tflite" or "graph-json"
  std::vector<DelegateProfile> delegates;     // as applied, in the interpreter's order
  std::vector<std::string> delegation_notes;  // why a delegate moved or was not applied
  // Delegates the interpreter took back, in the order they failed; `delegates` lists only those
  // applied in the end.
  std::vector<DelegateFailure> delegate_failures;
  PrepareOptions prepare_options;             // what the delegates' kernels do in Prepare
  std::vector<SignatureDef> signatures;       // the model's entry points, as the file lists them
  uint64_t constant_bytes = 0;                // the model's weights, each buffer once
  std::vector<SubgraphPlan> subgraphs;        // subgraph i of the model at i
  std::optional<InvokePlan> invoke;           // models with control flow only
  RuntimeVersionRequirement runtime_version;  // the oldest runtime whose ops run the model
};

// What the applied delegates' kernels do in Prepare: the GPU delegate's kernel adds float twins of
// quantized tensors; a delegate that allows dynamic tensors (XNNPACK) is applied before any CPU
// Prepare (kernel_prepare.h).
PrepareOptions PrepareOptionsFor(const std::vector<DelegateProfile>& profiles);

// Errors name the model, the subgraph, the node and the reason: invoke facts naming what the
// model lacks, a node selection or partitioning upstream would reject, a Prepare that fails.
[[nodiscard]] Result<ModelPlan> PlanModel(const Model& model, const PlanOptions& options);
// The same, with the plan sharing the model's subgraphs where it needs them unchanged instead of
// copying them (a million-node subgraph is hundreds of megabytes); the plan keeps `model` alive.
[[nodiscard]] Result<ModelPlan> PlanModel(std::shared_ptr<const Model> model,
                                          const PlanOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_PLAN_MODEL_PLAN_H_
