// `run --validate` and `report` on a generated model of the StableHLO element-wise ops upstream's
// builtin resolver runs (STABLEHLO_ADD, MULTIPLY, MAXIMUM, MINIMUM, AND, SHIFT_LEFT), as the
// models of LiteRT's litert/test/testdata and StableHLO composites' decompositions have them.
#include <gtest/gtest.h>

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

// int32 x, y [2,3] -> ADD -> MULTIPLY by y -> MAXIMUM with x -> MINIMUM with the sum -> AND y ->
// SHIFT_LEFT by constant shifts; float32 f, g [4] -> ADD -> MULTIPLY -> MAXIMUM -> MINIMUM.
std::string StablehloModel() {
  constexpr TensorType i32 = TensorType::kInt32, f32 = TensorType::kFloat32;
  ModelBuilder b("stablehlo_elementwise.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", i32, {2, 3});
  const int32_t y = b.AddTensor(0, "y", i32, {2, 3});
  const int32_t sum = b.AddTensor(0, "sum", i32, {2, 3});
  const int32_t product = b.AddTensor(0, "product", i32, {2, 3});
  const int32_t larger = b.AddTensor(0, "larger", i32, {2, 3});
  const int32_t smaller = b.AddTensor(0, "smaller", i32, {2, 3});
  const int32_t masked = b.AddTensor(0, "masked", i32, {2, 3});
  const int32_t shifts = b.AddConstant(0, "shifts", i32, {2, 3}, Int32Bytes({0, 1, 2, 3, 7, 31}));
  const int32_t shifted = b.AddTensor(0, "shifted", i32, {2, 3});
  b.AddNode(0, "STABLEHLO_ADD", {x, y}, {sum});
  b.AddNode(0, "STABLEHLO_MULTIPLY", {sum, y}, {product});
  b.AddNode(0, "STABLEHLO_MAXIMUM", {product, x}, {larger});
  b.AddNode(0, "STABLEHLO_MINIMUM", {larger, sum}, {smaller});
  b.AddNode(0, "STABLEHLO_AND", {smaller, y}, {masked});
  b.AddNode(0, "STABLEHLO_SHIFT_LEFT", {masked, shifts}, {shifted});
  const int32_t f = b.AddTensor(0, "f", f32, {4});
  const int32_t g = b.AddTensor(0, "g", f32, {4});
  const int32_t fsum = b.AddTensor(0, "fsum", f32, {4});
  const int32_t fproduct = b.AddTensor(0, "fproduct", f32, {4});
  const int32_t flarger = b.AddTensor(0, "flarger", f32, {4});
  const int32_t fsmaller = b.AddTensor(0, "fsmaller", f32, {4});
  b.AddNode(0, "STABLEHLO_ADD", {f, g}, {fsum});
  b.AddNode(0, "STABLEHLO_MULTIPLY", {fsum, g}, {fproduct});
  b.AddNode(0, "STABLEHLO_MAXIMUM", {fproduct, f}, {flarger});
  b.AddNode(0, "STABLEHLO_MINIMUM", {flarger, fsum}, {fsmaller});
  b.SetInputs(0, {x, y, f, g});
  b.SetOutputs(0, {shifted, fsmaller});
  return testing::WriteSyntheticModel(std::move(b), "stablehlo_elementwise.tflite");
}

TEST(RunStablehlo, ElementwiseOpsValidate) {
  auto run = RunTool("run --validate --json --input-seed 1 " + StablehloModel());
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_TRUE(j.value("validated", false)) << run.out;
}

// TFLite Micro's op resolver has none of them: refused by name, in one line.
TEST(RunStablehlo, TflmRefusesThemByName) {
  auto report = RunTool("report --target tflm " + StablehloModel());
  EXPECT_EQ(report.exit_code, 2) << report.out;
  EXPECT_NE(report.err.find("STABLEHLO_ADD"), std::string::npos) << report.err;
}

}  // namespace
}  // namespace tfa
