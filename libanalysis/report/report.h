// The Report: plain data the CLI, the visualizers and the runtime's validation read, made from a
// ModelPlan (libanalysis/plan/model_plan.h) by BuildReport. Its JSON form
// (report_json.h) is the stable contract of docs/report-json.md.
#ifndef LIBANALYSIS_REPORT_REPORT_H_
#define LIBANALYSIS_REPORT_REPORT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/core/shared_string.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/model/invoke_facts.h"
#include "libanalysis/model/runtime_version.h"
#include "libanalysis/report/accelerator_segments.h"
#include "libanalysis/report/delegate_memory.h"
#include "libanalysis/report/resident_memory.h"

namespace tfa {

// A million of them when a delegate claims every other node (issue 46): the lists inline for a
// few ids, the delegate's name shared by the partitions it runs.
struct PartitionReport {
  enum class Kind : uint8_t { kCpu, kDelegate };
  Kind kind = Kind::kCpu;
  // The delegate works on TFLite's buffers where they lie (XNNPACK): nothing is copied in or
  // out, and the three byte figures are 0 (docs/copy-costs.md).
  bool in_place = false;
  SharedString delegate;  // delegate name, kDelegate only
  SubsetIds nodes;        // original model node indices
  SubsetIds inputs;       // sorted, unique (kDelegate: the delegate kernel's inputs)
  SubsetIds outputs;
  uint64_t bytes_to_delegate = 0;  // non-constant inputs copied in on every inference
  uint64_t bytes_from_delegate = 0;
  uint64_t init_upload_bytes = 0;  // constants the delegate consumes, uploaded once
};

// A node a delegate rejected. The op, the delegate and the reason are shared with the other
// nodes that have the same (half a million "op not listed in ops=ADD" in a large graph).
struct UnsupportedNode {
  int32_t node = 0;
  SharedString op;
  SharedString delegate;
  SharedString reason;
};

// A node no kernel resolves (a Flex op without the Flex delegate).
struct UnresolvedOp {
  int32_t node = 0;
  std::string op;
};

// Per subgraph, what crosses between the host and the delegates or accelerators
// (docs/copy-costs.md). An accelerator custom op (the Edge TPU's) is counted as a delegated
// partition is: its inputs in bytes_to_delegate, its outputs in bytes_from_delegate, a switch to
// the chip and one back in transitions; the accelerator_* figures are its part of the totals.
struct CopyCost {
  uint64_t bytes_to_delegate = 0;
  uint64_t bytes_from_delegate = 0;
  uint64_t transitions = 0;
  uint64_t init_upload_bytes = 0;
  uint64_t accelerator_bytes_in = 0;
  uint64_t accelerator_bytes_out = 0;
};

// What the execution plan runs at one step, in model terms.
struct PlanStepNode {
  int32_t node = -1;  // the model's node index; -1 for a delegate kernel
  std::string op;     // its op, or the delegate's name for a delegate kernel
  bool delegate_kernel = false;
};

// One per arena tensor, a million in a large graph: small fields first, so that they pack, and
// the rare owner of a kernel temporary out of line, shared by that node's temporaries.
struct ArenaAllocation {
  int32_t tensor = 0;
  int32_t first_step = 0;  // positions in the execution plan the arena was planned on
  int32_t last_step = 0;
  std::optional<int32_t> shares_buffer_of;
  bool persistent = false;
  uint64_t offset = 0;
  uint64_t size = 0;
  std::shared_ptr<const PlanStepNode> temporary_of;  // kernel temporaries: the node that adds it
};

struct ArenaReport {
  uint64_t size = 0;
  uint64_t persistent_size = 0;
  uint64_t lower_bound = 0;
  // The plan step where the lower bound is reached (JSON: `peak_step`, and `peak_node` as the
  // contract first named it), and what runs there.
  int32_t peak_step = 0;
  PlanStepNode peak_at;
  std::vector<ArenaAllocation> allocs;
  std::vector<std::string> assumptions;  // e.g. ops whose temporaries are estimated
  // Models with several subgraphs (libanalysis/prepare/control_flow_prepare.h): a subgraph may be
  // planned more than once (its buffer, `size`, keeps the largest plan) or not at all.
  bool planned = true;                            // false: AllocateTensors leaves it unplanned
  uint64_t high_water_mark = 0;                   // of the last plan; `allocs` are that plan's
  std::optional<int32_t> planning_stops_at_node;  // plan position of the first dynamic node
  std::vector<std::string> notes;                 // who planned it, or why not
};

// One subgraph after the first Invoke (libanalysis/prepare/control_flow_invoke.h). `arena.size`
// and `arena.persistent_size` are the buffers as they stand (size 0 once released);
// `arena.high_water_mark` and `allocs` are the last plan's.
struct AfterInvokeReport {
  ArenaReport arena;
  uint64_t persistent_high_water_mark = 0;
  bool invoked = false;
  bool released = false;
};

// The first Invoke of a model with control flow, as a whole.
struct InvokeReport {
  std::vector<std::string> facts_used;  // the input-dependent facts the replay read
  // The fact the replay needed and was not given; the subgraphs then carry no after_invoke.
  std::optional<MissingFact> undetermined;
};

// A delegate upstream's ModifyGraphWithDelegate refused on a subgraph before offering it a node
// (it supports static-sized tensors only, and the subgraph has a dynamic one): the subgraph and
// the ones after it run without it.
struct DelegateRefusalReport {
  std::string delegate;
  int32_t dynamic_tensor = -1;  // the tensor upstream's warning names
  std::string reason;           // upstream's warning
};

struct SubgraphReport {
  int32_t index = 0;
  size_t nodes = 0;
  std::vector<PartitionReport> partitions;
  int32_t delegated_partition_count = 0;
  CopyCost copy;
  std::vector<UnsupportedNode> unsupported;
  std::optional<ArenaReport> arena;               // on the plan after delegation
  std::optional<ArenaReport> arena_cpu_only;      // on the plain CPU plan; no `allocs`
  std::optional<AfterInvokeReport> after_invoke;  // models with control flow only
  // Memory each applied delegate owns outside the arena (delegate_memory.h), in delegate order.
  std::vector<DelegateMemory> delegate_memory;
  // Accelerator custom ops (the Edge TPU's) and the CPU remainder (accelerator_segments.h).
  std::optional<AcceleratorReport> accelerators;
  // Nodes upstream's AllocateTensors cannot resolve; the arenas above assume they were.
  std::vector<UnresolvedOp> unresolved_ops;
  std::vector<DelegateRefusalReport> refused_delegates;  // in the order they were refused
};

// One entry point of the model (an LLM's `prefill` and `decode`): the subgraph it runs and its
// inputs and outputs by signature key, in the file's order.
struct SignatureReport {
  std::string key;
  int32_t subgraph = 0;
  std::vector<std::pair<std::string, int32_t>> inputs;  // signature key -> tensor index
  std::vector<std::pair<std::string, int32_t>> outputs;
};

// What the interpreter holds once AllocateTensors ran: every subgraph has its arenas of its own
// (a subgraph never planned holds none), so the model's memory is their sum.
struct InterpreterTotals {
  uint64_t arena_bytes = 0;
  uint64_t persistent_bytes = 0;
  int32_t subgraphs_planned = 0;
  uint64_t delegate_bytes = 0;          // what the delegates own (SubgraphReport::delegate_memory)
  uint64_t constant_bytes = 0;          // the model's weights, mapped from the file once
  bool delegate_bytes_unknown = false;  // some delegate's memory is unknown (NNAPI's driver)
  // What upstream's process holds for the model after one Invoke (resident_memory.h): the sum
  // of the known terms, a lower bound when some term is unknown.
  uint64_t resident_bytes = 0;
  std::vector<ResidentTerm> resident_terms;
  bool resident_unknown = false;
};

// A delegate the interpreter took back because a kernel it created failed its init
// (ModelPlan::delegate_failures): every figure of the report is without it.
struct DelegateFailureReport {
  std::string delegate;
  int32_t subgraph = 0;
  std::vector<int32_t> nodes;             // the failed kernel's nodes
  std::string reason;                     // upstream's message
  std::vector<std::string> log;           // upstream's log lines, from the init to the restore
  std::vector<std::string> also_removed;  // delegates applied before it, removed with it
};

struct Report {
  std::string model;
  std::string tool_version;
  std::vector<std::string> delegates;  // in the order the interpreter applies them
  // Why a delegate moved in that order or was not applied (ModelPlan::delegation_notes).
  std::vector<std::string> delegation_notes;
  // Delegates refused by the interpreter; `delegates` lists only those applied in the end.
  std::vector<DelegateFailureReport> delegate_failures;
  // Why upstream's AllocateTensors fails on this model (unresolved ops); the figures stand for
  // the model with those ops resolved.
  std::optional<std::string> allocate_tensors_failure;
  // Per delegate, its profile's trust label (ProfileTrustName: "verified", "transcribed", "user").
  std::vector<std::string> delegate_trust;
  std::vector<SignatureReport> signatures;
  std::vector<SubgraphReport> subgraphs;
  std::optional<InterpreterTotals> interpreter;  // when the arenas were planned
  std::optional<InvokeReport> invoke;            // models with control flow only
  // The oldest TFLite runtime whose op resolver has every op at the version the model needs.
  RuntimeVersionRequirement runtime_version;
};

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_REPORT_H_
