// What a delegate kernel may ask of the interpreter that runs it, for the nodes upstream's
// delegates run against the interpreter's own state rather than their inputs alone:
//   - resource variables: upstream's XNNPACK delegate binds a delegated READ_VARIABLE /
//     ASSIGN_VARIABLE to the interpreter's variable (the subgraph's resources(), created on first
//     use, its VAR_HANDLE invoked for the id), so the CPU nodes and every partition see one value
//     across Invokes (tflite/delegates/xnnpack/xnnpack_delegate.cc, Subgraph::Invoke);
//   - the model's other subgraphs: a delegated STABLEHLO_COMPOSITE computes what its
//     decomposition subgraph computes, without the interpreter preparing or allocating it.
#ifndef RUNTIME_PARTITION_HOST_H_
#define RUNTIME_PARTITION_HOST_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "runtime/kernel.h"
#include "runtime/resource_variables.h"

namespace tfa::runtime {

class PartitionHost {
 public:
  virtual ~PartitionHost() = default;
  // VAR_HANDLE node `node` of subgraph `subgraph`: writes its variable's id into `handle`.
  [[nodiscard]] virtual Status WriteVarHandle(int32_t subgraph, int32_t node,
                                              RuntimeTensor& handle) = 0;
  virtual ResourceVariables& Variables() = 0;
  // Subgraph `index` of the model as planned: its model nodes are nodes 0..model_nodes-1, in
  // execution order (delegate kernels, if any, come after them). Null graph when there is none.
  struct ModelSubgraph {
    std::shared_ptr<const Subgraph> graph;
    size_t model_nodes = 0;
  };
  virtual ModelSubgraph Graph(int32_t index) const = 0;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_PARTITION_HOST_H_
