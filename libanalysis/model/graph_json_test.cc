#include "libanalysis/model/graph_json.h"

#include <gtest/gtest.h>

#include <limits>

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
            "bad.json: tensors[0].type: unknown type \"f99\""},
        // The fields `convert` writes are checked as strictly as the others.
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4},{"bytes":4}],
                    "nodes":[{"op":"MAX_POOL_2D","inputs":[0],"outputs":[1],
                              "options":{"filter_h":"3"}}]})",
                 "bad.json: nodes[0].options.filter_h: expected an integer"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4},{"bytes":4}],
                    "nodes":[{"op":"CONV_2D","inputs":[0],"outputs":[1],"options":{"strides":2}}]})",
                 "bad.json: nodes[0].options.strides: unknown option"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4},{"bytes":4}],
                    "nodes":[{"op":"ADD","inputs":[0],"outputs":[1],
                              "options":{"fused_activation":"RELU7"}}]})",
                 "bad.json: nodes[0].options.fused_activation: unknown activation \"RELU7\""},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4},{"bytes":4}],
                    "nodes":[{"op":"ADD","builtin_code":3,"inputs":[0],"outputs":[1]}]})",
                 "bad.json: nodes[0].builtin_code: builtin code 3 is CONV_2D, not \"ADD\""},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4,"type":"int8",
                    "quantization":{"scale":[0.5],"zero_point":[1.5]}}],"nodes":[]})",
                 "bad.json: tensors[0].quantization.zero_point[0]: expected an integer"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":8,"type":"int32",
                    "alloc":"mmap_ro","shape":[2],"int_values":[1,2,3]}],"nodes":[]})",
                 "bad.json: tensors[0].int_values: 3 values, the shape holds 2 elements"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":8,"type":"float32",
                    "alloc":"mmap_ro","shape":[2],"int_values":[1,2]}],"nodes":[]})",
                 "bad.json: tensors[0].int_values: only int32 and int64 tensors carry values"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],"nodes":[],
                    "subgraphs":[{"tensors":[{"bytes":4}],"nodes":[{"op":"ADD","inputs":[0],
                    "outputs":[3]}]}]})",
                 "bad.json: subgraphs[0].nodes[0].outputs[0]: value 3 out of range [0, 0]"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4},{"bytes":4}],
                    "nodes":[{"op":"WHILE","inputs":[0],"outputs":[1],
                              "options":{"cond_subgraph":1,"body_subgraph":2}}]})",
                 "bad.json: subgraph 0: node 0 (WHILE) names subgraph 1 of 1"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],"nodes":[],
                    "signatures":[{"key":"run","subgraph":0,"inputs":[{"name":"x","tensor":4}]}]})",
                 "bad.json: signatures[0].inputs[0].tensor: value 4 out of range [0, 0]"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","kernel_prepare":"yes","tensors":[],
                    "nodes":[]})",
                 "bad.json: kernel_prepare: expected a boolean"},
        BadGraph{R"({"format":"tflite-analyze-graph/1","kernel_prepare":true,
                    "tensors":[{"bytes":4},{"bytes":4},{"bytes":64}],
                    "nodes":[{"op":"ADD","inputs":[0],"outputs":[1],"temporaries":[2]}]})",
                 "bad.json: nodes[0].temporaries: a kernel_prepare model leaves temporaries to the "
                 "kernels' Prepare"}));

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

TEST(GraphJson, ReadsWhatConvertWrites) {
  auto model = ParseGraphJson(R"({"format":"tflite-analyze-graph/1","kernel_prepare":true,
      "schema_version":3,"description":"d","metadata_names":["min_runtime_version"],
      "subgraphs":[{"name":"body","nodes":[{"op":"RELU","inputs":[0],"outputs":[1]}],
                    "tensors":[{"bytes":4},{"bytes":4}],"inputs":[0],"outputs":[1]}],
      "tensors":[{"bytes":4,"type":"int8","shape":[1],"quantization":{"scale":[0.25],
                  "zero_point":[-3],"quantized_dimension":0}},
                 {"bytes":8,"type":"int32","alloc":"mmap_ro","shape":[2],"buffer":2,
                  "constant_bytes":8,"int_values":[7,-1]},
                 {"bytes":4,"type":"int8","shape":[1]}],
      "nodes":[{"op":"MAX_POOL_2D","version":2,"inputs":[0],"outputs":[2],
                "options":{"padding":"SAME","filter_w":3,"filter_h":2,"stride_w":2,
                           "fused_activation":"RELU6"}},
               {"op":"MyOp","builtin_code":32,"inputs":[2,1],"outputs":[],
                "options":{"custom_options_size":12}}],
      "inputs":[0],"outputs":[2],
      "signatures":[{"key":"serve","subgraph":0,"inputs":[{"name":"in","tensor":0}],
                     "outputs":[{"name":"out","tensor":2}]}]})",
                              "g.json");
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_TRUE(model->kernel_prepare);
  EXPECT_EQ(model->schema_version, 3u);
  EXPECT_EQ(model->metadata_names, (std::vector<std::string>{"min_runtime_version"}));
  ASSERT_EQ(model->subgraphs.size(), 2u);
  EXPECT_EQ(model->subgraphs[1].name, "body");
  EXPECT_EQ(model->subgraphs[1].nodes[0].op, "RELU");
  const Subgraph& sg = model->subgraphs[0];
  EXPECT_EQ(sg.tensors[0].quantization->scale, (std::vector<float>{0.25f}));
  EXPECT_EQ(sg.tensors[0].quantization->zero_point, (std::vector<int64_t>{-3}));
  EXPECT_EQ(sg.tensors[1].int_values, (std::vector<int64_t>{7, -1}));
  EXPECT_EQ(sg.tensors[1].buffer, 2);
  EXPECT_EQ(model->constant_bytes, 8u);
  const OpOptions& pool = sg.nodes[0].options;
  EXPECT_EQ(pool.padding, Padding::kSame);
  EXPECT_EQ(pool.filter_w, 3);
  EXPECT_EQ(pool.filter_h, 2);
  EXPECT_EQ(pool.stride_w, 2);
  EXPECT_EQ(pool.stride_h, 1);
  EXPECT_EQ(pool.fused_activation, Activation::kRelu6);
  EXPECT_EQ(sg.nodes[0].version, 2);
  EXPECT_EQ(sg.nodes[1].kind, NodeKind::kCustom);
  EXPECT_EQ(sg.nodes[1].options->custom_options_size, 12u);
  ASSERT_EQ(model->signatures.size(), 1u);
  EXPECT_EQ(model->signatures[0].outputs[0].second, 2);
}

TEST(ModelToGraphJson, RefusesWhatJsonCannotHold) {
  auto model = ParseGraphJson(kSmallGraph, "g.json");
  ASSERT_TRUE(model.ok());
  model->subgraphs[0].tensors[0].quantization.Mutable().scale = {
      std::numeric_limits<float>::quiet_NaN()};
  auto text = ModelToGraphJson(*model);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            "subgraph 0: tensor 0: a quantization scale is not finite, which JSON cannot hold");
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

TEST(ModelToGraphJson, ControlFlowModelReadsBackAsTheSameText) {
  auto model = LoadModelFile(testing::OraclePath("control_flow/if_nested_while.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto text = ModelToGraphJson(*model);
  ASSERT_TRUE(text.ok()) << text.status().message();
  auto again = ParseGraphJson(*text, "again.json");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_TRUE(again->kernel_prepare);
  EXPECT_EQ(again->subgraphs.size(), model->subgraphs.size());
  EXPECT_EQ(again->constant_bytes, model->constant_bytes);
  auto again_text = ModelToGraphJson(*again);
  ASSERT_TRUE(again_text.ok());
  EXPECT_EQ(*again_text, *text);
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
