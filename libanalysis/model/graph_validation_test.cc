#include "libanalysis/model/graph_validation.h"

#include <gtest/gtest.h>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddNode;
using testing::AddTensor;

// tflite/core/subgraph.cc AddNodeWithParameters: a builtin that reads and writes one tensor makes
// the subgraph inconsistent; a custom op may forward a tensor so.
TEST(GraphValidationTest, ABuiltinReadingItsOwnOutputIsAnAllocationError) {
  Subgraph g;
  const int32_t a = AddTensor(g, TensorType::kFloat32, {4});
  const int32_t b = AddTensor(g, TensorType::kFloat32, {4});
  AddNode(g, "ADD", {a, b}, {b});
  EXPECT_EQ(OverlappingNodeError(g),
            "Tensor 1 is both input 1 and output 0 (node 0 (ADD)), so AllocateTensors() is called "
            "on an inconsistent model");
  EXPECT_FALSE(ValidateSubgraph(g, 0).ok()) << "without the error recorded, it is malformed";
  g.allocation_error = OverlappingNodeError(g);
  EXPECT_TRUE(ValidateSubgraph(g, 0).ok()) << "recorded, it is described, never planned";
  g.nodes[0].kind = NodeKind::kCustom;
  EXPECT_EQ(OverlappingNodeError(g), "");
}

}  // namespace
}  // namespace tfa
