// Runs subgraph 0 of a model with exactly the arena plan libanalysis computes.
//
// Create: loads the model, maps its constants, applies the delegates one after another through
// libanalysis's ReplaceNodeSubsetsWithDelegateKernels (after the input remaps a delegate asks
// for, as upstream's FP16 helper leaves them), replays the kernels' Prepare memory effects
// with ReplayKernelPrepare (temporaries, persistent DEQUANTIZE outputs), plans the arena with
// PlanArena on the final execution plan, allocates ONE 64-byte-aligned arena buffer of the planned
// size (and a persistent one) and points every tensor at its planned offset; constants point into
// the mapped file; dynamic tensors get their own buffers. It then checks the plan (no two tensors
// live at the same step overlap) and runs every kernel's Prepare. Invoke runs the execution plan
// node by node.
//
// What it measures (RunStats): the arena bytes really committed (the end of the highest placed
// tensor, which must equal the plan's high-water mark), the persistent arena, dynamic and scratch
// bytes, the bytes each delegate kernel reads from and writes to CPU tensors per Invoke, and the
// time of every node.
//
// Not supported: control flow (subgraphs other than 0 are never run; a WHILE/IF node has no
// kernel), tensors resized at run time.
#ifndef RUNTIME_INTERPRETER_H_
#define RUNTIME_INTERPRETER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libanalysis/arena/arena_plan.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/plan/model_plan.h"
#include "runtime/delegate.h"
#include "runtime/kernel.h"
#include "runtime/model_data.h"
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
  // Debug mode: Invoke fails when a node changes any arena byte outside its own outputs and
  // temporaries (write_guard.h). Costs a copy and a compare of the arenas per node.
  bool guard_writes = false;
  // Create refuses a model whose arenas, dynamic tensors and kernel scratch need more bytes.
  uint64_t memory_limit_bytes = kDefaultMemoryLimitBytes;
  // Threads the CPU kernels split their work over; results do not depend on it.
  int threads = 1;

  static constexpr uint64_t kDefaultMemoryLimitBytes = uint64_t{1} << 30;
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

struct RunStats {
  uint64_t arena_bytes = 0;             // committed non-persistent arena
  uint64_t persistent_arena_bytes = 0;  // committed persistent arena
  uint64_t dynamic_bytes = 0;           // dynamic tensors, allocated on their own
  // The kernels' shared scratch area: they do not use the planned temporaries (their layouts are
  // upstream's, not ours), which still occupy their planned arena bytes. Not a TFLite figure.
  uint64_t scratch_bytes = 0;
  CopyStats copies;                 // of the last Invoke
  std::vector<NodeTiming> timings;  // of the last Invoke, in execution order
  int32_t invocations = 0;
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

  RuntimeTensor& tensor(int32_t index) { return tensors_.at(static_cast<size_t>(index)); }
  const std::vector<RuntimeTensor>& tensors() const { return tensors_; }
  const std::vector<int32_t>& inputs() const { return graph_.inputs; }
  const std::vector<int32_t>& outputs() const { return graph_.outputs; }
  // Subgraph 0 as it runs: delegate kernels appended, execution_plan final.
  const Subgraph& execution_graph() const { return graph_; }
  const ArenaPlan& arena_plan() const { return plan_; }
  const RunStats& stats() const { return stats_; }
  // What the Prepare replay could not model exactly (ReplayKernelPrepare's assumptions).
  const std::vector<std::string>& prepare_assumptions() const { return prepare_assumptions_; }

 private:
  struct Step {
    int32_t node = -1;
    KernelContext context;
    const KernelRegistration* kernel = nullptr;  // a CPU node
    std::unique_ptr<DelegateKernel> delegate;    // a delegate kernel node
  };
  struct AlignedFree {
    void operator()(uint8_t* p) const;
  };
  using Buffer = std::unique_ptr<uint8_t, AlignedFree>;

  Interpreter() = default;
  Status AllocateTensors();
  Status PrepareSteps(const InterpreterOptions& options);
  void CountCopies(const Step& step, CopyStats& copies, bool at_prepare) const;
  Status CheckMemoryLimit(uint64_t scratch_bytes) const;
  Status CheckWrites(const Step& step) const;

  std::unique_ptr<ModelData> model_data_;
  Subgraph graph_;
  ArenaPlan plan_;
  std::vector<RuntimeTensor> tensors_;
  Buffer arena_, persistent_arena_, scratch_;
  std::vector<Buffer> dynamic_buffers_;
  std::vector<Step> steps_;
  bool poison_outputs_ = true;
  uint64_t memory_limit_bytes_ = 0;
  std::unique_ptr<WriteGuard> write_guard_;  // set in guard_writes mode
  // Set for more than one thread.
  std::unique_ptr<KernelThreadPool> thread_pool_;
  std::vector<std::string> prepare_assumptions_;
  RunStats stats_;
};

// Errors unless `delegates` are the plan's delegates, in order, with distinct names.
[[nodiscard]] Status CheckDelegatesMatchPlan(const ModelPlan& plan,
                                             const std::vector<Delegate*>& delegates);

// Every pair of arena blocks whose step ranges overlap must not overlap in bytes: the property
// that makes the shared arena safe. Errors name both tensors. O(blocks log blocks).
[[nodiscard]] Status CheckArenaPlanDisjoint(const ArenaPlan& plan);

}  // namespace tfa::runtime

#endif  // RUNTIME_INTERPRETER_H_
