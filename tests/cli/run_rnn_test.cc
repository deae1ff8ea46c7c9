// `run --validate` on generated models with the RNN family (RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
// BIDIRECTIONAL_SEQUENCE_RNN): float32 and hybrid (int8 / uint8 weights) kernels, their hidden
// states variable tensors the kernels update in place, the hybrid kernels' temporaries as the
// analyser plans them. TFLite Micro has none of these ops: `report --target tflm` refuses them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::SmallValues;

// A [rows, cols] weight constant: float32, or symmetric 8-bit (int8, or the same bytes in a
// uint8 tensor, as upstream's hybrid kernels read them) with one scale.
int32_t Weights(ModelBuilder& b, const std::string& name, TensorType type, int32_t rows,
                int32_t cols, uint32_t seed) {
  const std::vector<float> values = SmallValues(static_cast<size_t>(rows * cols), 0.5f, seed);
  if (type == TensorType::kFloat32)
    return b.AddConstant(0, name, type, {rows, cols}, FloatBytes(values));
  float range = 0;
  for (float v : values) range = std::max(range, std::abs(v));
  std::vector<int8_t> q;
  for (float v : values) q.push_back(static_cast<int8_t>(std::lround(v * 127.0f / range)));
  Quantization quantization;
  quantization.scale = {range / 127.0f};
  quantization.zero_point = {0};
  return b.AddConstant(0, name, type, {rows, cols}, Int8Bytes(q), quantization);
}

struct Cell {
  int32_t weights, recurrent, bias, hidden;
};

// `recurrent` other than `weights` makes a cell upstream's kernel refuses.
Cell AddCell(ModelBuilder& b, const std::string& prefix, TensorType weights, int32_t units,
             int32_t input_size, int32_t batch, uint32_t seed,
             std::optional<TensorType> recurrent = std::nullopt) {
  Cell c;
  c.weights = Weights(b, prefix + "weights", weights, units, input_size, seed);
  c.recurrent =
      Weights(b, prefix + "recurrent_weights", recurrent.value_or(weights), units, units, seed + 1);
  c.bias = b.AddConstant(0, prefix + "bias", TensorType::kFloat32, {units},
                         FloatBytes(SmallValues(static_cast<size_t>(units), 0.3f, seed + 2)));
  c.hidden = b.AddVariable(0, prefix + "hidden_state", TensorType::kFloat32, {batch, units});
  return c;
}

// An RNN whose hidden state is a graph input, not a variable tensor.
std::string RnnModelWithInputState() {
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b("rnn_input_state.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", f32, {2, 6});
  Cell c = AddCell(b, "", f32, 4, 6, 2, 10);
  c.hidden = b.AddTensor(0, "hidden_state_input", f32, {2, 4});
  const int32_t out = b.AddTensor(0, "out", f32, {2, 4});
  b.AddNode(0, "RNN", {x, c.weights, c.recurrent, c.bias, c.hidden}, {out});
  b.SetInputs(0, {x, c.hidden});
  b.SetOutputs(0, {out});
  return testing::WriteSyntheticModel(std::move(b), "rnn_input_state.tflite");
}

// x [2, 6] -> ADD -> RNN (4 units, TANH) -> [2, 4].
std::string RnnModel(TensorType weights, std::optional<TensorType> recurrent = std::nullopt) {
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b("rnn.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", f32, {2, 6});
  const int32_t shift = b.AddConstant(0, "shift", f32, {6}, FloatBytes(SmallValues(6, 0.5f, 1)));
  const int32_t shifted = b.AddTensor(0, "shifted", f32, {2, 6});
  const Cell c = AddCell(b, "", weights, 4, 6, 2, 10, recurrent);
  const int32_t out = b.AddTensor(0, "out", f32, {2, 4});
  b.AddNode(0, "ADD", {x, shift}, {shifted});
  OpOptions o;
  o.fused_activation = Activation::kTanh;
  o.asymmetric_quantize_inputs = weights != f32;
  b.AddNode(0, "RNN", {shifted, c.weights, c.recurrent, c.bias, c.hidden}, {out}, o);
  b.SetInputs(0, {x});
  b.SetOutputs(0, {out});
  return testing::WriteSyntheticModel(
      std::move(b), std::string("rnn_") + TensorTypeName(weights) +
                        (recurrent ? TensorTypeName(*recurrent) : "") + ".tflite");
}

// x [2, 3, 6] (time-major: [3, 2, 6]) -> UNIDIRECTIONAL_SEQUENCE_RNN (5 units, RELU) -> ADD.
std::string SequenceRnnModel(TensorType weights, bool time_major) {
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b("sequence_rnn.tflite");
  b.AddSubgraph("main");
  const std::vector<int32_t> in_shape =
      time_major ? std::vector<int32_t>{3, 2, 6} : std::vector<int32_t>{2, 3, 6};
  const int32_t x = b.AddTensor(0, "x", f32, in_shape);
  const Cell c = AddCell(b, "", weights, 5, 6, 2, 20);
  const int32_t rnn = b.AddTensor(0, "rnn", f32, {in_shape[0], in_shape[1], 5});
  const int32_t shift = b.AddConstant(0, "shift", f32, {5}, FloatBytes(SmallValues(5, 0.5f, 2)));
  const int32_t out = b.AddTensor(0, "out", f32, {in_shape[0], in_shape[1], 5});
  OpOptions o;
  o.fused_activation = Activation::kRelu;
  o.time_major = time_major;
  o.asymmetric_quantize_inputs = weights == TensorType::kInt8;
  b.AddNode(0, "UNIDIRECTIONAL_SEQUENCE_RNN", {x, c.weights, c.recurrent, c.bias, c.hidden}, {rnn},
            o);
  b.AddNode(0, "ADD", {rnn, shift}, {out});
  b.SetInputs(0, {x});
  b.SetOutputs(0, {out});
  return testing::WriteSyntheticModel(std::move(b),
                                      std::string("sequence_rnn_") + TensorTypeName(weights) +
                                          (time_major ? "_time_major" : "") + ".tflite");
}

// x [2, 3, 6] -> BIDIRECTIONAL_SEQUENCE_RNN (4 forward, 3 backward units, RELU), the outputs
// merged into [2, 3, 7] or apart.
std::string BidirectionalRnnModel(TensorType weights, bool merge) {
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b("bidirectional_rnn.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", f32, {2, 3, 6});
  const Cell fw = AddCell(b, "fw_", weights, 4, 6, 2, 30);
  const Cell bw = AddCell(b, "bw_", weights, 3, 6, 2, 40);
  std::vector<int32_t> outputs = {b.AddTensor(0, "fw_out", f32, {2, 3, merge ? 7 : 4})};
  if (!merge) outputs.push_back(b.AddTensor(0, "bw_out", f32, {2, 3, 3}));
  OpOptions o;
  o.fused_activation = Activation::kRelu;
  o.merge_outputs = merge;
  o.asymmetric_quantize_inputs = weights != f32;
  b.AddNode(0, "BIDIRECTIONAL_SEQUENCE_RNN",
            {x, fw.weights, fw.recurrent, fw.bias, fw.hidden, bw.weights, bw.recurrent, bw.bias,
             bw.hidden, -1, -1, -1},
            outputs, o);
  b.SetInputs(0, {x});
  b.SetOutputs(0, outputs);
  return testing::WriteSyntheticModel(std::move(b), std::string("bidirectional_rnn_") +
                                                        TensorTypeName(weights) +
                                                        (merge ? "_merged" : "") + ".tflite");
}

nlohmann::json Validate(const std::string& model) {
  auto run = RunTool("run --validate --json --input-seed 1 " + model);
  EXPECT_EQ(run.exit_code, 0) << model << run.err << run.out;
  auto j = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << run.out;
  return j;
}

void ExpectValidated(const std::string& model) {
  const nlohmann::json j = Validate(model);
  EXPECT_TRUE(j.value("validated", false)) << model << "\n" << j.dump();
}

TEST(RunRnn, RnnValidatesWithFloatAndHybridWeights) {
  for (TensorType weights : {TensorType::kFloat32, TensorType::kInt8, TensorType::kUInt8})
    ExpectValidated(RnnModel(weights));
}

TEST(RunRnn, UnidirectionalSequenceRnnValidatesBatchAndTimeMajor) {
  for (TensorType weights : {TensorType::kFloat32, TensorType::kInt8}) {
    for (bool time_major : {false, true}) ExpectValidated(SequenceRnnModel(weights, time_major));
  }
}

TEST(RunRnn, BidirectionalSequenceRnnValidatesMergedAndApart) {
  ExpectValidated(BidirectionalRnnModel(TensorType::kFloat32, false));
  ExpectValidated(BidirectionalRnnModel(TensorType::kFloat32, true));
  ExpectValidated(BidirectionalRnnModel(TensorType::kUInt8, false));
}

// Neither upstream's GPU delegate (model_builder.cc has no parser for them) nor XNNPACK takes an
// RNN op: the node stays on the CPU, the ADD after it is delegated.
TEST(RunRnn, DelegatesLeaveTheRnnOpsOnTheCpu) {
  const std::string model = SequenceRnnModel(TensorType::kFloat32, false);
  for (const char* delegate : {"gpu", "xnnpack"}) {
    auto report = RunTool(std::string("report --json --delegate ") + delegate + " " + model);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    const auto partitions = nlohmann::json::parse(report.out).at("subgraphs")[0].at("partitions");
    ASSERT_EQ(partitions.size(), 2u) << delegate << partitions;
    EXPECT_EQ(partitions[0].at("kind"), "cpu") << delegate << partitions;
    EXPECT_EQ(partitions[0].at("nodes"), nlohmann::json::array({0})) << delegate << partitions;
    EXPECT_EQ(partitions[1].at("nodes"), nlohmann::json::array({1})) << delegate << partitions;
  }
}

// What upstream's kernel refuses is refused before anything runs, in one line naming the node,
// the op and the types.
TEST(RunRnn, WhatUpstreamsKernelRefusesIsRefusedBeforeRunning) {
  auto run = RunTool("run " + RnnModel(TensorType::kInt8, TensorType::kFloat32));
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.err.find("node 1 (RNN): weights of types int8 and float32: upstream's kernel "
                         "takes one type for all\n"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  auto input_state = RunTool("run " + RnnModelWithInputState());
  EXPECT_EQ(input_state.exit_code, 2) << input_state.out;
  EXPECT_NE(input_state.err.find("node 0 (RNN): input 4 (a hidden state) is not a variable tensor: "
                                 "upstream's kernel reads it with GetVariableInput and its Eval "
                                 "fails\n"),
            std::string::npos)
      << input_state.err;
}

// micro_mutable_op_resolver.h has no Add function for any RNN op.
TEST(RunRnn, TflmRefusesTheRnnOpsNamingThem) {
  const std::vector<std::pair<std::string, std::string>> models = {
      {RnnModel(TensorType::kFloat32), "node 1 (RNN): TFLite Micro has no kernel for RNN"},
      {SequenceRnnModel(TensorType::kFloat32, false),
       "node 0 (UNIDIRECTIONAL_SEQUENCE_RNN): TFLite Micro has no kernel for "
       "UNIDIRECTIONAL_SEQUENCE_RNN"},
      {BidirectionalRnnModel(TensorType::kFloat32, true),
       "node 0 (BIDIRECTIONAL_SEQUENCE_RNN): TFLite Micro has no kernel for "
       "BIDIRECTIONAL_SEQUENCE_RNN"}};
  for (const auto& [model, reason] : models) {
    auto run = RunTool("report --target tflm " + model);
    EXPECT_EQ(run.exit_code, 2) << run.out;
    EXPECT_NE(run.err.find(reason), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

}  // namespace
}  // namespace tfa
