// Runs a model with exactly the arena plans libanalysis computes, every subgraph it reaches.
//
// Create takes a ModelPlan (or loads the model and plans it with the delegates' profiles): every
// subgraph as the plan leaves it, delegate kernels in, the kernels' Prepare memory effects
// (temporaries, persistent DEQUANTIZE outputs) applied. The entry subgraph (0, or a signature's)
// runs on its plan after AllocateTensors; a subgraph that WHILE, IF or CALL_ONCE calls runs on the
// plan upstream had when it ran it (the plan's after-first-Invoke memory where the plan has it,
// else its AllocateTensors memory). Each subgraph gets its own 64-byte-aligned arena and
// persistent arena of the planned size, every tensor at its planned offset; constants point into
// the mapped file; dynamic tensors, and tensors upstream points at the parent's buffers (WHILE
// body and IF branch inputs and outputs: no arena bytes), get buffers of their own, filled by
// copy. Each plan is checked (no two tensors live at the same step overlap) and every kernel's
// Prepare runs. Invoke runs the entry subgraph node by node; the control-flow nodes run their
// children (tflite/kernels/while.cc, if.cc, call_once.cc), resource variables live in the
// interpreter (resource_variables.h).
//
// With `own_buffers` no plan is used: every non-constant tensor of every subgraph gets a buffer of
// its own, so nothing can overwrite a live tensor. That is the reference run `--validate`
// compares outputs with, and the run that finds which branch an IF takes, how often a WHILE
// loops and the shapes its body ends with (RunStats::facts) for a plan that needs those facts.
//
// What it measures (RunStats): the arena bytes committed (the end of the highest placed tensor),
// the highest arena bytes each Invoke really wrote (from the memory, not the plan), the persistent
// arena, dynamic and scratch bytes, the bytes each delegate kernel reads from and writes to CPU
// tensors per Invoke, and the time of every node, for the entry subgraph; per subgraph, its
// committed arenas, the highest bytes it wrote and how often it ran.
//
// Shapes that change at run time (tflite/kernels/while.cc with a body whose state grows): a child
// whose inputs get other shapes is resized as ResizeInputTensor + AllocateTensors resize it (the
// output shapes from libanalysis's shape inference, the arena planned again and grown, the
// kernels prepared again), and a control-flow node's dynamic outputs take the shapes its child
// gave them. The nodes after a dynamic one are prepared and placed once it ran (upstream's
// PrepareOpsAndTensors in Subgraph::Invoke); dynamic tensors get buffers of their own.
// RunStats::facts then holds the shapes that differ from the model's (InvokeFacts::run_shapes).
// Not supported: a resized node whose kernel needs temporaries, a node without a shape rule.
#ifndef RUNTIME_INTERPRETER_H_
#define RUNTIME_INTERPRETER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/model/invoke_facts.h"
#include "libanalysis/plan/model_plan.h"
#include "runtime/delegate.h"
#include "runtime/kernel.h"
#include "runtime/model_data.h"
#include "runtime/partition_host.h"
#include "runtime/resource_variables.h"
#include "runtime/var_handle_names.h"
#include "runtime/write_guard.h"

namespace tfa::runtime {

struct InterpreterOptions {
  // Applied in order (their profiles are the plan's delegates); not owned, must outlive the
  // interpreter.
  std::vector<Delegate*> delegates;
  // How the plan is made when Create loads the model itself (a given plan has its own).
  ArenaPlannerOptions arena;
  // Fill each node's outputs with NaN bytes before it runs, so a plan that lets a live tensor be
  // overwritten, or a kernel that leaves an element unwritten, shows in the outputs.
  bool poison_outputs = true;
  // Debug mode: Invoke fails when a node of any subgraph changes a byte of its subgraph's arenas
  // outside its own outputs and temporaries (write_guard.h). Costs a copy and a compare of the
  // arenas per node.
  bool guard_writes = false;
  // Create refuses a model whose arenas, dynamic tensors and kernel scratch need more bytes.
  uint64_t memory_limit_bytes = kDefaultMemoryLimitBytes;
  // Threads the CPU kernels split their work over; results do not depend on it.
  int threads = 1;
  // The subgraph Invoke runs (a signature's); the others run when control flow calls them.
  int32_t entry_subgraph = 0;
  // Every non-constant tensor in a buffer of its own: no arena, no sharing, no plan.
  bool own_buffers = false;
  // Upstream's WHILE loops until its condition turns false, forever if it never does; a run
  // here stops with an error after this many iterations of one WHILE node in one Invoke.
  uint64_t max_loop_iterations = kDefaultMaxLoopIterations;
  // An Invoke that runs longer stops with an error at the next node (0: no limit).
  double time_limit_seconds = 0;

  static constexpr uint64_t kDefaultMemoryLimitBytes = uint64_t{1} << 30;
  static constexpr uint64_t kDefaultMaxLoopIterations = 1'000'000;
};

struct NodeTiming {
  int32_t node = -1;  // index in execution_graph().nodes
  std::string op;
  double microseconds = 0;
};

// Bytes crossing CPU/delegate boundaries during one Invoke, counted as the report counts them:
// a delegate kernel's inputs are copied to it (constants and persistent tensors only once, at
// Prepare: init_upload_bytes), its outputs are copied back.
struct CopyStats {
  uint64_t bytes_to_delegate = 0;
  uint64_t bytes_from_delegate = 0;
  uint64_t init_upload_bytes = 0;
  int32_t transitions = 0;
};

// One subgraph as it ran.
struct SubgraphRunStats {
  bool runnable = false;  // it has a plan to run on (or runs on buffers of its own)
  // Which of the plan's memories it runs on: "allocate" (after AllocateTensors), "invoke" (after
  // the first Invoke) or "own buffers".
  std::string memory;
  uint64_t arena_bytes = 0;             // committed non-persistent arena
  uint64_t persistent_arena_bytes = 0;  // committed persistent arena
  // One past the highest arena byte the Invokes so far really wrote (arena_watermark.h).
  uint64_t arena_bytes_written = 0;
  uint64_t persistent_bytes_written = 0;
  int32_t runs = 0;  // times it ran during the last Invoke
};

struct RunStats {
  uint64_t arena_bytes = 0;             // committed non-persistent arena
  uint64_t persistent_arena_bytes = 0;  // committed persistent arena
  // The entry subgraph's highest arena bytes really written, found from the memory: what the
  // plan's high-water marks are checked against (the committed sizes above are the plan's).
  uint64_t arena_bytes_written = 0;
  uint64_t persistent_bytes_written = 0;
  uint64_t dynamic_bytes = 0;  // dynamic tensors, allocated on their own
  // The kernels' shared scratch area: they do not use the planned temporaries (their layouts are
  // upstream's, not ours), which still occupy their planned arena bytes. Not a TFLite figure.
  uint64_t scratch_bytes = 0;
  CopyStats copies;                 // of the last Invoke
  std::vector<NodeTiming> timings;  // of the last Invoke, in execution order
  int32_t invocations = 0;
  std::vector<SubgraphRunStats> subgraphs;  // subgraph i of the model at i
  // What the last Invoke's control flow did: the condition each IF node saw last, how often each
  // WHILE body ran (last run of that node), the tensor shapes that differ from the model's.
  InvokeFacts facts;
};

class Interpreter {
 public:
  // Loads the model and plans it with the delegates' profiles.
  [[nodiscard]] static Result<std::unique_ptr<Interpreter>> Create(
      const std::string& model_path, const InterpreterOptions& options = {});
  // Runs a plan made already (e.g. the one `run` reports next to its measurements);
  // `options.delegates` must be the plan's delegates, in order.
  [[nodiscard]] static Result<std::unique_ptr<Interpreter>> Create(
      const ModelPlan& plan, const InterpreterOptions& options = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  [[nodiscard]] Status Invoke();

  // The entry subgraph's tensors (its inputs and outputs are the model's).
  RuntimeTensor& tensor(int32_t index) { return entry().tensors.at(static_cast<size_t>(index)); }
  const std::vector<RuntimeTensor>& tensors() const { return entry().tensors; }
  const std::vector<int32_t>& inputs() const { return entry().graph.inputs; }
  const std::vector<int32_t>& outputs() const { return entry().graph.outputs; }
  int32_t entry_subgraph() const { return entry_; }
  // The entry subgraph as it runs: delegate kernels appended, execution_plan final.
  const Subgraph& execution_graph() const { return entry().graph; }
  const ArenaPlan& arena_plan() const { return entry().plan; }
  const RunStats& stats() const { return stats_; }
  // What the Prepare replay could not model exactly (ReplayKernelPrepare's assumptions).
  const std::vector<std::string>& prepare_assumptions() const { return prepare_assumptions_; }

 private:
  enum class StepKind { kCpu, kDelegate, kControlFlow };
  struct Step {
    int32_t node = -1;
    StepKind kind = StepKind::kCpu;
    KernelContext context;
    const KernelRegistration* kernel = nullptr;  // a CPU node
    std::unique_ptr<DelegateKernel> delegate;    // a delegate kernel node
    bool copies_at_boundary = true;  // false: its delegate works on the tensors in place
    bool made_at_prepare = false;    // outputs computed once at Prepare; skipped by Invoke
    bool prepared = false;           // false after a dynamic node until it ran
  };
  struct AlignedFree {
    void operator()(uint8_t* p) const;
  };
  using Buffer = std::unique_ptr<uint8_t, AlignedFree>;
  // One subgraph's graph, plan, tensors and buffers.
  struct SubgraphState {
    int32_t index = 0;
    bool runnable = false;
    std::string not_runnable_reason;
    bool running = false;
    Subgraph graph;
    ArenaPlan plan;
    std::vector<RuntimeTensor> tensors;
    Buffer arena, persistent_arena;
    // The arenas' allocated bytes: a plan made at run time may need less than an earlier one.
    uint64_t arena_capacity = 0, persistent_capacity = 0;
    // By tensor: dynamic tensors, parent aliases, everything in own mode.
    std::vector<Buffer> own_buffers;
    std::vector<uint64_t> own_capacity;
    // Plan position of the first node with dynamic outputs: the nodes after it are prepared and
    // placed once it ran.
    std::optional<int32_t> planning_stops_at;
    // During a run: plan position of the next node with dynamic outputs (the planning stop, then
    // each one a Reshape finds, as upstream's PrepareOpsStartingAt stops at every such node).
    std::optional<int32_t> dynamic_stop;
    std::vector<bool> made_after_stop;  // by tensor: an output of a node after that one
    std::vector<std::vector<int32_t>> model_shapes;  // of the model's tensors, by tensor
    bool outputs_resized = false;       // a control-flow node just gave its outputs other shapes
    std::unique_ptr<WriteGuard> guard;  // set in guard_writes mode
    std::vector<Step> steps;
    // The end of the highest arena and persistent-arena tensor the Invokes so far wrote: the
    // subgraph's inputs and its steps' outputs, whatever their values (arena_watermark.h).
    uint64_t tensors_written_end = 0, persistent_tensors_written_end = 0;
  };

  static constexpr uint64_t kBufferAlignment = 64;

  Interpreter() = default;
  SubgraphState& entry() { return subgraphs_[static_cast<size_t>(entry_)]; }
  const SubgraphState& entry() const { return subgraphs_[static_cast<size_t>(entry_)]; }
  Status SetUpSubgraph(const ModelPlan& plan, int32_t index);
  // 64-byte aligned; 2 MiB-aligned and marked for huge pages from a megabyte up. Null on failure.
  static Buffer AllocateBuffer(uint64_t bytes);
  Status AllocateTensors(SubgraphState& s);
  Status PrepareSteps(SubgraphState& s, const InterpreterOptions& options, uint64_t& scratch);
  // Gives tensor `t` of `s` a new shape (a buffer of its own grows to fit).
  Status ResizeTensor(SubgraphState& s, int32_t t, const std::vector<int32_t>& shape);
  // The steps from plan position `first` on get their output shapes from the current ones, the
  // arena is planned again and the kernels prepared again.
  Status Reshape(SubgraphState& s, size_t first);
  Status PrepareDynamicStep(SubgraphState& s, Step& step);
  Status Replan(SubgraphState& s, size_t first);
  Status EnsureScratch(uint64_t bytes);
  void RecordRunShapes();
  Status PrepareControlFlow(const Node& node) const;
  Status PrepareStep(SubgraphState& s, Step& step);
  void CountCopies(const SubgraphState& s, const Step& step, CopyStats& copies,
                   bool at_prepare) const;
  Status CheckMemoryLimit(uint64_t scratch_bytes) const;
  static Status CheckWrites(const SubgraphState& s, const Step& step);
  static void WatchArenas(SubgraphState& s);
  // Counts tensor `t` of `s` as written, where an arena holds it.
  static void MarkWritten(SubgraphState& s, int32_t t);
  Status RunSubgraph(int32_t index);
  // "subgraph N", how the interpreter's messages name a subgraph.
  static std::string SubgraphName(int32_t subgraph);
  static std::string NodeName(const SubgraphState& s, int32_t node);
  Status EvalControlFlow(SubgraphState& s, Step& step);
  Status EvalWhile(SubgraphState& s, Step& step);
  Status EvalIf(SubgraphState& s, Step& step);
  // A called subgraph's outputs into the node's (resized first when their shapes differ).
  Status CopyCalleeOutputs(SubgraphState& s, Step& step,
                           const std::vector<const RuntimeTensor*>& values);
  // A control-flow node's output `t` takes the shape its child gave it (a dynamic tensor).
  Status ResizeOutput(SubgraphState& s, int32_t t, const std::vector<int32_t>& shape);
  // Copies `from` into tensor `t` of `s`. A string tensor, whose bytes depend on its contents,
  // first takes `from`'s size, as tflite/kernels/control_flow_common.h reallocates a dynamic
  // destination before TfLiteTensorCopy.
  Status CopyIntoTensor(SubgraphState& s, int32_t t, const RuntimeTensor& from,
                        const std::string& what);
  // Copies `values` into subgraph `index`'s inputs, runs it, and returns its outputs.
  Result<std::vector<const RuntimeTensor*>> CallSubgraph(
      int32_t index, const std::vector<const RuntimeTensor*>& values);

  std::unique_ptr<ModelData> model_data_;
  std::vector<SubgraphState> subgraphs_;
  int32_t entry_ = 0;
  Buffer scratch_;
  ArenaPlannerOptions arena_options_;  // the plan's, for plans made at run time
  bool own_buffers_ = false;
  bool poison_outputs_ = true;
  uint64_t memory_limit_bytes_ = 0;
  uint64_t max_loop_iterations_ = InterpreterOptions::kDefaultMaxLoopIterations;
  double time_limit_seconds_ = 0;
  std::chrono::steady_clock::time_point deadline_;  // of the Invoke running, with a time limit
  // Set for more than one thread.
  std::unique_ptr<KernelThreadPool> thread_pool_;
  std::vector<std::string> prepare_assumptions_;
  ResourceVariables variables_;
  VarHandleNames var_handle_names_;
  // What delegate kernels ask of the interpreter (partition_host.h).
  class Host : public PartitionHost {
   public:
    explicit Host(Interpreter& interpreter) : interpreter_(interpreter) {}
    Status WriteVarHandle(int32_t subgraph, int32_t node, RuntimeTensor& handle) override;
    ResourceVariables& Variables() override { return interpreter_.variables_; }
    ModelSubgraph Graph(int32_t index) const override;

   private:
    Interpreter& interpreter_;
  };
  Host host_{*this};
  std::vector<PartitionHost::ModelSubgraph> model_graphs_;  // every subgraph of the plan
  std::vector<NodeRef> called_once_;  // CALL_ONCE nodes that ran their init subgraph
  CopyStats copies_;                  // of the Invoke under way
  std::vector<NodeTiming> timings_;   // of the Invoke under way
  RunStats stats_;
};

// Errors unless `delegates`, less those the interpreter took back (ModelPlan::delegate_failures),
// are the plan's delegates, in order, with distinct names.
[[nodiscard]] Status CheckDelegatesMatchPlan(const ModelPlan& plan,
                                             const std::vector<Delegate*>& delegates);

// Every pair of arena blocks whose step ranges overlap must not overlap in bytes: the property
// that makes the shared arena safe. Errors name both tensors. O(blocks log blocks).
[[nodiscard]] Status CheckArenaPlanDisjoint(const ArenaPlan& plan);

}  // namespace tfa::runtime

#endif  // RUNTIME_INTERPRETER_H_
