// FAKE_QUANT, EMBEDDING_LOOKUP_SPARSE, DILATE and the random ops stay on the CPU under every
// delegate upstream has: the GPU delegate has no parser for them (model_builder.cc
// NewOperationParser), XNNPACK no Visit (xnnpack_delegate.cc VisitNode's default), NNAPI no case in
// NNAPIDelegateKernel::Validate.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/rule_test_graph.h"

namespace tfa {
namespace {

constexpr TensorType kF32 = TensorType::kFloat32;
constexpr TensorType kI32 = TensorType::kInt32;

TEST(CpuOnlyBuiltinsDelegateRulesTest, NoDelegateTakesThem) {
  testing::RuleTestGraph g;
  g.Op("FAKE_QUANT", {{g.Tensor(kF32, {1, 8, 8, 3})}, {g.Tensor(kF32, {1, 8, 8, 3})}});
  g.Op("EMBEDDING_LOOKUP_SPARSE",
       {{g.Tensor(kI32, {3}), g.Tensor(kI32, {3, 2}), g.Tensor(kI32, {2}), g.Tensor(kF32, {3}),
         g.Tensor(kF32, {4, 3, 2})},
        {g.Tensor(kF32, {3, 3, 2})}});
  for (const char* op : {"RANDOM_UNIFORM", "RANDOM_STANDARD_NORMAL"}) {
    g.Op(op, {{g.Values(kI32, {2}, {4, 4})}, {g.Tensor(kF32, {4, 4})}});
  }
  g.Op("MULTINOMIAL", {{g.Constant(kF32, {1, 2}), g.Values(kI32, {}, {10})},
                       {g.Tensor(TensorType::kInt64, {1, 10})}});
  g.Op("DILATE", {{g.Tensor(kF32, {2, 2}), g.Values(kI32, {2}, {2, 3}), g.Constant(kF32, {1})},
                  {g.Tensor(kF32, {3, 4})}});
  for (const char* delegate : {"gpu", "xnnpack", "nnapi"}) {
    const std::vector<std::string> verdicts = g.Verdicts(delegate);
    ASSERT_EQ(verdicts.size(), 6u);
    for (const std::string& reason : verdicts) EXPECT_FALSE(reason.empty()) << delegate;
  }
}

// HASHTABLE_LOOKUP: NNAPI takes it with float32 values (nnapi_delegate.cc Validate,
// kTfLiteBuiltinHashtableLookup); the GPU delegate and XNNPACK have no case for it.
TEST(CpuOnlyBuiltinsDelegateRulesTest, OnlyNnapiTakesAFloatHashtableLookup) {
  testing::RuleTestGraph g;
  g.Op("HASHTABLE_LOOKUP", {{g.Tensor(kI32, {4}), g.Constant(kI32, {3}), g.Constant(kF32, {3, 2})},
                            {g.Tensor(kF32, {4, 2}), g.Tensor(TensorType::kUInt8, {4})}});
  EXPECT_FALSE(g.Verdicts("gpu")[0].empty());
  EXPECT_FALSE(g.Verdicts("xnnpack")[0].empty());
  EXPECT_EQ(g.Verdicts("nnapi")[0], "");
}

}  // namespace
}  // namespace tfa
