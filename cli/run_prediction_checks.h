// The prediction half of `run --validate`: every figure the analyser predicted for a run
// (delegated partitions, copies, arenas, the subgraphs control flow ran, the OpenCL delegate's
// device memory, libXNNPACK's workspace), next to what the run measured.
#ifndef CLI_RUN_PREDICTION_CHECKS_H_
#define CLI_RUN_PREDICTION_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cli/run_verdict.h"
#include "cli/runtime_delegates.h"
#include "libanalysis/plan/model_plan.h"
#include "runtime/interpreter.h"

namespace tfa::cli {

// The kernels one runtime delegate made for the run checked: [begin, end) of its own list (a
// model with control flow is first run to learn its facts, with kernels of its own).
struct KernelRange {
  size_t begin = 0;
  size_t end = 0;
};

// How many kernels the XNNPACK or OpenCL delegate has made so far (0 for other delegates).
size_t DelegateKernelCount(const runtime::Delegate& delegate);

// What the plan's delegates will own outside the interpreter in this runtime: the report's
// prediction (the known parts: delegate_memory.h), except that the GPU's is over this runtime's
// unfused nodes, not upstream's fused tasks. Throws CommandError when it cannot be estimated.
uint64_t PredictedDelegateBytes(const ModelPlan& plan);

// Throws CommandError when the report or a delegate's memory cannot be estimated.
std::vector<Check> PredictionChecks(const ModelPlan& plan, int32_t entry,
                                    const runtime::RunStats& stats, uint64_t delegate_kernels,
                                    const std::vector<RuntimeDelegate>& delegates,
                                    const std::vector<KernelRange>& run_kernels);

}  // namespace tfa::cli

#endif  // CLI_RUN_PREDICTION_CHECKS_H_
