// `run --validate` on generated models with the builtin LSTM's basic kernel (5 inputs, 4 outputs),
// which report already modelled: float32 on the CPU and on the OpenCL delegate (PoCL), uint8 on
// the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::SmallValues;

// x [2, 6] -> ADD bias -> LSTM (basic kernel, 4 units; previous activation and state are graph
// inputs) -> activation and state [2, 4]; the concatenation [2, 10] and gates [2, 16] are
// outputs nothing reads. The file states the intermediates with the activation's shape, as TOCO
// wrote them; Prepare resizes them. `state_type` other than float32 makes a model upstream's
// kernel refuses; the CPU kernel ignores `cell_clip`, upstream's GPU delegate refuses one.
std::string FloatBasicLstmModel(TensorType state_type = TensorType::kFloat32,
                                float cell_clip = 0.0f) {
  constexpr TensorType f32 = TensorType::kFloat32;
  ModelBuilder b("basic_lstm_float.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", f32, {2, 6});
  const int32_t shift = b.AddConstant(0, "shift", f32, {6}, FloatBytes(SmallValues(6, 0.5f, 1)));
  const int32_t shifted = b.AddTensor(0, "shifted", f32, {2, 6});
  const int32_t prev_activation = b.AddTensor(0, "prev_activation", f32, {2, 4});
  const int32_t weights =
      b.AddConstant(0, "weights", f32, {16, 10}, FloatBytes(SmallValues(160, 0.6f, 2)));
  const int32_t bias = b.AddConstant(0, "bias", f32, {16}, FloatBytes(SmallValues(16, 0.3f, 3)));
  const int32_t prev_state = b.AddTensor(0, "prev_state", state_type, {2, 4});
  const int32_t activation = b.AddTensor(0, "activation", f32, {2, 4});
  const int32_t state = b.AddTensor(0, "state", f32, {2, 4});
  const int32_t concat = b.AddTensor(0, "concat_temp", f32, {2, 4});
  const int32_t gates = b.AddTensor(0, "activation_temp", f32, {2, 4});
  b.AddNode(0, "ADD", {x, shift}, {shifted});
  OpOptions o;
  o.fused_activation = Activation::kTanh;
  o.lstm_basic_kernel = true;
  o.cell_clip = cell_clip;
  b.AddNode(0, "LSTM", {shifted, prev_activation, weights, bias, prev_state},
            {activation, state, concat, gates}, o, 2);
  b.SetInputs(0, {x, prev_activation, prev_state});
  b.SetOutputs(0, {activation, state});
  return testing::WriteSyntheticModel(std::move(b), std::string("basic_lstm_") +
                                                        TensorTypeName(state_type) + "_" +
                                                        std::to_string(cell_clip) + ".tflite");
}

// The uint8 kernel (LstmCell<4>) at 4 batch rows, where its product runs on gemmlowp: uint8
// activations in [-1, 127/128], weights of zero point 100, int32 bias, int16 state of scale
// `state_scale` (upstream's kernel takes 2^-11 only).
std::string QuantizedBasicLstmModel(float state_scale = 1.0f / 2048) {
  const auto q = [](float scale, int64_t zero_point) {
    Quantization quantization;
    quantization.scale = {scale};
    quantization.zero_point = {zero_point};
    return quantization;
  };
  const Quantization activations = q(1.0f / 128, 128), states = q(state_scale, 0);
  constexpr float kWeightsScale = 0.004f;
  ModelBuilder b("basic_lstm_uint8.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kUInt8, {4, 3}, activations);
  const int32_t prev_activation =
      b.AddTensor(0, "prev_activation", TensorType::kUInt8, {4, 5}, activations);
  std::vector<uint8_t> weight_values(20 * 8);
  for (size_t i = 0; i < weight_values.size(); ++i)
    weight_values[i] = static_cast<uint8_t>((i * 37 + 11) % 256);
  const int32_t weights = b.AddConstant(0, "weights", TensorType::kUInt8, {20, 8},
                                        std::move(weight_values), q(kWeightsScale, 100));
  std::vector<int32_t> bias_values(20);
  for (size_t i = 0; i < bias_values.size(); ++i)
    bias_values[i] = static_cast<int32_t>(i * 4099 % 20000) - 10000;
  const int32_t bias = b.AddConstant(0, "bias", TensorType::kInt32, {20}, Int32Bytes(bias_values),
                                     q(kWeightsScale / 128, 0));
  const int32_t prev_state = b.AddTensor(0, "prev_state", TensorType::kInt16, {4, 5}, states);
  const int32_t activation = b.AddTensor(0, "activation", TensorType::kUInt8, {4, 5}, activations);
  const int32_t state = b.AddTensor(0, "state", TensorType::kInt16, {4, 5}, states);
  const int32_t concat = b.AddTensor(0, "concat_temp", TensorType::kUInt8, {4, 8}, activations);
  const int32_t gates = b.AddTensor(0, "activation_temp", TensorType::kInt16, {4, 20}, q(1, 0));
  OpOptions o;
  o.fused_activation = Activation::kTanh;
  o.lstm_basic_kernel = true;
  b.AddNode(0, "LSTM", {x, prev_activation, weights, bias, prev_state},
            {activation, state, concat, gates}, o, 2);
  b.SetInputs(0, {x, prev_activation, prev_state});
  b.SetOutputs(0, {activation, state});
  return testing::WriteSyntheticModel(
      std::move(b), "basic_lstm_uint8_" + std::to_string(state_scale) + ".tflite");
}

nlohmann::json Validate(const std::string& options, const std::string& model) {
  auto run = RunTool("run --validate --json --input-seed 1 " + options + model);
  EXPECT_EQ(run.exit_code, 0) << options << run.err << run.out;
  auto j = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << run.out;
  return j;
}

TEST(RunBasicLstm, FloatValidatesOnTheCpuAndOnTheOpenClDelegate) {
  const std::string model = FloatBasicLstmModel();
  const nlohmann::json cpu = Validate("", model);
  EXPECT_TRUE(cpu.value("validated", false)) << cpu.dump();
  // Upstream's GPU delegate takes both nodes (basic kernel: 3 runtime and 2 constant inputs,
  // TANH); the outputs stay within the verdict's tolerance of the CPU-only run.
  const nlohmann::json gpu = Validate("--delegate gpu ", model);
  EXPECT_TRUE(gpu.value("validated", false)) << gpu.dump();
  EXPECT_EQ(gpu.at("measured").at("delegated_partitions"), 1) << gpu.dump();
  for (const auto& check : gpu.at("checks")) EXPECT_TRUE(check.at("ok").get<bool>()) << check;
  ASSERT_EQ(gpu.at("outputs").size(), 2u);
  for (const auto& output : gpu.at("outputs"))
    EXPECT_LE(output.at("max_error").get<double>(), gpu.at("tolerance").get<double>()) << output;
}

// gpu_compatibility.cc's CheckBasicParameters: a clipped basic LSTM stays on the CPU, the ADD
// before it goes to the GPU alone.
TEST(RunBasicLstm, AClippedBasicLstmStaysOnTheCpu) {
  const std::string model = FloatBasicLstmModel(TensorType::kFloat32, 2.0f);
  auto report = RunTool("report --json --delegate gpu " + model);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto partitions = nlohmann::json::parse(report.out).at("subgraphs")[0].at("partitions");
  ASSERT_EQ(partitions.size(), 2u) << partitions;
  EXPECT_EQ(partitions[0].at("nodes"), nlohmann::json::array({0})) << partitions;
  EXPECT_EQ(partitions[1].at("kind"), "cpu") << partitions;
  const nlohmann::json gpu = Validate("--delegate gpu ", model);
  EXPECT_TRUE(gpu.value("validated", false)) << gpu.dump();
}

TEST(RunBasicLstm, Uint8ValidatesOnTheCpu) {
  const nlohmann::json cpu = Validate("", QuantizedBasicLstmModel());
  EXPECT_TRUE(cpu.value("validated", false)) << cpu.dump();
}

// A basic LSTM upstream's kernel cannot run is refused before anything runs, in one line naming
// the node, the op and what the kernel lacks.
TEST(RunBasicLstm, WhatUpstreamsKernelRefusesIsRefusedBeforeRunning) {
  auto int32_state = RunTool("run " + FloatBasicLstmModel(TensorType::kInt32));
  EXPECT_EQ(int32_state.exit_code, 2) << int32_state.out;
  EXPECT_NE(int32_state.err.find("node 1 (LSTM): previous state is int32 where the float32 basic "
                                 "kernel needs float32 (upstream's LstmCell has no other "
                                 "combination)"),
            std::string::npos)
      << int32_state.err;
  auto five_bits = RunTool("run " + QuantizedBasicLstmModel(1.0f / 1024));
  EXPECT_EQ(five_bits.exit_code, 2) << five_bits.out;
  EXPECT_NE(five_bits.err.find("node 0 (LSTM): the state output's scale 2^-10 gives it 5 integer "
                               "bits; upstream's quantized LstmCell takes 4 only (2^-11)\n"),
            std::string::npos)
      << five_bits.err;
  EXPECT_EQ(std::count(five_bits.err.begin(), five_bits.err.end(), '\n'), 1) << five_bits.err;
}

}  // namespace
}  // namespace tfa
