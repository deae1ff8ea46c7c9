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
// A subgraph whose execution plan is its nodes in order.
Subgraph Graph(std::vector<Tensor> tensors, std::vector<Node> nodes, std::vector<int32_t> inputs,
               std::vector<int32_t> outputs);

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_SMALL_GRAPHS_H_
