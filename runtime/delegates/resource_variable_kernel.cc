#include "runtime/delegates/resource_variable_kernel.h"

namespace tfa::runtime {

bool ResourceVariableKernel::Handles(const std::string& op) {
  return op == "VAR_HANDLE" || op == "READ_VARIABLE" || op == "ASSIGN_VARIABLE";
}

Result<std::unique_ptr<ResourceVariableKernel>> ResourceVariableKernel::Create(
    const Node& node, int32_t subgraph, int32_t node_index, PartitionHost* host) {
  if (!Handles(node.op)) return Status::Error(node.op + " is not a resource-variable op");
  if (!host) return Status::Error(node.op + " needs the interpreter's resource variables");
  const size_t inputs = node.op == "VAR_HANDLE" ? 0 : node.op == "READ_VARIABLE" ? 1 : 2;
  const size_t outputs = node.op == "ASSIGN_VARIABLE" ? 0 : 1;
  if (node.inputs.size() != inputs || node.outputs.size() != outputs)
    return Status::Error(node.op + ": unexpected arity");
  return std::unique_ptr<ResourceVariableKernel>(
      new ResourceVariableKernel(node, subgraph, node_index, *host));
}

Status ResourceVariableKernel::Prepare(KernelContext& context) {
  for (const auto* list : {&context.inputs, &context.outputs}) {
    for (const RuntimeTensor* tensor : *list) {
      if (!tensor) return Status::Error(node_.op + ": an absent tensor");
    }
  }
  return Status::Ok();
}

Status ResourceVariableKernel::Eval(KernelContext& context) {
  if (node_.op == "VAR_HANDLE")
    return host_.WriteVarHandle(subgraph_, node_index_, context.output(0));
  if (node_.op == "READ_VARIABLE")
    return host_.Variables().Read(context.input(0), context.output(0));
  return host_.Variables().Assign(context.input(0), context.input(1));
}

}  // namespace tfa::runtime
