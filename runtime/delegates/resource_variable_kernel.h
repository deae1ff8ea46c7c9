// VAR_HANDLE, READ_VARIABLE and ASSIGN_VARIABLE inside a delegate's partition, on the
// interpreter's resource variables. Upstream's XNNPACK delegate binds the variable a delegated
// READ_VARIABLE / ASSIGN_VARIABLE names to the interpreter's own (creating it on first use and
// invoking the VAR_HANDLE for its id; tflite/delegates/xnnpack/xnnpack_delegate.cc,
// Subgraph::Invoke), so a value assigned in one partition is what a CPU node or another
// partition reads, this Invoke and the next.
#ifndef RUNTIME_DELEGATES_RESOURCE_VARIABLE_KERNEL_H_
#define RUNTIME_DELEGATES_RESOURCE_VARIABLE_KERNEL_H_

#include <cstdint>
#include <memory>

#include "runtime/delegate.h"

namespace tfa::runtime {

class ResourceVariableKernel : public DelegateKernel {
 public:
  // Whether `op` is one of the three.
  static bool Handles(const std::string& op);
  // Node `node` of subgraph `subgraph`; errors without an interpreter to hold the variables.
  [[nodiscard]] static Result<std::unique_ptr<ResourceVariableKernel>> Create(const Node& node,
                                                                              int32_t subgraph,
                                                                              int32_t node_index,
                                                                              PartitionHost* host);

  // `context` holds the node's inputs and outputs in the node's order.
  Status Prepare(KernelContext& context) override;
  Status Eval(KernelContext& context) override;

 private:
  ResourceVariableKernel(const Node& node, int32_t subgraph, int32_t node_index,
                         PartitionHost& host)
      : node_(node), subgraph_(subgraph), node_index_(node_index), host_(host) {}

  const Node& node_;
  int32_t subgraph_;
  int32_t node_index_;
  PartitionHost& host_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_RESOURCE_VARIABLE_KERNEL_H_
