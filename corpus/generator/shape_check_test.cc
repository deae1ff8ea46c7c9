#include "corpus/generator/shape_check.h"

#include <gtest/gtest.h>

#include "corpus/generator/synthetic_models.h"

namespace tfa {
namespace {

Model Built(const std::string& name) {
  auto built = BuildSyntheticModel(name);
  EXPECT_TRUE(built.ok()) << built.status().message();
  if (!built.ok()) return {};
  return built->model;
}

void ExpectMessage(const Model& m, const std::string& expected) {
  const Status st = CheckShapes(m);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), expected);
}

TEST(CheckShapes, ConvOutputOffByOne) {
  Model m = Built("chain_float");
  Subgraph& sg = m.subgraphs[0];
  sg.tensors[static_cast<size_t>(sg.nodes[0].outputs[0])].shape = {1, 15, 16, 8};
  ExpectMessage(m,
                "subgraph 0: node 0 (CONV_2D): output shape is [1,15,16,8], expected [1,16,16,8]");
}

TEST(CheckShapes, StridedValidPool) {
  Model m = Built("chain_float");
  Subgraph& sg = m.subgraphs[0];
  for (Node& n : sg.nodes) {
    if (n.op == "MAX_POOL_2D")
      n.options.Mutable().filter_w = 3;  // VALID, stride 2 on 8: (8 - 3 + 2) / 2 = 3
  }
  ExpectMessage(m,
                "subgraph 0: node 2 (MAX_POOL_2D): output shape is [1,4,4,8], expected [1,4,3,8]");
}

TEST(CheckShapes, ConcatenationAndReshape) {
  Model m = Built("branches_float");
  Subgraph& sg = m.subgraphs[0];
  for (Node& n : sg.nodes) {
    if (n.op == "CONCATENATION") n.options.Mutable().axis = 2;
  }
  EXPECT_FALSE(CheckShapes(m).ok());

  Model r = Built("dynamic_batch");
  for (Node& n : r.subgraphs[0].nodes) {
    if (n.op == "RESHAPE")
      r.subgraphs[0].tensors[static_cast<size_t>(n.outputs[0])].shape = {1, 3, 4};
  }
  ExpectMessage(r, "subgraph 0: node 2 (RESHAPE): reshapes [1,8] into [1,3,4]");
}

TEST(CheckShapes, ControlFlowOperandsAgainstCalledSubgraphs) {
  Model m = Built("while_loop");
  m.subgraphs[2].tensors[static_cast<size_t>(m.subgraphs[2].outputs[1])].shape = {1, 5};
  EXPECT_FALSE(CheckShapes(m).ok());

  Model i = Built("if_two_branches");
  i.subgraphs[2].inputs.push_back(0);
  ExpectMessage(i, "subgraph 0: node 0 (IF): subgraph 2 has 2 inputs, the node passes 1");
}

}  // namespace
}  // namespace tfa
