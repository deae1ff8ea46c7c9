#include "runtime/delegates/xnnpack/xnnpack_delegate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "runtime/delegates/testing/delegate_run_checks.h"
#include "runtime/delegates/testing/delegate_test_graphs.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using testing::Binary;
using testing::Constant;
using testing::ExpectPredictionMatches;
using testing::Float;
using testing::Ints;
using testing::MaxOutputError;
using testing::Measure;
using testing::PredictDelegation;
using testing::RunModel;
using testing::Unary;
using testing::Values;
using testing::Window;

// XNNPACK's float kernels sum in another order than the CPU kernels (and use its own exp, sigmoid,
// rounding of averages): close, not bit-exact.
constexpr double kTolerance = 1e-4;

std::unique_ptr<XnnpackDelegate> MakeXnnpack() {
  auto delegate = CreateXnnpackDelegate();
  EXPECT_TRUE(delegate.ok()) << delegate.status().message();
  return std::unique_ptr<XnnpackDelegate>(static_cast<XnnpackDelegate*>(delegate->release()));
}

// One small model per case: a [1, 6, 7, 4] float input and the nodes under test.
struct GraphCase {
  std::string name;
  std::function<void(ModelBuilder&, int32_t input)> build;  // adds nodes, sets outputs
};

std::vector<GraphCase> GraphCases() {
  std::vector<GraphCase> cases;
  cases.push_back({"conv_same_stride2_relu6", [](ModelBuilder& b, int32_t in) {
                     const int32_t w = Constant(b, "w", {5, 3, 3, 4}, 1);
                     const int32_t bias = Constant(b, "bias", {5}, 2);
                     const int32_t out = Float(b, "out", {1, 3, 4, 5});
                     b.AddNode(0, "CONV_2D", {in, w, bias}, {out},
                               Window(Padding::kSame, 2, Activation::kRelu6));
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"conv_valid_1x1", [](ModelBuilder& b, int32_t in) {
                     const int32_t w = Constant(b, "w", {3, 1, 1, 4}, 3);
                     const int32_t bias = Constant(b, "bias", {3}, 4);
                     const int32_t out = Float(b, "out", {1, 6, 7, 3});
                     b.AddNode(0, "CONV_2D", {in, w, bias}, {out}, Window(Padding::kValid, 1));
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"depthwise_multiplier2_relu", [](ModelBuilder& b, int32_t in) {
                     const int32_t w = Constant(b, "w", {1, 3, 3, 8}, 5);
                     const int32_t bias = Constant(b, "bias", {8}, 6);
                     const int32_t out = Float(b, "out", {1, 6, 7, 8});
                     OpOptions o = Window(Padding::kSame, 1, Activation::kRelu);
                     o.depth_multiplier = 2;
                     b.AddNode(0, "DEPTHWISE_CONV_2D", {in, w, bias}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"reshape_fully_connected", [](ModelBuilder& b, int32_t in) {
                     const int32_t shape = Ints(b, "shape", {2}, {1, 168});
                     const int32_t flat = Float(b, "flat", {1, 168});
                     b.AddNode(0, "RESHAPE", {in, shape}, {flat});
                     const int32_t w = Constant(b, "w", {10, 168}, 9);
                     const int32_t bias = Constant(b, "bias", {10}, 10);
                     const int32_t out = Float(b, "out", {1, 10});
                     b.AddNode(0, "FULLY_CONNECTED", {flat, w, bias}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"add_broadcast_relu", Binary("ADD", {4}, Activation::kRelu)});
  cases.push_back({"sub_broadcast_rows", Binary("SUB", {1, 6, 1, 4})});
  cases.push_back({"mul_same_shape", Binary("MUL", {1, 6, 7, 4})});
  cases.push_back({"maximum", Binary("MAXIMUM", {4})});
  cases.push_back({"prelu", Binary("PRELU", {1, 1, 4})});
  for (const char* op : {"RELU", "RELU6", "LOGISTIC", "HARD_SWISH", "ELU"})
    cases.push_back({std::string("unary_") + op, Unary(op)});
  cases.push_back({"average_pool_same", [](ModelBuilder& b, int32_t in) {
                     OpOptions o = Window(Padding::kSame, 2);
                     o.filter_h = o.filter_w = 3;
                     const int32_t out = Float(b, "out", {1, 3, 4, 4});
                     b.AddNode(0, "AVERAGE_POOL_2D", {in}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"max_pool_valid", [](ModelBuilder& b, int32_t in) {
                     OpOptions o = Window(Padding::kValid, 2);
                     o.filter_h = o.filter_w = 2;
                     const int32_t out = Float(b, "out", {1, 3, 3, 4});
                     b.AddNode(0, "MAX_POOL_2D", {in}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"resize_bilinear_half_pixel", [](ModelBuilder& b, int32_t in) {
                     const int32_t size = Ints(b, "size", {2}, {12, 11});
                     const int32_t out = Float(b, "out", {1, 12, 11, 4});
                     OpOptions o;
                     o.half_pixel_centers = true;
                     b.AddNode(0, "RESIZE_BILINEAR", {in, size}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"pad", [](ModelBuilder& b, int32_t in) {
                     const int32_t paddings = Ints(b, "paddings", {4, 2}, {0, 0, 1, 2, 0, 1, 3, 0});
                     const int32_t out = Float(b, "out", {1, 9, 8, 7});
                     b.AddNode(0, "PAD", {in, paddings}, {out});
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"mean_spatial", [](ModelBuilder& b, int32_t in) {
                     const int32_t axes = Ints(b, "axes", {2}, {1, 2});
                     const int32_t out = Float(b, "out", {1, 1, 1, 4});
                     OpOptions o;
                     o.keep_dims = true;
                     b.AddNode(0, "MEAN", {in, axes}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  cases.push_back({"softmax", [](ModelBuilder& b, int32_t in) {
                     const int32_t out = Float(b, "out", {1, 6, 7, 4});
                     OpOptions o;
                     o.beta = 1.0f;
                     b.AddNode(0, "SOFTMAX", {in}, {out}, o);
                     b.SetOutputs(0, {out});
                   }});
  return cases;
}

std::string WriteCase(const GraphCase& graph) {
  ModelBuilder builder(graph.name);
  builder.AddSubgraph("main");
  const int32_t input = Float(builder, "input", {1, 6, 7, 4});
  builder.SetInputs(0, {input});
  graph.build(builder, input);
  SyntheticModel model = std::move(builder).Finish();
  return testing::WriteTempFile(graph.name + ".tflite", WriteTflite(model.model, model.data));
}

class XnnpackGraphTest : public ::testing::TestWithParam<GraphCase> {};

// Every node on XNNPACK, reading and writing the interpreter's buffers in place.
TEST_P(XnnpackGraphTest, RunsOnXnnpackAndMatchesTheCpu) {
  const std::string path = WriteCase(GetParam());
  auto xnnpack = MakeXnnpack();
  auto delegated = RunModel(path, {xnnpack.get()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(delegated && cpu);
  const auto measured = Measure(*delegated);
  ExpectPredictionMatches(PredictDelegation(path, {"xnnpack"}), measured);
  EXPECT_EQ(measured.delegated_partitions, 1);
  EXPECT_EQ(measured.copies.bytes_to_delegate, 0u);
  EXPECT_EQ(measured.copies.bytes_from_delegate, 0u);
  ASSERT_EQ(xnnpack->partitions().size(), 1u);
  const XnnpackPartitionStats& stats = *xnnpack->partitions()[0];
  EXPECT_EQ(stats.xnnpack_nodes, static_cast<int32_t>(stats.nodes.size()));
  EXPECT_TRUE(stats.cpu_nodes.empty());
  EXPECT_EQ(stats.xnnpack_runtimes, 1);
  EXPECT_GT(stats.packed_weights_and_operators_bytes, 0u);
  EXPECT_LE(MaxOutputError(*delegated, *cpu), kTolerance);
}

INSTANTIATE_TEST_SUITE_P(Graphs, XnnpackGraphTest, ::testing::ValuesIn(GraphCases()),
                         [](const auto& info) { return info.param.name; });

// ADD -> TANH -> MUL: the xnnpack profile takes all three (upstream's current delegate has
// TANH), libXNNPACK 2022-02-16 has no TANH, so the partition runs as XNNPACK, CPU, XNNPACK.
TEST(XnnpackDelegateTest, SplitsAroundAnOpTheLibraryLacks) {
  ModelBuilder builder("split");
  builder.AddSubgraph("main");
  const std::vector<int32_t> shape = {1, 6, 7, 4};
  const int32_t input = Float(builder, "input", shape);
  const int32_t bias = Constant(builder, "bias", {4}, 1);
  const int32_t scale = Constant(builder, "scale", shape, 2);
  const int32_t sum = Float(builder, "sum", shape);
  const int32_t tanh = Float(builder, "tanh", shape);
  const int32_t out = Float(builder, "out", shape);
  builder.AddNode(0, "ADD", {input, bias}, {sum});
  builder.AddNode(0, "TANH", {sum}, {tanh});
  builder.AddNode(0, "MUL", {tanh, scale}, {out});
  builder.SetInputs(0, {input});
  builder.SetOutputs(0, {out});
  SyntheticModel model = std::move(builder).Finish();
  const std::string path =
      testing::WriteTempFile("split.tflite", WriteTflite(model.model, model.data));
  auto xnnpack = MakeXnnpack();
  auto delegated = RunModel(path, {xnnpack.get()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(delegated && cpu);
  const auto measured = Measure(*delegated);
  ExpectPredictionMatches(PredictDelegation(path, {"xnnpack"}), measured);
  EXPECT_EQ(measured.partition_nodes, (std::vector<std::vector<int32_t>>{{0, 1, 2}}));
  EXPECT_EQ(measured.copies.bytes_to_delegate + measured.copies.bytes_from_delegate, 0u);
  ASSERT_EQ(xnnpack->partitions().size(), 1u);
  const XnnpackPartitionStats& stats = *xnnpack->partitions()[0];
  EXPECT_EQ(stats.xnnpack_nodes, 2);
  EXPECT_EQ(stats.xnnpack_runtimes, 2);
  ASSERT_EQ(stats.cpu_nodes.size(), 1u);
  EXPECT_EQ(stats.cpu_nodes[0].node, 1);
  EXPECT_EQ(stats.cpu_nodes[0].op, "TANH");
  EXPECT_EQ(stats.cpu_nodes[0].reason, "not in libXNNPACK 2022-02-16");
  // sum and tanh cross between the runs and the CPU node: 168 floats each.
  EXPECT_EQ(stats.kernel_owned_bytes, 2u * 168 * 4);
  // Every value is external or static: no workspace.
  EXPECT_EQ(stats.workspace_bytes, 0u);
  EXPECT_LE(MaxOutputError(*delegated, *cpu), kTolerance);
}

// CONV_2D -> ADD: the conv's output is internal to the run, so libXNNPACK's memory planner gives
// it the workspace: 3 * 4 * 5 floats (240 bytes, already a multiple of XNN_EXTRA_BYTES) plus
// XNN_EXTRA_BYTES (16) for reads past the end (src/runtime.c).
TEST(XnnpackDelegateTest, MeasuresTheWorkspaceOfInternalValues) {
  ModelBuilder builder("workspace");
  builder.AddSubgraph("main");
  const int32_t input = Float(builder, "input", {1, 6, 7, 4});
  const int32_t w = Constant(builder, "w", {5, 3, 3, 4}, 1);
  const int32_t bias = Constant(builder, "bias", {5}, 2);
  const int32_t other = Constant(builder, "other", {5}, 3);
  const int32_t conv = Float(builder, "conv", {1, 3, 4, 5});
  const int32_t out = Float(builder, "out", {1, 3, 4, 5});
  builder.AddNode(0, "CONV_2D", {input, w, bias}, {conv}, Window(Padding::kSame, 2));
  builder.AddNode(0, "ADD", {conv, other}, {out});
  builder.SetInputs(0, {input});
  builder.SetOutputs(0, {out});
  SyntheticModel model = std::move(builder).Finish();
  const std::string path =
      testing::WriteTempFile("workspace.tflite", WriteTflite(model.model, model.data));
  auto xnnpack = MakeXnnpack();
  auto delegated = RunModel(path, {xnnpack.get()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(delegated && cpu);
  ASSERT_EQ(xnnpack->partitions().size(), 1u);
  const XnnpackPartitionStats& stats = *xnnpack->partitions()[0];
  EXPECT_EQ(stats.xnnpack_nodes, 2);
  EXPECT_EQ(stats.workspace_bytes, 240u + 16u);
  EXPECT_EQ(stats.kernel_owned_bytes, 0u);
  EXPECT_LE(MaxOutputError(*delegated, *cpu), kTolerance);
}

struct CorpusCase {
  std::string model;
  int32_t nodes = 0;  // in the one partition
  int32_t xnnpack_nodes = 0;
  int32_t unpacked_nodes = 0;
  std::vector<std::string> cpu_ops;
};

class XnnpackCorpusTest : public ::testing::TestWithParam<CorpusCase> {};

TEST_P(XnnpackCorpusTest, PartitionsAsPredictedAndMatchesTheCpu) {
  const CorpusCase& c = GetParam();
  const std::string path = tfa::testing::CorpusModelPath(c.model);
  auto xnnpack = MakeXnnpack();
  auto delegated = RunModel(path, {xnnpack.get()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(delegated && cpu);
  const auto measured = Measure(*delegated);
  ExpectPredictionMatches(PredictDelegation(path, {"xnnpack"}), measured);
  EXPECT_EQ(measured.copies.bytes_to_delegate + measured.copies.bytes_from_delegate, 0u);
  ASSERT_EQ(xnnpack->partitions().size(), 1u);
  const XnnpackPartitionStats& stats = *xnnpack->partitions()[0];
  EXPECT_EQ(static_cast<int32_t>(stats.nodes.size()), c.nodes);
  EXPECT_EQ(stats.xnnpack_nodes, c.xnnpack_nodes);
  EXPECT_EQ(stats.unpacked_nodes, c.unpacked_nodes);
  std::vector<std::string> cpu_ops;
  for (const auto& node : stats.cpu_nodes) cpu_ops.push_back(node.op);
  EXPECT_EQ(cpu_ops, c.cpu_ops);
  EXPECT_LE(MaxOutputError(*delegated, *cpu), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, XnnpackCorpusTest,
    ::testing::Values(CorpusCase{"face_detection__face_detection_short_range",
                                 164,
                                 88,
                                 74,
                                 {"CONCATENATION", "CONCATENATION"}},
                      CorpusCase{"selfie_segmentation__selfie_segmentation",
                                 246,
                                 135,
                                 110,
                                 {"Convolution2DTransposeBias"}},
                      CorpusCase{"hands__hand_landmark_lite", 167, 65, 102, {}}),
    [](const auto& info) { return info.param.model.substr(info.param.model.find("__") + 2); });

// An int8 model: the xnnpack profile (QS8 on) takes its nodes in 21 partitions, and the 2022
// library runs every one of them as QS8, per-channel filters and int32 biases included.
TEST(XnnpackDelegateTest, RunsAnInt8ModelAsQs8) {
  const std::string path = tfa::testing::OraclePath("int8/face_landmark_int8.tflite");
  auto xnnpack = MakeXnnpack();
  auto delegated = RunModel(path, {xnnpack.get()});
  ASSERT_TRUE(delegated);
  const auto measured = Measure(*delegated);
  ExpectPredictionMatches(PredictDelegation(path, {"xnnpack"}), measured);
  EXPECT_EQ(measured.delegated_partitions, 21);
  EXPECT_EQ(measured.copies.bytes_to_delegate + measured.copies.bytes_from_delegate, 0u);
  int32_t nodes = 0, on_xnnpack = 0;
  for (const auto& stats : xnnpack->partitions()) {
    nodes += static_cast<int32_t>(stats->nodes.size());
    on_xnnpack += stats->xnnpack_nodes;
    EXPECT_TRUE(stats->cpu_nodes.empty());
  }
  EXPECT_EQ(nodes, 74);
  EXPECT_EQ(on_xnnpack, 74);
}

InterpreterOptions WithDelegate(Delegate* delegate) {
  InterpreterOptions options;
  options.delegates = {delegate};
  return options;
}

// The model's one float32 output after an Invoke with every float32 input set to `value`.
float InvokeWith(Interpreter& interpreter, float value) {
  for (int32_t t : interpreter.inputs()) {
    RuntimeTensor& input = interpreter.tensor(t);
    for (int64_t i = 0; i < input.NumElements(); ++i) input.Data<float>()[i] = value;
  }
  const Status invoked = interpreter.Invoke();
  EXPECT_TRUE(invoked.ok()) << invoked.message();
  return interpreter.tensor(interpreter.outputs()[0]).Data<float>()[0];
}

// call_once_mul: CALL_ONCE assigns the variable, then each Invoke reads it, assigns x and
// returns read * x. Upstream's XNNPACK takes the init subgraph whole, the main VAR_HANDLE and the
// ASSIGN_VARIABLE with the MUL, and binds them to the interpreter's variable: the value assigned
// by one Invoke is what the CPU READ_VARIABLE reads at the next, as without the delegate.
TEST(XnnpackDelegateTest, ResourceVariablesAreTheInterpretersAcrossInvokes) {
  const std::string path =
      tfa::testing::OraclePath("external/LiteRT__tflite_testdata_call_once_mul.tflite");
  auto xnnpack = MakeXnnpack();
  // The init subgraph's arena is planned from a first Invoke's facts (`run` finds them first):
  // buffers of their own need none.
  InterpreterOptions options = WithDelegate(xnnpack.get());
  options.own_buffers = true;
  auto delegated = Interpreter::Create(path, options);
  ASSERT_TRUE(delegated.ok()) << delegated.status().message();
  options.delegates.clear();
  auto cpu = Interpreter::Create(path, options);
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  ASSERT_EQ(xnnpack->partitions().size(), 3u);
  for (const float x : {2.0f, 3.0f, -0.5f}) {
    const float expected = InvokeWith(**cpu, x);
    EXPECT_EQ(InvokeWith(**delegated, x), expected) << "x = " << x;
  }
  EXPECT_EQ(InvokeWith(**delegated, 4.0f), -0.5f * 4.0f);
}

// odml_sdpa_composite_gqa: the STABLEHLO_COMPOSITE is the partition's one node; its decomposition
// runs on the CPU kernels inside the delegate kernel, bit for bit the CPU-only run's, and the
// interpreter never sets up the decomposition subgraph (upstream prepares it only for the
// composite's own kernel).
TEST(XnnpackDelegateTest, ComputesACompositeByItsDecomposition) {
  const std::string path = tfa::testing::OraclePath(
      "external/LiteRT__tflite_delegates_xnnpack_odml_sdpa_composite_gqa.tflite");
  auto xnnpack = MakeXnnpack();
  auto delegated = Interpreter::Create(path, WithDelegate(xnnpack.get()));
  ASSERT_TRUE(delegated.ok()) << delegated.status().message();
  auto cpu = Interpreter::Create(path);
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  for (auto* interpreter : {delegated->get(), cpu->get()}) {
    for (int32_t t : interpreter->inputs()) {
      RuntimeTensor& input = interpreter->tensor(t);
      for (int64_t i = 0; i < input.NumElements(); ++i)
        input.Data<float>()[i] = static_cast<float>((i * 7 + t) % 13) / 13.0f - 0.5f;
    }
    const Status invoked = interpreter->Invoke();
    ASSERT_TRUE(invoked.ok()) << invoked.message();
  }
  const RuntimeTensor& got = (*delegated)->tensor((*delegated)->outputs()[0]);
  const RuntimeTensor& want = (*cpu)->tensor((*cpu)->outputs()[0]);
  ASSERT_EQ(got.bytes, want.bytes);
  EXPECT_EQ(std::memcmp(got.data, want.data, got.bytes), 0);
  ASSERT_EQ(xnnpack->partitions().size(), 1u);
  const XnnpackPartitionStats& stats = *xnnpack->partitions()[0];
  ASSERT_EQ(stats.cpu_nodes.size(), 1u);
  EXPECT_EQ(stats.cpu_nodes[0].op, "STABLEHLO_COMPOSITE");
  EXPECT_GT(stats.kernel_owned_bytes, 0u);
  EXPECT_FALSE((*delegated)->stats().subgraphs.at(1).runnable);
}

// qwen_fc_blockwise_quantized: one FULLY_CONNECTED with blockwise INT4 weights, which upstream's
// XNNPACK runs as qd8-f32-qb4w. The kernel's arithmetic gives upstream's own XNNPACK outputs for
// the seed-1 inputs (tests/oracle/external_outputs.tar.xz) bit for bit: all 1024 values.
TEST(XnnpackDelegateTest, BlockwiseInt4FullyConnectedGivesUpstreamsXnnpackOutputs) {
  const std::string name = "external/LiteRT__litert_test_testdata_qwen_fc_blockwise_quantized";
  auto xnnpack = MakeXnnpack();
  auto run =
      Interpreter::Create(tfa::testing::OraclePath(name + ".tflite"), WithDelegate(xnnpack.get()));
  ASSERT_TRUE(run.ok()) << run.status().message();
  FillDeterministicInputs(**run, 1);
  const Status invoked = (*run)->Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  std::ifstream file(tfa::testing::OraclePath(name + ".xnnpack.json"));
  const auto upstream = nlohmann::json::parse(file).at("output_tensors").at(0).at("values");
  const RuntimeTensor& out = (*run)->tensor((*run)->outputs()[0]);
  ASSERT_EQ(upstream.size(), static_cast<size_t>(out.NumElements()));
  double worst = 0;
  for (size_t i = 0; i < upstream.size(); ++i) {
    const double want = upstream[i].get<double>();
    worst =
        std::max(worst, std::fabs(out.Data<float>()[i] - want) / std::max(1.0, std::fabs(want)));
  }
  EXPECT_EQ(worst, 0.0);
  ASSERT_EQ(xnnpack->partitions().size(), 1u);
  EXPECT_EQ(xnnpack->partitions()[0]->cpu_nodes.at(0).op, "FULLY_CONNECTED");
}

TEST(XnnpackDelegateTest, UnknownOptionIsAnError) {
  auto delegate = CreateXnnpackDelegate({{"precision", "fp16"}});
  ASSERT_FALSE(delegate.ok());
  EXPECT_NE(delegate.status().message().find("precision"), std::string::npos)
      << delegate.status().message();
}

}  // namespace
}  // namespace tfa::runtime
