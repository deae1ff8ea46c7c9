// The shape rules against the shapes the models themselves carry: every tensor's shape in a model
// file is what upstream's kernels computed from the inputs' shapes, so re-running every node's
// rule on the unchanged model must give each output back. Corpus models, the int8, control-flow
// and family oracle models, and the generator's synthetic models.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "corpus/generator/synthetic_models.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/prepare/shape_inference.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

std::vector<std::string> ModelFiles() {
  std::vector<std::string> files;
  for (const std::string& name : testing::CorpusModelNames()) {
    files.push_back(testing::CorpusModelPath(name));
  }
  for (const char* dir : {"int8", "control_flow", "families"}) {
    for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath(dir))) {
      if (entry.path().extension() == ".tflite") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Coverage {
  int checked_nodes = 0;
  std::map<std::string, int> dynamic_ops;  // their output shapes depend on values Prepare lacks
  std::map<std::string, int> ops_without_rule;
};

// Every node with a rule, on the model's own shapes, gives its outputs' shapes back.
void ExpectRulesReproduceTheModel(const Model& model, Coverage& coverage) {
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& subgraph = model.subgraphs[s];
    for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
      const Node& node = subgraph.nodes[n];
      if (!HasShapeRule(node.op) || node.kind != NodeKind::kBuiltin) {
        ++coverage.ops_without_rule[node.op];
        continue;
      }
      const std::string where = model.path + " subgraph " + std::to_string(s) + " node " +
                                std::to_string(n) + " " + node.op;
      auto inferred = InferOutputShapesOrDynamic(subgraph, node);
      ASSERT_TRUE(inferred.ok()) << where << ": " << inferred.status().message();
      if (inferred->dynamic) {
        ++coverage.dynamic_ops[node.op];
        continue;
      }
      ++coverage.checked_nodes;
      ASSERT_EQ(inferred->shapes.size(), node.outputs.size()) << where;
      for (size_t i = 0; i < node.outputs.size(); ++i) {
        if (node.outputs[i] < 0) continue;
        EXPECT_EQ(inferred->shapes[i], subgraph.tensors[static_cast<size_t>(node.outputs[i])].shape)
            << where << " output " << i;
      }
    }
  }
}

TEST(ShapeInferenceModelTest, RulesReproduceEveryShapeOfEveryModel) {
  Coverage coverage;
  for (const std::string& file : ModelFiles()) {
    auto model = LoadModelFile(file);
    ASSERT_TRUE(model.ok()) << model.status().message();
    ExpectRulesReproduceTheModel(*model, coverage);
  }
  for (const std::string& name : SyntheticModelNames()) {
    auto synthetic = BuildSyntheticModel(name);
    ASSERT_TRUE(synthetic.ok()) << synthetic.status().message();
    // Written and read back, as a file carries them: the constants' values come with it.
    const std::vector<uint8_t> file = WriteTflite(synthetic->model, synthetic->data);
    auto model = ParseTflite(file, name);
    ASSERT_TRUE(model.ok()) << model.status().message();
    ExpectRulesReproduceTheModel(*model, coverage);
  }
  const auto counts = [](const std::map<std::string, int>& ops) {
    std::string text;
    for (const auto& [op, count] : ops) text += " " + op + "(" + std::to_string(count) + ")";
    return text;
  };
  const std::string without_rule = counts(coverage.ops_without_rule);
  // The ops that keep a resize from passing: control flow (the rule needs the child subgraphs)
  // and custom ops.
  RecordProperty("ops_without_rule", without_rule);
  std::cout << "checked " << coverage.checked_nodes
            << " nodes; sized at Eval:" << counts(coverage.dynamic_ops)
            << "; no rule:" << without_rule << "\n";
  EXPECT_GT(coverage.checked_nodes, 1000);
}

}  // namespace
}  // namespace tfa
