// The delegate interface, in the spirit of TFLite's SimpleDelegate: a delegate gives the profile
// that decides which nodes it takes; the interpreter hands it to libanalysis's one pipeline
// (PlanModel, libanalysis/plan/model_plan.h: the very code `report` predicts with), which
// partitions the model, replaces each delegated subset with one node and plans the arena; the
// interpreter then asks the delegate for one kernel per delegated subset of that plan. The kernel's
// life: Create (upstream's Init) once, Prepare once after the arena is placed, Eval on every
// Invoke.
//
// A delegate kernel sees only its subset's boundary tensors in its KernelContext (inputs and
// outputs in the subset's sorted order); tensors internal to the subset have no arena space, as
// upstream plans them, so a kernel that needs them keeps its own storage.
#ifndef RUNTIME_DELEGATE_H_
#define RUNTIME_DELEGATE_H_

#include <memory>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "runtime/kernel.h"
#include "runtime/model_data.h"
#include "runtime/partition_host.h"

namespace tfa::runtime {

// What a delegate kernel stands for.
struct DelegatePartition {
  // The planned subgraph: the partition's nodes are still in `nodes`, with the inputs the plan
  // gave them (the fp16 helper points them at fp16 constants).
  const Subgraph* subgraph = nullptr;
  std::vector<int32_t> nodes;   // node indices in `subgraph`, in execution order
  std::vector<int32_t> inputs;  // boundary tensors, sorted
  std::vector<int32_t> outputs;
  const std::vector<RuntimeTensor>* tensors = nullptr;  // the interpreter's tensors (constants
                                                        // have data; internal tensors do not)
  const ModelData* model_data = nullptr;
  int32_t subgraph_index = 0;
  // The interpreter's variables and subgraphs (partition_host.h); null where a partition is
  // built without an interpreter.
  PartitionHost* host = nullptr;
};

class DelegateKernel {
 public:
  virtual ~DelegateKernel() = default;
  [[nodiscard]] virtual Status Prepare(KernelContext& context) = 0;
  [[nodiscard]] virtual Status Eval(KernelContext& context) = 0;
};

class Delegate {
 public:
  virtual ~Delegate() = default;
  // The profile that decides which nodes the delegate takes: its op rules, or its own answer node
  // by node (ProfileKind::kPredicate), and its partition settings. The profile's name is stamped
  // on the delegate's kernel nodes; delegates applied to one interpreter must have distinct names.
  virtual const DelegateProfile& Profile() const = 0;
  std::string Name() const { return Profile().name; }
  [[nodiscard]] virtual Result<std::unique_ptr<DelegateKernel>> CreateKernel(
      const DelegatePartition& partition) = 0;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATE_H_
