// `run --validate` on a generated 16x8 model (int16 activations, int8 weights, int64 biases)
// through the int16 kernels: CONV_2D, RELU, MAX_POOL_2D, AVERAGE_POOL_2D, FULLY_CONNECTED,
// SOFTMAX, TANH, LEAKY_RELU and LOGISTIC.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

Quantization Symmetric(std::vector<float> scales, int32_t dimension = 0) {
  Quantization q;
  q.scale = std::move(scales);
  q.zero_point.assign(q.scale.size(), 0);
  q.quantized_dimension = dimension;
  return q;
}

std::vector<uint8_t> Int64Bytes(const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(int64_t));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<int8_t> Weights(size_t n, int seed) {
  std::vector<int8_t> w(n);
  for (size_t i = 0; i < n; ++i)
    w[i] = static_cast<int8_t>(static_cast<int>((i * 37 + static_cast<size_t>(seed) * 11) % 201) -
                               100);
  return w;
}

// x [1, 4, 4, 2] (2^-12) -> CONV_2D 3x3 SAME, 4 channels of their own scales (2^-11) -> RELU
//   -> MAX_POOL_2D 2x2 -> TANH (2^-11 input: gemmlowp's doubling path) -> tanh_out
//   -> AVERAGE_POOL_2D 2x2 -> FULLY_CONNECTED [6, 16] -> SOFTMAX -> probabilities
//                  conv -> LEAKY_RELU 0.2 -> LOGISTIC (2^-11 input: the table path) -> gate
std::string Int16x8Model() {
  constexpr TensorType i16 = TensorType::kInt16;
  ModelBuilder b("int16x8_activations.tflite");
  b.AddSubgraph("main");
  const float s11 = 1.0f / 2048, s12 = 1.0f / 4096, s15 = 1.0f / 32768;
  const int32_t x = b.AddTensor(0, "x", i16, {1, 4, 4, 2}, Symmetric({s12}));
  const int32_t filter =
      b.AddConstant(0, "filter", TensorType::kInt8, {4, 3, 3, 2}, Int8Bytes(Weights(72, 1)),
                    Symmetric({0.0005f, 0.0007f, 0.0009f, 0.0011f}));
  const int32_t conv_bias =
      b.AddConstant(0, "conv_bias", TensorType::kInt64, {4}, Int64Bytes({1000, -2000, 300, 0}));
  const int32_t conv = b.AddTensor(0, "conv", i16, {1, 4, 4, 4}, Symmetric({s11}));
  const int32_t relu = b.AddTensor(0, "relu", i16, {1, 4, 4, 4}, Symmetric({s11}));
  const int32_t max = b.AddTensor(0, "max", i16, {1, 2, 2, 4}, Symmetric({s11}));
  const int32_t tanh_out = b.AddTensor(0, "tanh_out", i16, {1, 2, 2, 4}, Symmetric({s15}));
  const int32_t avg = b.AddTensor(0, "avg", i16, {1, 2, 2, 4}, Symmetric({s11}));
  const int32_t fc_weights = b.AddConstant(0, "fc_weights", TensorType::kInt8, {6, 16},
                                           Int8Bytes(Weights(96, 2)), Symmetric({0.01f}));
  const int32_t fc_bias =
      b.AddConstant(0, "fc_bias", TensorType::kInt64, {6}, Int64Bytes({5, -5, 50, -50, 0, 9}));
  const int32_t logits = b.AddTensor(0, "logits", i16, {1, 6}, Symmetric({1e-3f}));
  const int32_t probabilities = b.AddTensor(0, "probabilities", i16, {1, 6}, Symmetric({s15}));
  const int32_t leaky = b.AddTensor(0, "leaky", i16, {1, 4, 4, 4}, Symmetric({s11}));
  const int32_t gate = b.AddTensor(0, "gate", i16, {1, 4, 4, 4}, Symmetric({s15}));

  OpOptions conv_options;
  conv_options.padding = Padding::kSame;
  conv_options.stride_h = conv_options.stride_w = 1;
  b.AddNode(0, "CONV_2D", {x, filter, conv_bias}, {conv}, conv_options, 4);
  b.AddNode(0, "RELU", {conv}, {relu}, {}, 3);
  OpOptions pool;
  pool.padding = Padding::kValid;
  pool.filter_h = pool.filter_w = 2;
  pool.stride_h = pool.stride_w = 2;
  b.AddNode(0, "MAX_POOL_2D", {relu}, {max}, pool, 3);
  b.AddNode(0, "TANH", {max}, {tanh_out}, {}, 3);
  b.AddNode(0, "AVERAGE_POOL_2D", {relu}, {avg}, pool, 3);
  b.AddNode(0, "FULLY_CONNECTED", {avg, fc_weights, fc_bias}, {logits}, {}, 7);
  OpOptions softmax;
  softmax.beta = 1.0f;
  b.AddNode(0, "SOFTMAX", {logits}, {probabilities}, softmax, 3);
  OpOptions leaky_options;
  leaky_options.alpha = 0.2f;
  b.AddNode(0, "LEAKY_RELU", {conv}, {leaky}, leaky_options, 2);
  b.AddNode(0, "LOGISTIC", {leaky}, {gate}, {}, 3);
  b.SetInputs(0, {x});
  b.SetOutputs(0, {tanh_out, probabilities, gate});
  return testing::WriteSyntheticModel(std::move(b), "int16x8_activations.tflite");
}

// Neither XNNPACK nor the GPU delegate takes int16 activations, so every node stays on the CPU
// kernels there.
TEST(RunInt16Activations, SixteenByEightModelValidatesOnTheCpu) {
  const std::string model = Int16x8Model();
  auto run = RunTool("run --validate --json --input-seed 1 " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_TRUE(nlohmann::json::parse(run.out).at("validated").get<bool>()) << run.out;
  for (const std::string delegate : {"xnnpack", "gpu"}) {
    auto report = RunTool("report --json --delegate " + delegate + " " + model);
    ASSERT_EQ(report.exit_code, 0) << delegate << report.err;
    const std::string compact = nlohmann::json::parse(report.out).dump();
    EXPECT_EQ(compact.find("\"kind\":\"delegate\""), std::string::npos) << delegate << compact;
  }
}

}  // namespace
}  // namespace tfa
