// Builders for hand-written graphs in unit tests: tensors sized from their shapes, nodes, and a
// subgraph run in node order.
#ifndef TESTS_SUPPORT_SMALL_GRAPHS_H_
#define TESTS_SUPPORT_SMALL_GRAPHS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa::testing {

// An arena tensor of `shape` (1-byte bools, 4-byte everything else).
Tensor ArenaTensor(std::vector<int32_t> shape, TensorType type = TensorType::kFloat32);
// A read-only constant of `shape`.
Tensor Constant(std::vector<int32_t> shape, TensorType type = TensorType::kInt32);
Node Op(std::string op, std::vector<int32_t> inputs, std::vector<int32_t> outputs);
// Appends a tensor of `type` and `shape`, sized from them, to `graph`; returns its index.
int32_t AddTensor(Subgraph& graph, TensorType type, std::vector<int32_t> shape,
                  AllocationType allocation = AllocationType::kArenaRw);
// Appends a read-only constant of `type` and `shape`; returns its index.
int32_t AddConstant(Subgraph& graph, TensorType type, std::vector<int32_t> shape);
// Appends a node and puts it last in the execution plan.
Node& AddNode(Subgraph& graph, const std::string& op, std::vector<int32_t> inputs,
              std::vector<int32_t> outputs, NodeKind kind = NodeKind::kBuiltin);
// A subgraph whose execution plan is its nodes in order.
Subgraph Graph(std::vector<Tensor> tensors, std::vector<Node> nodes, std::vector<int32_t> inputs,
               std::vector<int32_t> outputs);

// main: (i_out, x_out) = WHILE(i0, x); y = x + x (subgraphs: main, cond, body). The cond reads
// only the counter; the body adds a constant to it. `body_output` is the shape of the body's x
// output: [1,4] passes x straight through (nobody reads x_out), anything else concatenates x with
// itself (a dynamic body).
Model WhileModel(std::vector<int32_t> body_output = {1, 4});

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_SMALL_GRAPHS_H_
