// `run --validate` on generated models with the kernels whose outputs upstream's Prepare may make
// dynamic: NON_MAX_SUPPRESSION_V4 / V5 (from a max_output_size known only at Eval), UNIQUE
// (always), SPARSE_TO_DENSE (from a shape known only at Eval). The analyser's plan leaves those
// outputs out of the arena and stops planning at the node; the run gives them buffers of their
// own and must measure what the plan predicts. Also the small integer ops: BITWISE_XOR,
// RIGHT_SHIFT, MATRIX_SET_DIAG, BITCAST, BROADCAST_ARGS.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "runtime/npy.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// Upstream's test boxes (non_max_suppression_test.cc).
const std::vector<float> kBoxes = {1, 1,  0, 0,  0, 0.1f,  1, 1.1f,  0, .9f, 1, -0.1f,
                                   0, 10, 1, 11, 1, 10.1f, 0, 11.1f, 1, 101, 0, 100};

// boxes [6,4] and scores [6] (graph inputs) -> NMS (iou 0.5, score threshold 0.1 constants; V5
// adds sigma 0.5) -> selected indices (and scores) and their count. `max_output_size` >= 0: a
// constant; < 0: a graph input named "max_output_size".
std::string NmsModel(bool soft, int32_t max_output_size) {
  constexpr TensorType f32 = TensorType::kFloat32;
  const bool constant = max_output_size >= 0;
  const std::string name =
      std::string(soft ? "nms_v5" : "nms_v4") + (constant ? "_constant" : "_input") + ".tflite";
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t boxes = b.AddTensor(0, "boxes", f32, {6, 4});
  const int32_t scores = b.AddTensor(0, "scores", f32, {6});
  const int32_t size = constant ? b.AddConstant(0, "max_output_size", TensorType::kInt32, {},
                                                Int32Bytes({max_output_size}))
                                : b.AddTensor(0, "max_output_size", TensorType::kInt32, {});
  const int32_t iou = b.AddConstant(0, "iou_threshold", f32, {}, FloatBytes({0.5f}));
  const int32_t threshold = b.AddConstant(0, "score_threshold", f32, {}, FloatBytes({0.1f}));
  std::vector<int32_t> inputs = {boxes, scores, size, iou, threshold};
  const int32_t rows = constant ? max_output_size : 1;
  const std::vector<int32_t> signature = constant ? std::vector<int32_t>{} : std::vector{-1};
  std::vector<int32_t> outputs = {
      b.AddTensor(0, "selected_indices", TensorType::kInt32, {rows}, {}, signature)};
  if (soft) {
    inputs.push_back(b.AddConstant(0, "sigma", f32, {}, FloatBytes({0.5f})));
    outputs.push_back(b.AddTensor(0, "selected_scores", f32, {rows}, {}, signature));
  }
  outputs.push_back(b.AddTensor(0, "num_selected", TensorType::kInt32, {}));
  b.AddNode(0, soft ? "NON_MAX_SUPPRESSION_V5" : "NON_MAX_SUPPRESSION_V4", inputs, outputs);
  std::vector<int32_t> graph_inputs = {boxes, scores};
  if (!constant) graph_inputs.push_back(size);
  b.SetInputs(0, graph_inputs);
  b.SetOutputs(0, outputs);
  return testing::WriteSyntheticModel(std::move(b), name);
}

// x [8] (a graph input) -> UNIQUE -> values [n] (dynamic) and the index of each element [8].
std::string UniqueModel() {
  ModelBuilder b("unique.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {8});
  const int32_t values = b.AddTensor(0, "values", TensorType::kFloat32, {1}, {}, {-1});
  const int32_t index = b.AddTensor(0, "index", TensorType::kInt32, {8});
  b.AddNode(0, "UNIQUE", {x}, {values, index});
  b.SetInputs(0, {x});
  b.SetOutputs(0, {values, index});
  return testing::WriteSyntheticModel(std::move(b), "unique.tflite");
}

template <typename T>
std::string Npy(const std::string& name, TensorType type, const std::vector<int32_t>& shape,
                const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::copy_n(reinterpret_cast<const uint8_t*>(values.data()), bytes.size(), bytes.begin());
  auto npy = runtime::EncodeNpy(type, shape, bytes);
  EXPECT_TRUE(npy.ok()) << npy.status().message();
  return testing::WriteTempFile(name, std::string(npy->begin(), npy->end()));
}

// The NMS inputs of upstream's test: its boxes, scores {0.9, 0.75, 0.6, 0.95, 0.5, 0.3}.
std::string NmsInputs() {
  return " --input boxes=" + Npy("boxes.npy", TensorType::kFloat32, {6, 4}, kBoxes) +
         " --input scores=" +
         Npy("scores.npy", TensorType::kFloat32, {6},
             std::vector<float>{0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f}) +
         " ";
}

nlohmann::json RunJson(const std::string& options, const std::string& model) {
  auto run = RunTool("run --validate --json --input-seed 1 " + options + model);
  EXPECT_EQ(run.exit_code, 0) << options << run.err << run.out;
  auto j = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << run.out;
  return j;
}

nlohmann::json Report(const std::string& model) {
  auto report = RunTool("report --json " + model);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  return nlohmann::json::parse(report.out, nullptr, false);
}

TEST(RunDynamicOps, NmsWithAConstantMaxOutputSizeIsPlannedWhole) {
  for (bool soft : {false, true}) {
    const std::string model = NmsModel(soft, 6);
    const nlohmann::json report = Report(model);
    EXPECT_FALSE(report.at("subgraphs")[0].at("arena").contains("planning_stops_at_node"))
        << report.dump();
    const nlohmann::json run = RunJson(NmsInputs(), model);
    EXPECT_TRUE(run.value("validated", false)) << run.dump();
  }
}

TEST(RunDynamicOps, NmsWithAMaxOutputSizeGivenAtRunTimeStopsThePlanAndValidates) {
  const std::string size = Npy("max_output_size.npy", TensorType::kInt32, {}, std::vector{3});
  for (bool soft : {false, true}) {
    const std::string model = NmsModel(soft, -1);
    const nlohmann::json report = Report(model);
    EXPECT_EQ(report.at("subgraphs")[0].at("arena").value("planning_stops_at_node", -1), 0)
        << report.dump();
    const nlohmann::json run =
        RunJson(NmsInputs() + "--input max_output_size=" + size + " ", model);
    EXPECT_TRUE(run.value("validated", false)) << run.dump();
  }
}

TEST(RunDynamicOps, UniqueValidatesWithItsValuesOutsideTheArena) {
  const std::string model = UniqueModel();
  const nlohmann::json report = Report(model);
  EXPECT_EQ(report.at("subgraphs")[0].at("arena").value("planning_stops_at_node", -1), 0)
      << report.dump();
  const std::string x =
      Npy("x.npy", TensorType::kFloat32, {8}, std::vector<float>{2, 3, 5, 7, 2, 7, 3, 1});
  const nlohmann::json run = RunJson("--input x=" + x + " ", model);
  EXPECT_TRUE(run.value("validated", false)) << run.dump();
  // The generated inputs, eight distinct floats, validate too.
  EXPECT_TRUE(RunJson("", model).value("validated", false));
}

// a int32 [2,3,3] ^ b [3] -> >> 3 -> the diagonals of MATRIX_SET_DIAG from d [2,3] -> BITCAST to
// int16 [2,3,3,2]: the small integer ops, chained.
std::string SmallIntegerOpsModel() {
  constexpr TensorType i32 = TensorType::kInt32;
  ModelBuilder b("small_integer_ops.tflite");
  b.AddSubgraph("main");
  const int32_t a = b.AddTensor(0, "a", i32, {2, 3, 3});
  const int32_t mask = b.AddConstant(0, "mask", i32, {3}, Int32Bytes({0x0f0f, -1, 12345}));
  const int32_t xored = b.AddTensor(0, "xored", i32, {2, 3, 3});
  const int32_t three = b.AddConstant(0, "three", i32, {1}, Int32Bytes({3}));
  const int32_t shifted = b.AddTensor(0, "shifted", i32, {2, 3, 3});
  const int32_t d = b.AddTensor(0, "d", i32, {2, 3});
  const int32_t set = b.AddTensor(0, "set", i32, {2, 3, 3});
  const int32_t halves = b.AddTensor(0, "halves", TensorType::kInt16, {2, 3, 3, 2});
  b.AddNode(0, "BITWISE_XOR", {a, mask}, {xored});
  b.AddNode(0, "RIGHT_SHIFT", {xored, three}, {shifted});
  b.AddNode(0, "MATRIX_SET_DIAG", {shifted, d}, {set});
  b.AddNode(0, "BITCAST", {set}, {halves});
  b.SetInputs(0, {a, d});
  b.SetOutputs(0, {halves});
  return testing::WriteSyntheticModel(std::move(b), "small_integer_ops.tflite");
}

TEST(RunDynamicOps, SmallIntegerOpsValidate) {
  const nlohmann::json run = RunJson("", SmallIntegerOpsModel());
  EXPECT_TRUE(run.value("validated", false)) << run.dump();
}

// a [1,3] broadcast to BROADCAST_ARGS([2,1], [1,3]) (constants: folded at Prepare); and
// SPARSE_TO_DENSE of constant indices and values into the shape input `shape` (dynamic).
std::string ShapeOpsModel() {
  constexpr TensorType f32 = TensorType::kFloat32, i32 = TensorType::kInt32;
  ModelBuilder b("shape_ops.tflite");
  b.AddSubgraph("main");
  const int32_t a = b.AddTensor(0, "a", f32, {1, 3});
  const int32_t rows = b.AddConstant(0, "rows", i32, {2}, Int32Bytes({2, 1}));
  const int32_t columns = b.AddConstant(0, "columns", i32, {2}, Int32Bytes({1, 3}));
  const int32_t both = b.AddTensor(0, "both", i32, {2});
  const int32_t broadcast = b.AddTensor(0, "broadcast", f32, {2, 3});
  b.AddNode(0, "BROADCAST_ARGS", {rows, columns}, {both});
  b.AddNode(0, "BROADCAST_TO", {a, both}, {broadcast});
  const int32_t indices = b.AddConstant(0, "indices", i32, {3, 2}, Int32Bytes({0, 0, 1, 2, 2, 1}));
  const int32_t shape = b.AddTensor(0, "shape", i32, {2});
  const int32_t values = b.AddConstant(0, "values", f32, {3}, FloatBytes({2, 4, 6}));
  const int32_t fill = b.AddConstant(0, "fill", f32, {1}, FloatBytes({-1}));
  const int32_t dense = b.AddTensor(0, "dense", f32, {1, 1}, {}, {-1, -1});
  b.AddNode(0, "SPARSE_TO_DENSE", {indices, shape, values, fill}, {dense});
  b.SetInputs(0, {a, shape});
  b.SetOutputs(0, {broadcast, dense});
  return testing::WriteSyntheticModel(std::move(b), "shape_ops.tflite");
}

TEST(RunDynamicOps, BroadcastArgsFoldsAndSparseToDenseIsSizedAtEval) {
  const std::string model = ShapeOpsModel();
  const nlohmann::json report = Report(model);
  EXPECT_EQ(report.at("subgraphs")[0].at("arena").value("planning_stops_at_node", -1), 2)
      << report.dump();
  const std::string shape = Npy("shape.npy", TensorType::kInt32, {2}, std::vector{3, 4});
  const nlohmann::json run = RunJson("--input shape=" + shape + " ", model);
  EXPECT_TRUE(run.value("validated", false)) << run.dump();
}

// None of these ops has a kernel in TFLite Micro (micro_mutable_op_resolver.h has no Add for
// them); --target tflm refuses the first node it meets.
TEST(RunDynamicOps, TflmHasNoKernelForThem) {
  struct Refusal {
    std::string model;
    int node;
    std::string op;
  };
  // BROADCAST_ARGS and BROADCAST_TO are TFLM's (broadcast_args.cc, broadcast_to.cc).
  const std::vector<Refusal> refusals = {{NmsModel(false, 6), 0, "NON_MAX_SUPPRESSION_V4"},
                                         {NmsModel(true, 6), 0, "NON_MAX_SUPPRESSION_V5"},
                                         {UniqueModel(), 0, "UNIQUE"},
                                         {SmallIntegerOpsModel(), 0, "BITWISE_XOR"},
                                         {ShapeOpsModel(), 2, "SPARSE_TO_DENSE"}};
  for (const Refusal& r : refusals) {
    auto run = RunTool("report --target tflm " + r.model);
    EXPECT_EQ(run.exit_code, 2) << run.out;
    EXPECT_NE(run.err.find("node " + std::to_string(r.node) + " (" + r.op +
                           "): TFLite Micro has no kernel for " + r.op),
              std::string::npos)
        << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

}  // namespace
}  // namespace tfa
