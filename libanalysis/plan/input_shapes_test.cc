#include "libanalysis/plan/input_shapes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddConstant;
using testing::AddNode;
using testing::AddTensor;

// tokens [1,16] (shape_signature [-1,16]) -> FULLY_CONNECTED (8 units) -> logits [1,8]; a
// signature "serve" names the input "ids". Subgraph 1 holds a WHILE on the path of its input.
Model DynamicBatchModel() {
  Model model;
  model.path = "m.tflite";
  Subgraph& g = model.subgraphs.emplace_back();
  const int32_t tokens = AddTensor(g, TensorType::kFloat32, {1, 16});
  g.tensors[static_cast<size_t>(tokens)].name = "tokens";
  g.tensors[static_cast<size_t>(tokens)].shape_signature = {-1, 16};
  const int32_t weights = AddConstant(g, TensorType::kFloat32, {8, 16});
  const int32_t logits = AddTensor(g, TensorType::kFloat32, {1, 8});
  g.tensors[static_cast<size_t>(logits)].name = "logits";
  AddNode(g, "FULLY_CONNECTED", {tokens, weights, -1}, {logits});
  g.inputs = {tokens};
  g.outputs = {logits};
  model.signatures.push_back({"serve", 0, {{"ids", tokens}}, {{"out", logits}}});

  Subgraph& loop = model.subgraphs.emplace_back();
  const int32_t x = AddTensor(loop, TensorType::kFloat32, {2});
  loop.tensors[static_cast<size_t>(x)].name = "x";
  loop.tensors[static_cast<size_t>(x)].shape_signature = {-1};
  const int32_t y = AddTensor(loop, TensorType::kFloat32, {2});
  AddNode(loop, "WHILE", {x}, {y});
  loop.inputs = {x};
  return model;
}

TEST(InputShapesTest, ParsesNameAndDimensions) {
  auto request = ParseInputShapeRequest("serving_default_x:0=4,128");
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_EQ(request->input, "serving_default_x:0");
  EXPECT_EQ(request->shape, (std::vector<int32_t>{4, 128}));
  EXPECT_TRUE(ParseInputShapeRequest("x=")->shape.empty());
  EXPECT_EQ(ParseInputShapeRequest("x=4,").status().message(),
            "--input-shape \"x=4,\": a trailing comma (expected NAME_OR_INDEX=D1,D2,...)");
  EXPECT_EQ(ParseInputShapeRequest("4,16").status().message(),
            "--input-shape \"4,16\": no NAME= (expected NAME_OR_INDEX=D1,D2,...)");
}

TEST(InputShapesTest, ResizesAndPropagatesThroughTheSubgraph) {
  Model model = DynamicBatchModel();
  auto resized = ResizeInputs(model, {{"tokens", {4, 16}}});
  ASSERT_TRUE(resized.ok()) << resized.status().message();
  EXPECT_EQ(resized->tensors, (std::vector<int32_t>{0}));
  const Subgraph& g = model.subgraphs[0];
  EXPECT_EQ(g.tensors[0].bytes, 256u);  // 4 x 16 floats
  EXPECT_EQ(g.tensors[2].shape, (std::vector<int32_t>{4, 8}));
  EXPECT_EQ(g.tensors[2].bytes, 128u);  // 4 x 8 floats
  // Given, so no longer assumed; the loop subgraph is no entry point.
  EXPECT_TRUE(AssumedDimensions(model, resized->tensors).empty());
}

TEST(InputShapesTest, SignatureKeysAndPositionsNameInputs) {
  Model by_key = DynamicBatchModel();
  ASSERT_TRUE(ResizeInputs(by_key, {{"ids", {3, 16}}}, "serve").ok());
  EXPECT_EQ(by_key.subgraphs[0].tensors[2].shape, (std::vector<int32_t>{3, 8}));
  Model by_position = DynamicBatchModel();
  ASSERT_TRUE(ResizeInputs(by_position, {{"0", {2, 16}}}).ok());
  EXPECT_EQ(by_position.subgraphs[0].tensors[2].shape, (std::vector<int32_t>{2, 8}));
}

// The report names an input by its signature key where a signature runs the subgraph ("input
// ids: dimension 0 assumed 1"): that name resizes it without --signature, as the tensor's own
// name does, and the lines about the resize use it.
TEST(InputShapesTest, TheNameTheReportShowsNamesTheInput) {
  ASSERT_EQ(AssumedDimensions(DynamicBatchModel()).at(0).input, "ids");
  for (const char* name : {"ids", "tokens", "#0"}) {
    Model model = DynamicBatchModel();
    auto resized = ResizeInputs(model, {{name, {3, 16}}});
    ASSERT_TRUE(resized.ok()) << name << ": " << resized.status().message();
    EXPECT_EQ(resized->names, (std::vector<std::string>{"ids"})) << name;
    EXPECT_EQ(model.subgraphs[0].tensors[2].shape, (std::vector<int32_t>{3, 8})) << name;
  }
}

TEST(InputShapesTest, NamesEveryAssumedDimension) {
  const std::vector<AssumedDimension> assumed = AssumedDimensions(DynamicBatchModel());
  ASSERT_EQ(assumed.size(), 1u);
  EXPECT_EQ(assumed[0].input, "ids");  // the signature's key for its input
  EXPECT_EQ(assumed[0].subgraph, 0);
  EXPECT_EQ(assumed[0].tensor, 0);
  EXPECT_EQ(assumed[0].dimension, 0);
  EXPECT_EQ(assumed[0].value, 1);
}

TEST(InputShapesTest, RefusesWhatResizeInputTensorStrictAndPrepareRefuse) {
  // The messages name the input as the report does: "ids", the signature's key for it.
  const auto error = [](std::vector<InputShapeRequest> requests,
                        const std::string& signature = "") {
    Model model = DynamicBatchModel();
    return ResizeInputs(model, requests, signature).status().message();
  };
  EXPECT_EQ(error({{"Tokens", {4, 16}}}),
            "m.tflite: --input-shape: no input \"Tokens\" (did you mean tokens?) (inputs: 0 'ids' "
            "(#0))");
  EXPECT_EQ(error({{"1", {4, 16}}}),
            "m.tflite: --input-shape: input \"1\": position 1 is out of range (1 inputs: 0 'ids' "
            "(#0); #T names tensor T)");
  EXPECT_EQ(error({{"tokens", {4}}}),
            "m.tflite: input \"ids\" [1,16]: 1 dimensions given, it has 2");
  EXPECT_EQ(error({{"tokens", {0, 16}}}),
            "m.tflite: input \"ids\" [1,16]: dimension 0 given as 0; dimensions are at least 1");
  EXPECT_EQ(error({{"tokens", {4, 32}}}),
            "m.tflite: input \"ids\" [1,16]: dimension 1 is fixed at 16 by the model "
            "(shape_signature [-1,16]); ResizeInputTensorStrict changes only -1 dimensions");
  EXPECT_EQ(error({{"tokens", {4, 16}}, {"0", {2, 16}}}),
            "m.tflite: --input-shape gives input \"ids\" twice");
  EXPECT_EQ(error({{"ids", {4, 16}}}, "nope"), "m.tflite: no signature \"nope\"");
}

TEST(InputShapesTest, AShapeANodeRejectsOrAnOpWithoutARuleNamesTheNode) {
  Model model = DynamicBatchModel();
  // A FULLY_CONNECTED whose weights no longer fit the input.
  model.subgraphs[0].tensors[0].shape_signature = {-1, -1};
  EXPECT_EQ(ResizeInputs(model, {{"tokens", {2, 12}}}).status().message(),
            "m.tflite: subgraph 0: node 0: FULLY_CONNECTED: input [2,12] is not a whole number "
            "of rows of depth 16");
  // The WHILE of subgraph 1, reached through a signature on it.
  model.signatures.push_back({"loop", 1, {{"x", 0}}, {}});
  EXPECT_EQ(ResizeInputs(model, {{"x", {5}}}, "loop").status().message(),
            "m.tflite: subgraph 1: node 0: WHILE: no shape rule");
}

}  // namespace
}  // namespace tfa
