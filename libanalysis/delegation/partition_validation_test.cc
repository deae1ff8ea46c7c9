#include "libanalysis/delegation/partition_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/delegation/partition.h"

namespace tfa {
namespace {

// t0 -> 0 ADD -> t1 -> 1 ADD -> t2 (output)
Subgraph TwoAdds() {
  Subgraph subgraph;
  subgraph.name = "main";
  subgraph.tensors.resize(3);
  for (int32_t n = 0; n < 2; ++n) {
    Node node;
    node.op = "ADD";
    node.inputs = {n};
    node.outputs = {n + 1};
    subgraph.nodes.push_back(node);
  }
  subgraph.inputs = {0};
  subgraph.outputs = {2};
  subgraph.execution_plan = {0, 1};
  return subgraph;
}

std::string CheckError(const Subgraph& subgraph) {
  auto valid = ValidSubgraph::Check(subgraph);
  return valid.ok() ? "" : valid.status().message();
}

TEST(ValidSubgraph, NamesWhatIsOutOfRange) {
  EXPECT_EQ(CheckError(TwoAdds()), "");
  Subgraph plan = TwoAdds();
  plan.execution_plan = {0, 2};
  EXPECT_EQ(CheckError(plan), "subgraph 'main': execution plan node 2 is out of range (2 nodes)");
  Subgraph twice = TwoAdds();
  twice.execution_plan = {0, 0};
  EXPECT_EQ(CheckError(twice), "subgraph 'main': execution plan lists node 0 twice");
  Subgraph input = TwoAdds();
  input.nodes[1].inputs = {5};
  EXPECT_EQ(CheckError(input),
            "subgraph 'main': node 1 (ADD): input tensor 5 is out of range (3 tensors)");
  Subgraph output = TwoAdds();
  output.outputs = {-1};
  EXPECT_EQ(CheckError(output),
            "subgraph 'main': graph output tensor -1 is out of range (3 tensors)");
}

// The claimed nodes are checked first, and still on a subgraph already checked.
TEST(ValidSubgraph, ClaimedNodesAreCheckedOnEveryPartitioning) {
  Subgraph subgraph = TwoAdds();
  const std::vector<int32_t> claimed = {0, 9};
  const std::string claimed_error = "subgraph 'main': claimed node 9 is out of range (2 nodes)";
  auto valid = ValidSubgraph::Check(subgraph);
  ASSERT_TRUE(valid.ok());
  EXPECT_EQ(PartitionExecutionPlan(*valid, claimed, {}).status().message(), claimed_error);
  subgraph.execution_plan = {0, 0};
  EXPECT_EQ(ValidatePartitionInputs(subgraph, claimed).message(), claimed_error);
  EXPECT_EQ(PartitionExecutionPlan(subgraph, claimed, {}).status().message(), claimed_error);
}

}  // namespace
}  // namespace tfa
