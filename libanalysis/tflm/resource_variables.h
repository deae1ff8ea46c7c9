// What TFLite Micro's resource variables take from the arena's tail (micro_resource_variable.cc,
// kernels/var_handle.cc, kernels/assign_variable.cc). The application creates
// MicroResourceVariables before AllocateTensors, so its object and its array of variables sit
// right after the allocator's own objects. VAR_HANDLE's Prepare gives each distinct (container,
// shared_name) an id and points its output tensor at its OpData, so the planner leaves that
// tensor out of the head. The first ASSIGN_VARIABLE Prepare that sees a variable's id allocates
// the variable's buffer, the assigned tensor's bytes, as a persistent buffer.
#ifndef LIBANALYSIS_TFLM_RESOURCE_VARIABLES_H_
#define LIBANALYSIS_TFLM_RESOURCE_VARIABLES_H_

#include <cstdint>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/model/var_handle_names.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

struct ResourceVariables {
  // The max_num_variables given to MicroResourceVariables::Create: one per VAR_HANDLE node, the
  // most the model can create (what the reference figures were measured with); 0 when the model
  // has no VAR_HANDLE and the application passes none.
  uint64_t max_variables = 0;
  // [subgraph][node]: the resource buffer that node's Prepare allocates, 0 when none.
  std::vector<std::vector<uint64_t>> buffer_bytes;
  // [subgraph][tensor]: a VAR_HANDLE output, which holds no arena data of its own.
  std::vector<std::vector<bool>> handle_outputs;
};

// Replays the resource ops' Prepare calls in TFLM's order (subgraph by subgraph, node by node);
// `names` are the VAR_HANDLE nodes' (container, shared_name).
ResourceVariables PlanResourceVariables(const Model& model, const VarHandleNames& names);

// sizeof(MicroResourceVariables) and sizeof(MicroResourceVariable) for a build.
Layout ResourceVariablesObject(const Build& build);
Layout ResourceVariableEntry(const Build& build);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_RESOURCE_VARIABLES_H_
