// The check that a plan's buffer sharing is safe, independent of the planner: the same plan run
// once more with every tensor in a buffer of its own (InterpreterOptions::own_buffers: no arena,
// no sharing, no offsets) must give bit-identical outputs. A plan that lets a live tensor be
// overwritten changes the planned run's outputs and not the reference's.
#ifndef RUNTIME_OWN_BUFFER_CHECK_H_
#define RUNTIME_OWN_BUFFER_CHECK_H_

#include <cstdint>
#include <vector>

#include "libanalysis/plan/model_plan.h"
#include "runtime/interpreter.h"
#include "runtime/run_plan.h"

namespace tfa::runtime {

struct OutputDifference {
  int32_t tensor = -1;
  uint64_t differing_bytes = 0;
  uint64_t first_byte = 0;  // offset of the first differing byte
};

// Runs `plan` with `options` plus own_buffers on the inputs `fill_inputs` writes, once, and
// compares its outputs byte for byte with `outputs` (the planned run's first Invoke, in the entry
// subgraph's output order). Returns the outputs that differ (empty: bit-identical).
[[nodiscard]] Result<std::vector<OutputDifference>> CompareWithOwnBuffers(
    const ModelPlan& plan, const InterpreterOptions& options, const InputFiller& fill_inputs,
    const std::vector<RuntimeTensor>& outputs);

}  // namespace tfa::runtime

#endif  // RUNTIME_OWN_BUFFER_CHECK_H_
