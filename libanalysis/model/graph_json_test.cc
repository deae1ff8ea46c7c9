#include "libanalysis/model/graph_json.h"

#include <gtest/gtest.h>

#include "libanalysis/model/model_loader.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

constexpr const char* kSmallGraph = R"({"format":"tflite-analyze-graph/1",
  "tensors":[{"name":"x","bytes":4096,"alloc":"arena_rw","type":"float32","shape":[1,32,32,1]},
             {"name":"w","bytes":64,"alloc":"mmap_ro"},
             {"name":"y","bytes":4096,"alloc":"arena_rw"}],
  "nodes":[{"op":"ADD","inputs":[0,1],"outputs":[2],"temporaries":[],"inplace":12,"side_effect":false}],
  "inputs":[0],"outputs":[2],"variables":[]})";

TEST(GraphJson, ParsesTheDesignExample) {
  auto model = ParseGraphJson(kSmallGraph, "g.json");
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Subgraph& sg = model->subgraphs[0];
  ASSERT_EQ(sg.tensors.size(), 3u);
  EXPECT_EQ(sg.tensors[0].shape, (std::vector<int32_t>{1, 32, 32, 1}));
  EXPECT_EQ(sg.tensors[1].allocation, AllocationType::kMmapRo);
  EXPECT_EQ(sg.nodes[0].op, "ADD");
  EXPECT_EQ(sg.nodes[0].builtin_code, 0);
  EXPECT_EQ(sg.nodes[0].inplace, 12u);
  EXPECT_EQ(sg.execution_plan, (std::vector<int32_t>{0}));
  EXPECT_EQ(model->constant_bytes, 64u);
}

TEST(GraphJson, RoundTripsThroughText) {
  auto model = ParseGraphJson(kSmallGraph, "g.json");
  ASSERT_TRUE(model.ok());
  auto again = ParseGraphJson(SubgraphToGraphJson(model->subgraphs[0]), "again.json");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(SubgraphToGraphJson(again->subgraphs[0]), SubgraphToGraphJson(model->subgraphs[0]));
}

struct BadGraph {
  const char* text;
  const char* message;
};

class BadGraphJsonTest : public ::testing::TestWithParam<BadGraph> {};

TEST_P(BadGraphJsonTest, IsRejectedWithOneLineNamingTheObject) {
  auto model = ParseGraphJson(GetParam().text, "bad.json");
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find(GetParam().message), std::string::npos)
      << model.status().message();
  EXPECT_EQ(model.status().message().rfind("bad.json: ", 0), 0u);
  EXPECT_EQ(model.status().message().find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadGraphJsonTest,
    ::testing::Values(
        BadGraph{"not json", "not valid JSON"}, BadGraph{"[]", "expected a JSON object"},
        BadGraph{R"({"format":"other"})", "format"},
        BadGraph{
            R"({"format":"tflite-analyze-graph/1","tensors":[],"nodes":[{"op":"ADD","inputs":[0],"outputs":[]}]})",
            "nodes[0].inputs[0]: value 0 out of range"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":-1}],"nodes":[]})",
                 "tensors[0].bytes"},
        BadGraph{
            R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":1,"alloc":"heap"}],"nodes":[]})",
            "unknown allocation"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4},{"bytes":4}],
                    "nodes":[{"op":"ADD","inputs":[1],"outputs":[0]},{"op":"ADD","inputs":[0],"outputs":[1]}]})",
                 "produced later"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],
                    "nodes":[{"op":"ADD","inputs":[0],"outputs":[0]}]})",
                 "as both input and output"},
        BadGraph{
            R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],"nodes":[],"outputs":[7]})",
            "graph.outputs[0]"},
        // Node indices are checked against the tensors however the keys are ordered.
        BadGraph{
            R"({"nodes":[{"op":"ADD","inputs":[0,1],"outputs":[2]}],"format":"tflite-analyze-graph/1",
                    "tensors":[{"bytes":4},{"bytes":4}]})",
            "bad.json: nodes[0].outputs[0]: value 2 out of range [0, 1]"},
        // A repeated key keeps its last value, as in a JSON object.
        BadGraph{
            R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4},{"bytes":4},{"bytes":4}],
                    "nodes":[{"op":"ADD","inputs":[0],"outputs":[1]}],"tensors":[{"bytes":4}]})",
            "bad.json: nodes[0].outputs[0]: value 1 out of range [0, 0]"},
        // The first error in document order of checks wins, even past a later broken tensor.
        BadGraph{
            R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4,"type":"f99"},{"alloc":"heap"}],
                    "nodes":[7]})",
            "bad.json: tensors[0].type: unknown type \"f99\""}));

TEST(GraphJson, ReadsNodesListedBeforeTensors) {
  auto model = ParseGraphJson(R"({"nodes":[{"op":"ADD","inputs":[0,1],"outputs":[2],"inplace":12}],
      "tensors":[{"bytes":4},{"bytes":4,"alloc":"mmap_ro"},{"bytes":4}],
      "format":"tflite-analyze-graph/1","inputs":[0],"outputs":[2]})",
                              "g.json");
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Subgraph& sg = model->subgraphs[0];
  ASSERT_EQ(sg.nodes.size(), 1u);
  EXPECT_EQ(sg.nodes[0].inputs, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(sg.nodes[0].outputs, (std::vector<int32_t>{2}));
  EXPECT_EQ(sg.nodes[0].inplace, 12u);
  EXPECT_EQ(model->constant_bytes, 4u);
}

TEST(GraphJson, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep(100000, '[');
  auto model = ParseGraphJson(deep, "deep.json");
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("nested deeper"), std::string::npos);
}

TEST(GraphJson, EveryOracleGraphLoads) {
  for (const char* file : {"graphs/random_small.jsonl", "graphs/random_medium.jsonl"}) {
    for (const auto& c : testing::ReadJsonLines(testing::OraclePath(file))) {
      auto model = ParseGraphJson(c.at("graph").dump(), c.at("id").get<std::string>());
      ASSERT_TRUE(model.ok()) << model.status().message();
    }
  }
}

TEST(LoadModelFile, ConvertedCorpusModelLoadsAsGraphJson) {
  auto model = LoadModelFile(testing::CorpusModelPath("hands__palm_detection_lite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto again = ParseGraphJson(SubgraphToGraphJson(model->subgraphs[0]), "palm.json");
  ASSERT_TRUE(again.ok()) << again.status().message();
  const Subgraph& a = model->subgraphs[0];
  const Subgraph& b = again->subgraphs[0];
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    EXPECT_EQ(a.tensors[i].bytes, b.tensors[i].bytes);
    EXPECT_EQ(a.tensors[i].allocation, b.tensors[i].allocation);
  }
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].op, b.nodes[i].op);
    EXPECT_EQ(a.nodes[i].inputs, b.nodes[i].inputs);
    EXPECT_EQ(a.nodes[i].inplace, b.nodes[i].inplace);
  }
}

}  // namespace
}  // namespace tfa
