#include "libanalysis/model/runtime_version.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/model/builtin_ops.h"

namespace tfa {
namespace {

int32_t Code(const char* name) {
  const std::optional<int32_t> code = BuiltinCodeFromName(name);
  EXPECT_TRUE(code.has_value()) << name;
  return code.value_or(-1);
}

Node Builtin(const char* name, int32_t version) {
  Node node;
  node.op = name;
  node.builtin_code = Code(name);
  node.version = version;
  return node;
}

// Figures from upstream's table (tflite/tools/versioning/runtime_version.cc).
TEST(MinimumRuntimeVersionForOpTest, GivesUpstreamsFigures) {
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("CONV_2D"), 1), "1.5.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("CONV_2D"), 8), "2.15.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("FULLY_CONNECTED"), 5), "2.0.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("FULLY_CONNECTED"), 13), "2.18.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("DEPTHWISE_CONV_2D"), 2), "1.12.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("TILE"), 1), "1.10.1");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("TRANSPOSE"), 7), "2.14.4");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("WHERE"), 2), "2.8.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("DYNAMIC_UPDATE_SLICE"), 4), "2.20.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("STABLEHLO_ADD"), 1), "2.16.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("STABLEHLO_COMPOSITE"), 1), "2.17.0");
  // The first and last entries of the table by code.
  EXPECT_EQ(MinimumRuntimeVersionForOp(0, 1), "1.5.0");     // ADD
  EXPECT_EQ(MinimumRuntimeVersionForOp(209, 1), "2.17.0");  // STABLEHLO_CASE
}

TEST(MinimumRuntimeVersionForOpTest, IsEmptyForPairsTheTableDoesNotList) {
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("FULLY_CONNECTED"), 14), "");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("CONV_2D"), 0), "");
  // Upstream lists BROADCAST_TO from version 2: version 1 was rolled back.
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("BROADCAST_TO"), 1), "");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("BROADCAST_TO"), 2), "2.5.0");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("STABLEHLO_LOGISTIC"), 1), "");
  EXPECT_EQ(MinimumRuntimeVersionForOp(Code("CALL"), 1), "");
  EXPECT_EQ(MinimumRuntimeVersionForOp(kBuiltinCustom, 1), "");
  EXPECT_EQ(MinimumRuntimeVersionForOp(-1, 1), "");
  EXPECT_EQ(MinimumRuntimeVersionForOp(210, 1), "");
}

TEST(CompareRuntimeVersionsTest, ComparesNumbersNotText) {
  EXPECT_GT(CompareRuntimeVersions("2.10.0", "2.9.0"), 0);
  EXPECT_LT(CompareRuntimeVersions("2.9.0", "2.10.0"), 0);
  EXPECT_LT(CompareRuntimeVersions("1.13.1", "1.14.0"), 0);
  EXPECT_GT(CompareRuntimeVersions("2.14.4", "2.14.0"), 0);
  EXPECT_EQ(CompareRuntimeVersions("2.3.0", "2.3.0"), 0);
}

TEST(CompareRuntimeVersionsTest, EmptyIsOlderThanAnyVersion) {
  EXPECT_LT(CompareRuntimeVersions("", "1.5.0"), 0);
  EXPECT_GT(CompareRuntimeVersions("0.0.0", ""), 0);
  EXPECT_EQ(CompareRuntimeVersions("", ""), 0);
}

TEST(CompareRuntimeVersionsTest, TheLongerOfTwoEqualPrefixesIsNewer) {
  EXPECT_LT(CompareRuntimeVersions("2.3", "2.3.0"), 0);
  EXPECT_GT(CompareRuntimeVersions("2.3.0", "2.3"), 0);
}

// Two subgraphs: the highest known figure is 2.3.0, reached by three distinct pairs (two of them
// met twice); custom ops and delegate kernels are left out; pairs the table lacks are listed.
TEST(MinimumRuntimeVersionTest, ReportsTheHighestFigureAndTheOpsThatSetIt) {
  Node custom;
  custom.op = "MyCustomOp";
  custom.builtin_code = kBuiltinCustom;
  custom.kind = NodeKind::kCustom;
  custom.version = 99;
  Node delegate_kernel;
  delegate_kernel.op = "TfLiteXNNPackDelegate";
  delegate_kernel.builtin_code = Code("DELEGATE");
  delegate_kernel.kind = NodeKind::kDelegateKernel;

  Subgraph main;
  main.nodes.push_back(Builtin("CONV_2D", 1));            // 1.5.0
  main.nodes.push_back(Builtin("FULLY_CONNECTED", 9));    // 2.3.0
  main.nodes.push_back(Builtin("DEPTHWISE_CONV_2D", 5));  // 2.3.0
  main.nodes.push_back(custom);
  main.nodes.push_back(delegate_kernel);
  main.nodes.push_back(Builtin("CONV_2D", 1));
  main.nodes.push_back(Builtin("DEPTHWISE_CONV_2D", 6));  // 2.3.0
  Subgraph body;
  body.nodes.push_back(Builtin("SOFTMAX", 2));  // 1.14.0
  body.nodes.push_back(Builtin("FULLY_CONNECTED", 9));
  body.nodes.push_back(Builtin("STABLEHLO_LOGISTIC", 1));  // not in the table
  body.nodes.push_back(Builtin("FULLY_CONNECTED", 99));    // not in the table
  body.nodes.push_back(Builtin("STABLEHLO_LOGISTIC", 1));
  Model model;
  model.subgraphs = {main, body};

  const RuntimeVersionRequirement result = MinimumRuntimeVersion(model);
  EXPECT_EQ(result.minimum, "2.3.0");
  EXPECT_EQ(result.setting_ops, (std::vector<OpVersionRequirement>{
                                    {"DEPTHWISE_CONV_2D", 5, "2.3.0"},
                                    {"DEPTHWISE_CONV_2D", 6, "2.3.0"},
                                    {"FULLY_CONNECTED", 9, "2.3.0"},
                                }));
  EXPECT_EQ(result.unknown, (std::vector<OpVersionRequirement>{
                                {"FULLY_CONNECTED", 99, ""},
                                {"STABLEHLO_LOGISTIC", 1, ""},
                            }));
}

// Text order would pick 2.9.0 over 2.10.0.
TEST(MinimumRuntimeVersionTest, ComparesVersionsAsNumbers) {
  Subgraph subgraph;
  subgraph.nodes.push_back(Builtin("CONV_2D", 6));      // 2.9.0
  subgraph.nodes.push_back(Builtin("RELU_0_TO_1", 1));  // 2.10.0
  Model model;
  model.subgraphs = {subgraph};

  const RuntimeVersionRequirement result = MinimumRuntimeVersion(model);
  EXPECT_EQ(result.minimum, "2.10.0");
  EXPECT_EQ(result.setting_ops, (std::vector<OpVersionRequirement>{{"RELU_0_TO_1", 1, "2.10.0"}}));
  EXPECT_TRUE(result.unknown.empty());
}

TEST(MinimumRuntimeVersionTest, IsEmptyWhenNoBuiltinOpIsKnown) {
  Node custom;
  custom.op = "MyCustomOp";
  custom.builtin_code = kBuiltinCustom;
  custom.kind = NodeKind::kCustom;
  Subgraph subgraph;
  subgraph.nodes.push_back(custom);
  subgraph.nodes.push_back(Builtin("CALL", 1));
  Model model;
  model.subgraphs = {subgraph, Subgraph{}};

  const RuntimeVersionRequirement result = MinimumRuntimeVersion(model);
  EXPECT_EQ(result.minimum, "");
  EXPECT_TRUE(result.setting_ops.empty());
  EXPECT_EQ(result.unknown, (std::vector<OpVersionRequirement>{{"CALL", 1, ""}}));
  EXPECT_EQ(MinimumRuntimeVersion(Model{}).minimum, "");
}

}  // namespace
}  // namespace tfa
