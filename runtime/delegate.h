// The delegate interface, in the spirit of TFLite's SimpleDelegate: a delegate says which nodes
// it supports; the interpreter partitions the execution plan with libanalysis's partitioner
// (the very code the analyser predicts with), replaces each delegated subset with one node and
// asks the delegate for one kernel per subset. The kernel's life: Create (upstream's Init) once,
// Prepare once after the arena is placed, Eval on every Invoke.
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
#include "libanalysis/delegation/node_selection.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/model/graph.h"
#include "runtime/kernel.h"
#include "runtime/model_data.h"

namespace tfa::runtime {

// What a delegate kernel stands for.
struct DelegatePartition {
  const Subgraph* subgraph = nullptr;  // the subgraph before this delegate was applied
  std::vector<int32_t> nodes;          // node indices in `subgraph`, in execution order
  std::vector<int32_t> inputs;         // boundary tensors, sorted
  std::vector<int32_t> outputs;
  const std::vector<RuntimeTensor>* tensors = nullptr;  // the interpreter's tensors (constants
                                                        // have data; internal tensors do not)
  const ModelData* model_data = nullptr;
  int32_t subgraph_index = 0;
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
  // The name stamped on the delegate's kernel nodes; delegates applied to one interpreter must
  // have distinct names.
  virtual std::string Name() const = 0;
  virtual bool IsNodeSupported(const Subgraph& subgraph, int32_t node) const = 0;
  virtual PartitionOptions Partitioning() const { return {}; }
  // Node inputs the delegate points at other tensors before its nodes are replaced, asked after
  // IsNodeSupported was asked about every node of the same plan. The GPU delegate's FP16 helper
  // rewires the nodes it takes from constant DEQUANTIZE outputs to the fp16 constants, and
  // upstream leaves them rewired, which changes the partitions' boundaries.
  virtual std::vector<InputRemap> InputRemaps(const Subgraph&) const { return {}; }
  [[nodiscard]] virtual Result<std::unique_ptr<DelegateKernel>> CreateKernel(
      const DelegatePartition& partition) = 0;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATE_H_
