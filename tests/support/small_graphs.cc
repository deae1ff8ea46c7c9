#include "tests/support/small_graphs.h"

#include <utility>

namespace tfa::testing {

Tensor ArenaTensor(std::vector<int32_t> shape, TensorType type) {
  Tensor t;
  t.type = type;
  uint64_t elements = 1;
  for (int32_t d : shape) elements *= static_cast<uint64_t>(d);
  t.bytes = elements * (type == TensorType::kBool ? 1 : 4);
  t.shape = std::move(shape);
  return t;
}

Tensor Constant(std::vector<int32_t> shape, TensorType type) {
  Tensor t = ArenaTensor(std::move(shape), type);
  t.allocation = AllocationType::kMmapRo;
  t.constant_bytes = *t.bytes;
  return t;
}

Node Op(std::string op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  Node n;
  n.op = std::move(op);
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  return n;
}

Subgraph Graph(std::vector<Tensor> tensors, std::vector<Node> nodes, std::vector<int32_t> inputs,
               std::vector<int32_t> outputs) {
  Subgraph g;
  g.tensors = std::move(tensors);
  g.nodes = std::move(nodes);
  g.inputs = std::move(inputs);
  g.outputs = std::move(outputs);
  g.execution_plan = IdentityExecutionPlan(g);
  return g;
}

}  // namespace tfa::testing
