// The plan a run executes. A model with control flow has input-dependent memory: which branch an
// IF takes decides which branch upstream re-plans, CALL_ONCE plans its init subgraph only when it
// runs, a WHILE body whose state grows is re-planned on every iteration (its last shapes stay).
// PlanModel replays that first Invoke only from facts (InvokeFacts); a run can learn them.
// PlanForRun plans the model; when the first-Invoke replay lacks a fact, it runs the model once on
// buffers of its own (no plan needed) with the caller's inputs, reads what its control flow did
// (RunStats::facts) and plans again with those facts. Every subgraph then runs on the memory
// upstream gives it, and the run's after-Invoke figures can be checked against the replay's.
#ifndef RUNTIME_RUN_PLAN_H_
#define RUNTIME_RUN_PLAN_H_

#include <functional>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/plan/model_plan.h"
#include "runtime/interpreter.h"

namespace tfa::runtime {

// Writes a run's inputs into the interpreter's input tensors.
using InputFiller = std::function<Status(Interpreter&)>;

// The memory a plan's delegates hold outside the interpreter, as predicted (libXNNPACK's packed
// weights and workspace, the OpenCL delegate's buffers).
using DelegateBytes = std::function<Result<uint64_t>(const ModelPlan&)>;

// `options.delegates` must be `run_options.delegates`' profiles, in order. The fact-finding run
// holds the delegates too, so it gets `run_options`' memory limit less `delegate_bytes` of the
// plan it runs (a limit the delegates alone reach is an error). Errors: PlanModel's and the
// fact-finding run's.
[[nodiscard]] Result<ModelPlan> PlanForRun(const Model& model, const PlanOptions& options,
                                           const InterpreterOptions& run_options,
                                           const InputFiller& fill_inputs,
                                           const DelegateBytes& delegate_bytes = {});

}  // namespace tfa::runtime

#endif  // RUNTIME_RUN_PLAN_H_
