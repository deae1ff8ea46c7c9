// NON_MAX_SUPPRESSION_V4 / V5, UNIQUE and the small integer ops (BITWISE_XOR, RIGHT_SHIFT,
// BITCAST, MATRIX_SET_DIAG, BROADCAST_ARGS, SPARSE_TO_DENSE) stay on the CPU under every delegate
// upstream has: the GPU delegate has no parser for them (model_builder.cc NewOperationParser),
// XNNPACK no Visit (xnnpack_delegate.cc VisitNode's default), NNAPI no case in
// NNAPIDelegateKernel::Validate.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

constexpr TensorType kF32 = TensorType::kFloat32;
constexpr TensorType kI32 = TensorType::kInt32;

// The nodes, each on tensors of its own: V4, V5 (a constant max_output_size of 4), UNIQUE, then
// the small integer ops.
testing::RuleTestGraph DynamicOps() {
  testing::RuleTestGraph g;
  for (bool soft : {false, true}) {
    std::vector<int32_t> inputs = {g.Tensor(kF32, {6, 4}), g.Tensor(kF32, {6}),
                                   g.Constant(kI32, {}), g.Constant(kF32, {}),
                                   g.Constant(kF32, {})};
    std::vector<int32_t> outputs = {g.Tensor(kI32, {4})};
    if (soft) {
      inputs.push_back(g.Constant(kF32, {}));
      outputs.push_back(g.Tensor(kF32, {4}));
    }
    outputs.push_back(g.Tensor(kI32, {}));
    g.Op(soft ? "NON_MAX_SUPPRESSION_V5" : "NON_MAX_SUPPRESSION_V4", {inputs, outputs});
  }
  g.Op("UNIQUE", {{g.Tensor(kF32, {8})}, {g.Tensor(kF32, {8}), g.Tensor(kI32, {8})}});
  for (const char* op : {"BITWISE_XOR", "RIGHT_SHIFT"}) {
    g.Op(op, {{g.Tensor(kI32, {1, 4}), g.Tensor(kI32, {1, 4})}, {g.Tensor(kI32, {1, 4})}});
  }
  g.Op("BITCAST", {{g.Tensor(kI32, {4})}, {g.Tensor(TensorType::kUInt32, {4})}});
  g.Op("MATRIX_SET_DIAG",
       {{g.Tensor(kF32, {3, 3}), g.Tensor(kF32, {3})}, {g.Tensor(kF32, {3, 3})}});
  g.Op("BROADCAST_ARGS", {{g.Tensor(kI32, {2}), g.Tensor(kI32, {2})}, {g.Tensor(kI32, {2})}});
  g.Op("SPARSE_TO_DENSE",
       {{g.Tensor(kI32, {3}), g.Constant(kI32, {1}), g.Tensor(kF32, {3}), g.Constant(kF32, {1})},
        {g.Tensor(kF32, {7})}});
  return g;
}

TEST(DynamicOpsDelegateRulesTest, NoDelegateTakesThem) {
  const testing::RuleTestGraph g = DynamicOps();
  for (const char* delegate : {"gpu", "xnnpack", "nnapi"}) {
    const std::vector<std::string> verdicts = g.Verdicts(delegate);
    ASSERT_EQ(verdicts.size(), 9u);
    for (const std::string& reason : verdicts) EXPECT_FALSE(reason.empty()) << delegate;
  }
}

}  // namespace
}  // namespace tfa
