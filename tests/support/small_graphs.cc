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

int32_t AddTensor(Subgraph& graph, TensorType type, std::vector<int32_t> shape,
                  AllocationType allocation) {
  Tensor t;
  t.type = type;
  t.shape = std::move(shape);
  uint64_t elements = 1;
  for (int32_t d : t.shape) elements *= static_cast<uint64_t>(d);
  t.bytes = elements * *ElementSize(type);
  t.allocation = allocation;
  graph.tensors.push_back(std::move(t));
  return static_cast<int32_t>(graph.tensors.size()) - 1;
}

int32_t AddConstant(Subgraph& graph, TensorType type, std::vector<int32_t> shape) {
  return AddTensor(graph, type, std::move(shape), AllocationType::kMmapRo);
}

Node& AddNode(Subgraph& graph, const std::string& op, std::vector<int32_t> inputs,
              std::vector<int32_t> outputs, NodeKind kind) {
  Node n;
  n.kind = kind;
  n.op = op;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  graph.nodes.push_back(std::move(n));
  graph.execution_plan.push_back(static_cast<int32_t>(graph.nodes.size()) - 1);
  return graph.nodes.back();
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

Model WhileModel(std::vector<int32_t> body_output) {
  Node loop = Op("WHILE", {1, 0}, {2, 3});
  loop.options.Mutable().cond_subgraph = 1;
  loop.options.Mutable().body_subgraph = 2;
  Model m;
  m.subgraphs.push_back(
      Graph({ArenaTensor({1, 4}), Constant({}), ArenaTensor({}, TensorType::kInt32),
             ArenaTensor({1, 4}), ArenaTensor({1, 4})},
            {loop, Op("ADD", {0, 0}, {4})}, {0}, {4}));
  m.subgraphs.push_back(Graph({ArenaTensor({}, TensorType::kInt32), ArenaTensor({1, 4}),
                               Constant({}), ArenaTensor({}, TensorType::kBool)},
                              {Op("LESS", {0, 2}, {3})}, {0, 1}, {3}));
  const bool same_shape = body_output == std::vector<int32_t>{1, 4};
  Subgraph body = Graph({ArenaTensor({}, TensorType::kInt32), ArenaTensor({1, 4}), Constant({}),
                         ArenaTensor({}, TensorType::kInt32), ArenaTensor(body_output)},
                        {Op("ADD", {0, 2}, {3})}, {0, 1}, {3, same_shape ? 1 : 4});
  if (!same_shape) body.nodes.push_back(Op("CONCATENATION", {1, 1}, {4}));
  body.execution_plan = IdentityExecutionPlan(body);
  m.subgraphs.push_back(std::move(body));
  return m;
}

}  // namespace tfa::testing
