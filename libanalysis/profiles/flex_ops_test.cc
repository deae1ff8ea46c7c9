#include "libanalysis/profiles/flex_ops.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/delegate_selection.h"

namespace tfa {
namespace {

// in -> FlexAddV2 -> ADD -> FlexMul -> MyOp -> out, every tensor float32 [1,4].
Subgraph FlexChain() {
  Subgraph g;
  for (int i = 0; i < 5; ++i) {
    Tensor t;
    t.name = "t" + std::to_string(i);
    t.type = TensorType::kFloat32;
    t.shape = std::vector<int32_t>{1, 4};
    t.bytes = 16;
    g.tensors.push_back(std::move(t));
  }
  const std::vector<std::pair<std::string, NodeKind>> ops = {{"FlexAddV2", NodeKind::kCustom},
                                                             {"ADD", NodeKind::kBuiltin},
                                                             {"FlexMul", NodeKind::kCustom},
                                                             {"MyOp", NodeKind::kCustom}};
  for (size_t i = 0; i < ops.size(); ++i) {
    Node node;
    node.op = ops[i].first;
    node.kind = ops[i].second;
    node.inputs = std::vector<int32_t>{static_cast<int32_t>(i)};
    node.outputs = std::vector<int32_t>{static_cast<int32_t>(i + 1)};
    g.execution_plan.push_back(static_cast<int32_t>(i));
    g.nodes.push_back(std::move(node));
  }
  g.inputs = {0};
  g.outputs = {4};
  return g;
}

TEST(FlexOpsTest, FlexOpsAreCustomCodesStartingWithFlex) {
  Node node;
  node.kind = NodeKind::kCustom;
  node.op = "FlexAddV2";
  EXPECT_TRUE(IsFlexOp(node));
  node.op = "Flex";
  EXPECT_TRUE(IsFlexOp(node));
  node.op = "flexAddV2";  // upstream compares with strncmp: case matters
  EXPECT_FALSE(IsFlexOp(node));
  node.op = "FlexAddV2";
  node.kind = NodeKind::kBuiltin;
  EXPECT_FALSE(IsFlexOp(node));
}

TEST(FlexOpsTest, UnresolvedFlexNodesAreThoseLeftInThePlan) {
  Subgraph g = FlexChain();
  EXPECT_EQ(UnresolvedFlexNodes(g), (std::vector<int32_t>{0, 2}));
  g.execution_plan = {1, 3};  // as if a delegate had taken nodes 0 and 2
  EXPECT_TRUE(UnresolvedFlexNodes(g).empty());
}

TEST(FlexOpsTest, TheFlexProfileTakesEveryFlexOpAndNothingElse) {
  auto profile = ResolveDelegateProfile("flex");
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  EXPECT_TRUE(profile->applied_at_build);
  EXPECT_EQ(profile->trust, ProfileTrust::kTranscribed);
  // kTfLiteDelegateFlagsAllowDynamicTensors: delegated before any CPU Prepare.
  EXPECT_FALSE(profile->kernel.prepare_before_delegation);
  auto selection = SelectDelegateNodes(FlexChain(), *profile);
  ASSERT_TRUE(selection.ok()) << selection.status().message();
  ASSERT_EQ(selection->verdicts.size(), 4u);
  EXPECT_TRUE(selection->verdicts[0].supported);
  EXPECT_EQ(selection->verdicts[1].reason,
            "op ADD is a TFLite builtin, not a Select TensorFlow op");
  EXPECT_TRUE(selection->verdicts[2].supported);
  EXPECT_EQ(selection->verdicts[3].reason,
            "custom op MyOp is not a Select TensorFlow op (its code does not start with Flex)");
  // SimpleDelegateInterface's default options: every partition kept, however small.
  auto delegated = ApplyDelegateSelection(FlexChain(), *profile, *selection);
  ASSERT_TRUE(delegated.ok()) << delegated.status().message();
  EXPECT_EQ(delegated->kernel_nodes.size(), 2u);
}

TEST(FlexOpsTest, APrefixRuleNeedsACustomOp) {
  auto profile = ParseDelegateProfileJson(
      R"({"format": "tflite-analyze-profile/1", "name": "p",
          "ops": [{"op": "ADD", "prefix": true}]})",
      "p.json");
  ASSERT_FALSE(profile.ok());
  EXPECT_NE(profile.status().message().find("\"prefix\" needs \"custom\": true"), std::string::npos)
      << profile.status().message();
}

}  // namespace
}  // namespace tfa
