// `run --validate` on a generated model with DILATE (dilate.cc), and the same with dilations the
// model computes (a dynamic output); TFLite Micro's resolver has no DILATE.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// x [2, 3] -> DILATE by (2, 3) with padding -1 -> [3, 7], doubled by an ADD. With
// `computed_dilations`, the dilations are a constant plus a constant zero (an ADD's output).
std::string DilateModel(bool computed_dilations, const std::string& name) {
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {2, 3});
  int32_t dilations = b.AddConstant(0, "dilations", TensorType::kInt32, {2}, Int32Bytes({2, 3}));
  if (computed_dilations) {
    const int32_t zero = b.AddConstant(0, "zero", TensorType::kInt32, {2}, Int32Bytes({0, 0}));
    const int32_t sum = b.AddTensor(0, "computed", TensorType::kInt32, {2});
    b.AddNode(0, "ADD", {dilations, zero}, {sum});
    dilations = sum;
  }
  const int32_t padding = b.AddConstant(0, "padding", TensorType::kFloat32, {1}, FloatBytes({-1}));
  const int32_t dilated = b.AddTensor(0, "dilated", TensorType::kFloat32, {3, 7});
  const int32_t doubled = b.AddTensor(0, "doubled", TensorType::kFloat32, {3, 7});
  b.AddNode(0, "DILATE", {x, dilations, padding}, {dilated});
  b.AddNode(0, "ADD", {dilated, dilated}, {doubled});
  b.SetInputs(0, {x});
  b.SetOutputs(0, {doubled});
  return testing::WriteSyntheticModel(std::move(b), name);
}

TEST(RunDilate, ValidatesWithConstantAndComputedDilations) {
  for (bool computed : {false, true}) {
    auto run = RunTool("run --validate --json --input-seed 1 " +
                       DilateModel(computed, computed ? "dilate_dynamic.tflite" : "dilate.tflite"));
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
  }
}

// micro_mutable_op_resolver.h registers no DILATE.
TEST(RunDilate, TflmRefusesIt) {
  auto report = RunTool("report --target tflm " + DilateModel(false, "dilate_tflm.tflite"));
  EXPECT_EQ(report.exit_code, 2) << report.out;
  EXPECT_NE(report.err.find("node 0 (DILATE): TFLite Micro has no kernel"), std::string::npos)
      << report.err;
  EXPECT_EQ(std::count(report.err.begin(), report.err.end(), '\n'), 1) << report.err;
}

}  // namespace
}  // namespace tfa
