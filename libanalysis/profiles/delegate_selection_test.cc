#include "libanalysis/profiles/delegate_selection.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

// A small graph builder: tensors are added with a type, shape and constness; nodes by op.
class GraphBuilder {
 public:
  int32_t AddTensor(TensorType type, std::vector<int32_t> shape, bool constant = false) {
    Tensor t;
    t.name = std::string("t").append(std::to_string(subgraph_.tensors.size()));
    t.type = type;
    t.shape = std::move(shape);
    t.allocation = constant ? AllocationType::kMmapRo : AllocationType::kArenaRw;
    subgraph_.tensors.push_back(std::move(t));
    return static_cast<int32_t>(subgraph_.tensors.size() - 1);
  }
  Node& AddNode(const std::string& op, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    Node node;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = std::move(outputs);
    subgraph_.execution_plan.push_back(static_cast<int32_t>(subgraph_.nodes.size()));
    subgraph_.nodes.push_back(std::move(node));
    return subgraph_.nodes.back();
  }
  Subgraph& subgraph() { return subgraph_; }

 private:
  Subgraph subgraph_;
};

DelegateProfile Profile(const std::string& spec) {
  auto profile = ResolveDelegateProfile(spec);
  EXPECT_TRUE(profile.ok()) << profile.status().message();
  if (!profile.ok()) return {};
  return *profile;
}

TEST(DelegateSelectionTest, UnsupportedNodesCarryTheirExactReason) {
  GraphBuilder g;
  const int32_t in = g.AddTensor(TensorType::kFloat32, {1, 8, 8, 4});
  const int32_t w = g.AddTensor(TensorType::kFloat32, {4, 3, 3, 4}, true);
  const int32_t b = g.AddTensor(TensorType::kFloat32, {4}, true);
  const int32_t mid = g.AddTensor(TensorType::kFloat32, {1, 8, 8, 4});
  const int32_t out = g.AddTensor(TensorType::kFloat32, {1, 8, 8, 4});
  Node& conv = g.AddNode("CONV_2D", {in, w, b}, {mid});
  conv.options.Mutable().padding = Padding::kSame;
  conv.options.Mutable().fused_activation = Activation::kTanh;
  g.AddNode("RELU", {mid}, {out});
  g.subgraph().inputs = {in};
  g.subgraph().outputs = {out};

  auto selection = SelectDelegateNodes(g.subgraph(), Profile("xnnpack"));
  ASSERT_TRUE(selection.ok()) << selection.status().message();
  // The description names the node once; upstream's log line (unsupported_ops) keeps its words.
  EXPECT_EQ(DescribeUnsupportedNodes(g.subgraph(), *selection),
            std::vector<std::string>{"CONV_2D #0: unsupported fused activation (Tanh)"});
  EXPECT_EQ(selection->selection.nodes_to_replace, std::vector<int32_t>{1});
  EXPECT_EQ(selection->unsupported_ops,
            std::vector<std::string>{"CONV_2D: unsupported fused activation (Tanh) in node #0"});
}

TEST(DelegateSelectionTest, AddSubChecksFloat32ButOpsFormDoesNot) {
  GraphBuilder g;
  const int32_t a = g.AddTensor(TensorType::kInt32, {4});
  const int32_t b = g.AddTensor(TensorType::kInt32, {4});
  const int32_t c = g.AddTensor(TensorType::kInt32, {4});
  g.AddNode("ADD", {a, b}, {c});
  g.subgraph().inputs = {a, b};
  g.subgraph().outputs = {c};

  auto sample = SelectDelegateNodes(g.subgraph(), Profile("add-sub"));
  ASSERT_TRUE(sample.ok());
  EXPECT_TRUE(sample->selection.nodes_to_replace.empty());
  EXPECT_EQ(sample->verdicts.at(0).reason, "input 0 (tensor 0) has type int32, supported: float32");

  auto by_op = SelectDelegateNodes(g.subgraph(), Profile("ops=ADD,SUB"));
  ASSERT_TRUE(by_op.ok());
  EXPECT_EQ(by_op->selection.nodes_to_replace, std::vector<int32_t>{0});
}

TEST(DelegateSelectionTest, DelegatesApplyOneAfterAnother) {
  GraphBuilder g;
  const int32_t t0 = g.AddTensor(TensorType::kFloat32, {4});
  const int32_t t1 = g.AddTensor(TensorType::kFloat32, {4});
  const int32_t t2 = g.AddTensor(TensorType::kFloat32, {4});
  const int32_t t3 = g.AddTensor(TensorType::kFloat32, {4});
  g.AddNode("SIN", {t0}, {t1});
  g.AddNode("ADD", {t1, t0}, {t2});
  g.AddNode("SIN", {t2}, {t3});
  g.subgraph().inputs = {t0};
  g.subgraph().outputs = {t3};

  const DelegateProfile sin = Profile("sin");
  auto first = SelectDelegateNodes(g.subgraph(), sin);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->selection.nodes_to_replace, (std::vector<int32_t>{0, 2}));
  auto after_sin = ApplyDelegateSelection(g.subgraph(), sin, *first);
  ASSERT_TRUE(after_sin.ok()) << after_sin.status().message();
  ASSERT_EQ(after_sin->kernel_nodes.size(), 2u);

  const DelegateProfile add_sub = Profile("add-sub");
  auto second = SelectDelegateNodes(after_sin->subgraph, add_sub);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(second->selection.nodes_to_replace, std::vector<int32_t>{1});
  // The sin kernels are DELEGATE nodes now: never taken by the next delegate.
  EXPECT_EQ(second->unsupported_ops,
            std::vector<std::string>{"DELEGATE sin: op DELEGATE sin is not ADD or SUB"});
  auto after_both = ApplyDelegateSelection(after_sin->subgraph, add_sub, *second);
  ASSERT_TRUE(after_both.ok()) << after_both.status().message();
  EXPECT_EQ(after_both->subgraph.execution_plan.size(), 3u);
}

TEST(DelegateSelectionTest, NodesFormClaimsExactIndices) {
  GraphBuilder g;
  const int32_t t0 = g.AddTensor(TensorType::kFloat32, {4});
  const int32_t t1 = g.AddTensor(TensorType::kFloat32, {4});
  const int32_t t2 = g.AddTensor(TensorType::kFloat32, {4});
  g.AddNode("SIN", {t0}, {t1});
  g.AddNode("COS", {t1}, {t2});
  g.subgraph().inputs = {t0};
  g.subgraph().outputs = {t2};
  auto selection = SelectDelegateNodes(g.subgraph(), Profile("nodes=1"));
  ASSERT_TRUE(selection.ok());
  EXPECT_EQ(selection->selection.nodes_to_replace, std::vector<int32_t>{1});
  EXPECT_EQ(selection->verdicts.at(0).reason, "node not listed in nodes=1");
  EXPECT_EQ(SelectDelegateNodes(g.subgraph(), Profile("nodes=0,7")).status().message(),
            "subgraph: --delegate nodes=0,7: node 7 out of range (2 nodes)");
}

TEST(DelegateSelectionTest, GpuFoldsConstantFp16DequantizeIntoItsConsumers) {
  GraphBuilder g;
  const int32_t in = g.AddTensor(TensorType::kFloat32, {1, 8, 8, 4});
  const int32_t w16 = g.AddTensor(TensorType::kFloat16, {4, 1, 1, 4}, true);
  const int32_t w32 = g.AddTensor(TensorType::kFloat32, {4, 1, 1, 4});
  const int32_t out = g.AddTensor(TensorType::kFloat32, {1, 8, 8, 4});
  g.AddNode("DEQUANTIZE", {w16}, {w32});
  g.AddNode("CONV_2D", {in, w32}, {out});
  g.subgraph().inputs = {in};
  g.subgraph().outputs = {out};

  const DelegateProfile gpu = Profile("gpu");
  auto selection = SelectDelegateNodes(g.subgraph(), gpu);
  ASSERT_TRUE(selection.ok()) << selection.status().message();
  // The CONV_2D sees its weights as the fp16 constant: one runtime input, supported.
  EXPECT_TRUE(selection->verdicts.at(0).fp16_dequantize_held_back);
  EXPECT_TRUE(selection->verdicts.at(1).supported) << selection->verdicts.at(1).reason;
  // Every node supported or held back: upstream delegates the whole plan.
  EXPECT_EQ(selection->selection.nodes_to_replace, (std::vector<int32_t>{0, 1}));
  auto delegated = ApplyDelegateSelection(g.subgraph(), gpu, *selection);
  ASSERT_TRUE(delegated.ok()) << delegated.status().message();
  EXPECT_EQ(delegated->subgraph.nodes[1].inputs, (std::vector<int32_t>{in, w16}));

  // Without the helper's remapping the weights are a second runtime input and still fine, but
  // a runtime bias makes three: upstream's CheckConvoultionInputOutput message.
  const int32_t bias = g.AddTensor(TensorType::kFloat32, {4});
  g.subgraph().nodes[1].inputs = {in, w32, bias};
  g.subgraph().inputs = {in, bias};
  g.subgraph().nodes[0].inputs = {w16};
  g.subgraph().tensors[w16].type = TensorType::kInt8;  // no longer an fp16 DEQUANTIZE
  auto plain = SelectDelegateNodes(g.subgraph(), gpu);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->verdicts.at(1).reason,
            "Expected 1 or 2 input tensor(s), but node has 3 runtime inputs.");
}

TEST(DelegateSelectionTest, OpsFormReproducesTheOraclesAddSubConfiguration) {
  int compared = 0, matches = 0;
  for (const std::string& name : testing::CorpusModelNames()) {
    auto model = LoadModelFile(testing::CorpusModelPath(name));
    ASSERT_TRUE(model.ok()) << model.status().message();
    const Subgraph& subgraph = model->subgraphs.at(0);
    const nlohmann::json oracle =
        testing::ReadJsonFile(testing::OraclePath("models/" + name + ".add-sub.json"));
    std::vector<std::vector<int32_t>> expected;
    for (const auto& kernel : oracle.at("delegate_kernels_init")) {
      expected.push_back(kernel.at("nodes_to_replace").get<std::vector<int32_t>>());
    }
    for (const char* spec : {"ops=ADD,SUB", "add-sub"}) {
      const DelegateProfile profile = Profile(spec);
      auto selection = SelectDelegateNodes(subgraph, profile);
      ASSERT_TRUE(selection.ok()) << selection.status().message();
      auto delegated = ApplyDelegateSelection(subgraph, profile, *selection);
      ASSERT_TRUE(delegated.ok()) << delegated.status().message();
      std::vector<std::vector<int32_t>> kernels;
      for (int32_t kernel : delegated->kernel_nodes) {
        kernels.emplace_back(delegated->subgraph.nodes[kernel].replaces);
      }
      ++compared;
      matches += kernels == expected;
      EXPECT_EQ(kernels, expected) << name << " " << spec;
    }
  }
  EXPECT_EQ(compared, 22);
  EXPECT_EQ(matches, compared);
}

}  // namespace
}  // namespace tfa
