#include "libanalysis/model/graph_json.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>

#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_json_layout.h"
#include "libanalysis/model/model_loader.h"
#include "tests/support/random_graph.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

// Reading in parts on small text: any list split, into parts as small as `step` elements.
GraphJsonReading InParts(size_t threads = 3, size_t step = 1) {
  GraphJsonReading reading;
  reading.threads = threads;
  reading.split_bytes = 0;
  reading.part_step = step;
  return reading;
}

GraphJsonReading Reference() {
  GraphJsonReading reading;
  reading.threads = 1;
  return reading;
}

// What a reading gave, as one string: the model's Graph JSON, or the error.
std::string Outcome(const Result<Model>& model) {
  if (!model.ok()) return "error: " + model.status().message();
  auto text = ModelToGraphJson(*model);
  return text.ok() ? *text : "unwritable: " + text.status().message();
}

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
  EXPECT_EQ(Outcome(ParseGraphJson(GetParam().text, "bad.json", InParts())),
            Outcome(ParseGraphJson(GetParam().text, "bad.json", Reference())));
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

TEST(GraphJsonInParts, EveryOracleGraphReadsAsTheReferenceReadsIt) {
  for (const char* file : {"graphs/random_small.jsonl", "graphs/random_medium.jsonl"}) {
    for (const auto& c : testing::ReadJsonLines(testing::OraclePath(file))) {
      const std::string text = c.at("graph").dump();
      auto in_parts = ReadGraphJsonInParts(text, "g.json", InParts(2, 4));
      ASSERT_TRUE(in_parts.has_value()) << c.at("id");
      EXPECT_EQ(Outcome(*in_parts), Outcome(ParseGraphJson(text, "g.json", Reference())));
    }
  }
}

TEST(GraphJsonInParts, ReadsEverySubgraphOfAControlFlowModel) {
  auto model = LoadModelFile(testing::OraclePath("control_flow/if_nested_while.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto text = ModelToGraphJson(*model, 1);
  ASSERT_TRUE(text.ok()) << text.status().message();
  auto in_parts = ReadGraphJsonInParts(*text, "cf.json", InParts());
  ASSERT_TRUE(in_parts.has_value());
  EXPECT_EQ(in_parts->subgraphs.size(), model->subgraphs.size());
  EXPECT_EQ(Outcome(*in_parts), Outcome(ParseGraphJson(*text, "cf.json", Reference())));
}

TEST(GraphJsonInParts, DeclinesWhatItCannotSplitSafely) {
  // Nodes listed twice (the last list counts), an escaped key that may name a list, and an error
  // inside a list: each is left to the reference.
  const std::string twice = R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],
      "nodes":[{"op":"ADD","inputs":[0],"outputs":[0]}],"nodes":[],"inputs":[],"outputs":[]})";
  const std::string escaped = R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],
      "node\u0073":[],"nodes":[],"inputs":[],"outputs":[]})";
  const std::string bad_node = R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],
      "nodes":[{"op":"ADD","inputs":[7],"outputs":[0]}],"inputs":[],"outputs":[]})";
  // Lists longer than valid elements could make them: declined before anything is allocated.
  std::string empty_objects = "{}";
  for (int i = 0; i < 1000; ++i) empty_objects += ",{}";
  const std::string commas = R"({"format":"tflite-analyze-graph/1","tensors":[)" +
                             std::string(100000, ',') + R"(],"nodes":[]})";
  const std::string objects = R"({"format":"tflite-analyze-graph/1","tensors":[{"bytes":4}],)"
                              R"("nodes":[)" +
                              empty_objects + R"(]})";
  for (const std::string& text : {twice, escaped, bad_node, commas, objects}) {
    EXPECT_FALSE(ReadGraphJsonInParts(text, "g.json", InParts()).has_value()) << text;
    EXPECT_EQ(Outcome(ParseGraphJson(text, "g.json", InParts())),
              Outcome(ParseGraphJson(text, "g.json", Reference())));
  }
}

TEST(GraphJsonInParts, SmallTextIsLeftToTheReference) {
  GraphJsonReading reading;
  reading.threads = 2;
  EXPECT_FALSE(ReadGraphJsonInParts(kSmallGraph, "g.json", reading).has_value());
  reading.split_bytes = 0;
  EXPECT_TRUE(ReadGraphJsonInParts(kSmallGraph, "g.json", reading).has_value());
  reading.threads = 1;
  EXPECT_FALSE(ReadGraphJsonInParts(kSmallGraph, "g.json", reading).has_value());
}

// A random model of one to three subgraphs, as Graph JSON.
std::string RandomModelText() {
  testing::RandomGraphOptions options;
  options.max_nodes = 30;
  options.optional_output_probability = 0;  // Graph JSON outputs name tensors
  Model model;
  const int subgraphs = *rc::gen::inRange(1, 4);
  for (int s = 0; s < subgraphs; ++s) {
    Subgraph sg = *testing::GenRandomSubgraph(options);
    // The generator leaves builtin codes unset; Graph JSON carries them.
    for (Node& n : sg.nodes) {
      n.builtin_code = BuiltinCodeFromName(n.op).value_or(kBuiltinCustom);
      n.kind = n.builtin_code == kBuiltinCustom ? NodeKind::kCustom : NodeKind::kBuiltin;
    }
    model.subgraphs.push_back(std::move(sg));
  }
  auto text = ModelToGraphJson(model, *rc::gen::element(-1, 0, 2));
  if (!text.ok()) RC_FAIL(text.status().message());
  return *text;
}

RC_GTEST_PROP(GraphJsonInPartsProperty, ReadsValidTextAsTheReferenceDoes, ()) {
  const std::string text = RandomModelText();
  const size_t threads = *rc::gen::inRange<size_t>(2, 6);
  const size_t step = *rc::gen::inRange<size_t>(1, 5);
  auto in_parts = ReadGraphJsonInParts(text, "g.json", InParts(threads, step));
  RC_ASSERT(in_parts.has_value());
  RC_ASSERT(Outcome(*in_parts) == Outcome(ParseGraphJson(text, "g.json", Reference())));
}

// Damaged text (a byte replaced by one that matters to JSON, or a run cut out): the reading in
// parts either declines it or reads what the reference reads, and ParseGraphJson answers as the
// reference does, error for error.
void Damage(std::string& text) {
  const int damages = *rc::gen::inRange(1, 4);
  for (int d = 0; d < damages && !text.empty(); ++d) {
    const size_t at = *rc::gen::inRange<size_t>(0, text.size());
    if (*rc::gen::arbitrary<bool>()) {
      text[at] = *rc::gen::elementOf(std::string("{}[],:\"\\ 0-9ae\x80"));
    } else {
      text.erase(at, *rc::gen::inRange<size_t>(1, 20));
    }
  }
}

RC_GTEST_PROP(GraphJsonInPartsProperty, DamagedTextGetsTheReferenceAnswer, ()) {
  std::string text = RandomModelText();
  Damage(text);
  const std::string reference = Outcome(ParseGraphJson(text, "g.json", Reference()));
  RC_ASSERT(Outcome(ParseGraphJson(text, "g.json", InParts(3, 2))) == reference);
  if (auto in_parts = ReadGraphJsonInParts(text, "g.json", InParts(3, 2))) {
    RC_ASSERT(Outcome(*in_parts) == reference);
  }
}

// The layout scan 64 bytes at a time finds what the byte-by-byte reference finds, on valid and
// damaged text, error for error.
RC_GTEST_PROP(GraphJsonLayoutProperty, FastScanEqualsTheReference, ()) {
  std::string text = RandomModelText();
  if (*rc::gen::arbitrary<bool>()) Damage(text);
  const int max_depth = *rc::gen::element(3, 6, 64);
  const size_t step = *rc::gen::inRange<size_t>(1, 5);
  const auto fast = ScanGraphJsonLayout(text, max_depth, step);
  const auto reference = ScanGraphJsonLayoutReference(text, max_depth, step);
  RC_ASSERT(fast.ok() == reference.ok());
  if (!fast.ok()) {
    RC_ASSERT(fast.status().message() == reference.status().message());
    return;
  }
  RC_CLASSIFY(fast->lists.empty(), "not splittable");
  RC_ASSERT(*fast == *reference);
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
