// `run --validate` and `report` on generated models of kernels no public model reaches: WHERE on a
// run-time condition (a dynamic output), hybrid CONV_2D (upstream's temporaries in the arena),
// int16 ADD (16x8 quantization; no delegate takes it).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// x [2, 3] > 0 -> WHERE -> coordinates [n, 2] -> CAST to float -> ADD 1.
std::string WhereModel() {
  ModelBuilder b("where_runtime_condition.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {2, 3});
  const int32_t zero = b.AddConstant(0, "zero", TensorType::kFloat32, {1}, FloatBytes({0}));
  const int32_t positive = b.AddTensor(0, "positive", TensorType::kBool, {2, 3});
  const int32_t where = b.AddTensor(0, "where", TensorType::kInt64, {1, 2}, {}, {-1, 2});
  const int32_t as_float = b.AddTensor(0, "as_float", TensorType::kFloat32, {1, 2}, {}, {-1, 2});
  const int32_t one = b.AddConstant(0, "one", TensorType::kFloat32, {1}, FloatBytes({1}));
  const int32_t out = b.AddTensor(0, "out", TensorType::kFloat32, {1, 2}, {}, {-1, 2});
  b.AddNode(0, "GREATER", {x, zero}, {positive});
  b.AddNode(0, "WHERE", {positive}, {where});
  b.AddNode(0, "CAST", {where}, {as_float});
  b.AddNode(0, "ADD", {as_float, one}, {out});
  b.SetInputs(0, {x});
  b.SetOutputs(0, {out});
  return testing::WriteSyntheticModel(std::move(b), "where_runtime_condition.tflite");
}

TEST(RunNewKernels, WhereOnARunTimeConditionIsDynamicAndValidates) {
  const std::string model = WhereModel();
  auto report = RunTool("report " + model);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("planning stops at step 1: dynamic outputs"), std::string::npos)
      << report.out;
  auto run = RunTool("run --validate --json --input-seed 1 " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_TRUE(nlohmann::json::parse(run.out).at("validated").get<bool>()) << run.out;
}

// input [1, 6, 6, 3] -> CONV_2D 3x3 stride 2 with an int8 filter of per-channel scales.
std::string HybridConvModel() {
  ModelBuilder b("hybrid_conv.tflite");
  b.AddSubgraph("main");
  const int32_t input = b.AddTensor(0, "input", TensorType::kFloat32, {1, 6, 6, 3});
  std::vector<int8_t> filter_values(4 * 3 * 3 * 3);
  for (size_t i = 0; i < filter_values.size(); ++i)
    filter_values[i] = static_cast<int8_t>(static_cast<int>(i * 29 % 200) - 100);
  Quantization q;
  q.scale = {0.01f, 0.02f, 0.03f, 0.04f};
  q.zero_point = {0, 0, 0, 0};
  const int32_t filter =
      b.AddConstant(0, "filter", TensorType::kInt8, {4, 3, 3, 3}, Int8Bytes(filter_values), q);
  const int32_t bias =
      b.AddConstant(0, "bias", TensorType::kFloat32, {4}, FloatBytes({0.1f, 0.2f, 0.3f, 0.4f}));
  const int32_t output = b.AddTensor(0, "output", TensorType::kFloat32, {1, 3, 3, 4});
  OpOptions o;
  o.padding = Padding::kSame;
  o.stride_h = o.stride_w = 2;
  b.AddNode(0, "CONV_2D", {input, filter, bias}, {output}, o, 5);
  b.SetInputs(0, {input});
  b.SetOutputs(0, {output});
  return testing::WriteSyntheticModel(std::move(b), "hybrid_conv.tflite");
}

// Without a delegate the kernel works in its planned temporaries; XNNPACK's and NNAPI's partitions
// (libXNNPACK here has no dynamic-range convolution; NNAPI is simulated) run it on the CPU kernel,
// which then has none and works in scratch.
TEST(RunNewKernels, HybridConvValidatesWithAndWithoutADelegate) {
  const std::string model = HybridConvModel();
  for (const std::string delegate : {"", "--delegate xnnpack ", "--delegate nnapi "}) {
    auto run = RunTool("run --validate --json --input-seed 1 " + delegate + model);
    ASSERT_EQ(run.exit_code, 0) << delegate << run.err << run.out;
    EXPECT_TRUE(nlohmann::json::parse(run.out).at("validated").get<bool>()) << run.out;
  }
}

// Two int16 inputs [1, 8] (scales 2^-10, 3e-4, output 5e-4) -> ADD, as a 16x8 converter writes it
// (pot_scale_int16 false, version 3).
std::string Int16AddModel() {
  ModelBuilder b("int16_add.tflite");
  b.AddSubgraph("main");
  auto symmetric = [](float scale) {
    Quantization q;
    q.scale = {scale};
    q.zero_point = {0};
    return q;
  };
  const int32_t a = b.AddTensor(0, "a", TensorType::kInt16, {1, 8}, symmetric(1.0f / 1024));
  const int32_t c = b.AddTensor(0, "b", TensorType::kInt16, {1, 8}, symmetric(3e-4f));
  const int32_t out = b.AddTensor(0, "out", TensorType::kInt16, {1, 8}, symmetric(5e-4f));
  OpOptions o;
  o.pot_scale_int16 = false;
  b.AddNode(0, "ADD", {a, c}, {out}, o, 3);
  b.SetInputs(0, {a, c});
  b.SetOutputs(0, {out});
  return testing::WriteSyntheticModel(std::move(b), "int16_add.tflite");
}

TEST(RunNewKernels, Int16AddValidatesAndNoDelegateTakesIt) {
  const std::string model = Int16AddModel();
  auto run = RunTool("run --validate --json --input-seed 1 " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_TRUE(nlohmann::json::parse(run.out).at("validated").get<bool>()) << run.out;
  for (const std::string delegate : {"xnnpack", "gpu", "nnapi"}) {
    auto report = RunTool("report --json --delegate " + delegate + " " + model);
    ASSERT_EQ(report.exit_code, 0) << delegate << report.err;
    const auto j = nlohmann::json::parse(report.out);
    EXPECT_EQ(j.dump().find("\"kind\":\"delegate\""), std::string::npos) << delegate << report.out;
  }
}

}  // namespace
}  // namespace tfa
