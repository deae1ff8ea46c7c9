// The StableHLO element-wise ops the CPU runs (STABLEHLO_ADD, MULTIPLY, MAXIMUM, MINIMUM, AND,
// SHIFT_LEFT) stay on the CPU under every delegate upstream has, as upstream's do: the GPU
// delegate has no parser for any (model_builder.cc NewOperationParser: "Operation is not
// supported."); XNNPACK has no Visit for them (xnnpack_delegate.cc VisitNode's default); NNAPI no
// case in NNAPIDelegateKernel::Validate.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

TEST(StablehloDelegateRulesTest, NoDelegateTakesTheElementwiseOps) {
  testing::RuleTestGraph g;
  for (const char* op :
       {"STABLEHLO_ADD", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_MINIMUM"}) {
    const TensorType type = TensorType::kFloat32;
    g.Op(op, {{g.Tensor(type, {1, 4}), g.Tensor(type, {1, 4})}, {g.Tensor(type, {1, 4})}});
  }
  for (const char* op : {"STABLEHLO_AND", "STABLEHLO_SHIFT_LEFT"}) {
    const TensorType type = TensorType::kInt32;
    g.Op(op, {{g.Tensor(type, {1, 4}), g.Tensor(type, {1, 4})}, {g.Tensor(type, {1, 4})}});
  }
  for (const char* delegate : {"gpu", "xnnpack", "nnapi"}) {
    const std::vector<std::string> verdicts = g.Verdicts(delegate);
    ASSERT_EQ(verdicts.size(), 6u);
    for (const std::string& reason : verdicts) EXPECT_FALSE(reason.empty()) << delegate;
  }
}

}  // namespace
}  // namespace tfa
