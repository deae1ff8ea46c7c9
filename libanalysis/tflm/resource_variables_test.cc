#include "libanalysis/tflm/resource_variables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa::tflm {
namespace {

using testing::ArenaTensor;
using testing::Graph;
using testing::Op;

// VAR_HANDLE -> tensor 1, ASSIGN_VARIABLE(1, 0): a 3x4 float value.
Subgraph AssignOnce() {
  return Graph({ArenaTensor({3, 4}), ArenaTensor({}, TensorType::kResource)},
               {Op("VAR_HANDLE", {}, {1}), Op("ASSIGN_VARIABLE", {1, 0}, {})}, {0}, {});
}

// var_handle.cc / assign_variable.cc: the first ASSIGN_VARIABLE Prepare of a variable allocates
// its buffer; a second VAR_HANDLE of the same shared name finds the same variable (as
// call_once_mul's init subgraph does, where TFLM measures no second buffer).
TEST(TflmResourceVariables, OneBufferPerVariableInPrepareOrder) {
  Model model;
  model.subgraphs = {AssignOnce(), AssignOnce(), AssignOnce()};
  const VarHandleNames names = {{NodeRef{0, 0}, {"", "counter"}},
                                {NodeRef{1, 0}, {"", "counter"}},
                                {NodeRef{2, 0}, {"", "other"}}};
  const ResourceVariables plan = PlanResourceVariables(model, names);
  EXPECT_EQ(plan.max_variables, 3u);
  EXPECT_EQ(plan.buffer_bytes[0], (std::vector<uint64_t>{0, 48}));
  EXPECT_EQ(plan.buffer_bytes[1], (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(plan.buffer_bytes[2], (std::vector<uint64_t>{0, 48}));
  EXPECT_EQ(plan.handle_outputs[0], (std::vector<bool>{false, true}));
}

// A resource id that reaches the subgraph as an input has no data in Prepare: nothing allocated.
TEST(TflmResourceVariables, AnIdFromASubgraphInputAllocatesNothing) {
  Model model;
  model.subgraphs = {Graph({ArenaTensor({4}), ArenaTensor({}, TensorType::kResource)},
                           {Op("ASSIGN_VARIABLE", {1, 0}, {})}, {0, 1}, {})};
  const ResourceVariables plan = PlanResourceVariables(model, {});
  EXPECT_EQ(plan.max_variables, 0u);
  EXPECT_EQ(plan.buffer_bytes[0], (std::vector<uint64_t>{0}));
}

// micro_resource_variable.h: the object and one MicroResourceVariable per variable.
TEST(TflmResourceVariables, StructSizes) {
  EXPECT_EQ(ResourceVariablesObject(Target::kHost64).size, 16u);
  EXPECT_EQ(ResourceVariablesObject(Target::kMcu32).size, 12u);
  EXPECT_EQ(ResourceVariableEntry(Target::kHost64).size, 40u);
  EXPECT_EQ(ResourceVariableEntry(Target::kMcu32).size, 20u);
}

}  // namespace
}  // namespace tfa::tflm
