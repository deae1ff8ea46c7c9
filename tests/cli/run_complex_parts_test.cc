// `run --validate` on a generated model with REAL and IMAG (complex_support.cc) after RFFT2D, the
// only builtin that makes complex64 tensors; TFLite Micro has none of the three kernels.
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

// x [1, 1, 32] -> RFFT2D -> spectrum complex64 [1, 1, 17] -> REAL, IMAG, COMPLEX_ABS -> the real
// and imaginary parts added, the magnitude beside them.
std::string ComplexPartsModel() {
  ModelBuilder b("complex_parts.tflite");
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {1, 1, 32});
  const int32_t length =
      b.AddConstant(0, "fft_length", TensorType::kInt32, {2}, Int32Bytes({1, 32}));
  const int32_t spectrum = b.AddTensor(0, "spectrum", TensorType::kComplex64, {1, 1, 17});
  const int32_t real = b.AddTensor(0, "real", TensorType::kFloat32, {1, 1, 17});
  const int32_t imag = b.AddTensor(0, "imag", TensorType::kFloat32, {1, 1, 17});
  const int32_t sum = b.AddTensor(0, "sum", TensorType::kFloat32, {1, 1, 17});
  const int32_t magnitude = b.AddTensor(0, "magnitude", TensorType::kFloat32, {1, 1, 17});
  b.AddNode(0, "RFFT2D", {x, length}, {spectrum});
  b.AddNode(0, "REAL", {spectrum}, {real});
  b.AddNode(0, "IMAG", {spectrum}, {imag});
  b.AddNode(0, "ADD", {real, imag}, {sum});
  b.AddNode(0, "COMPLEX_ABS", {spectrum}, {magnitude});
  b.SetInputs(0, {x});
  b.SetOutputs(0, {sum, magnitude});
  return testing::WriteSyntheticModel(std::move(b), "complex_parts.tflite");
}

TEST(RunComplexParts, RealAndImagValidate) {
  auto run = RunTool("run --validate --json --input-seed 1 " + ComplexPartsModel());
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
}

// TFLite Micro's resolver registers none of the three (micro_mutable_op_resolver.h).
TEST(RunComplexParts, TflmRefusesEachOp) {
  for (const char* op : {"REAL", "IMAG", "COMPLEX_ABS"}) {
    ModelBuilder b(std::string(op) + ".tflite");
    b.AddSubgraph("main");
    const int32_t x = b.AddTensor(0, "x", TensorType::kComplex64, {4});
    const int32_t out = b.AddTensor(0, "out", TensorType::kFloat32, {4});
    b.AddNode(0, op, {x}, {out});
    b.SetInputs(0, {x});
    b.SetOutputs(0, {out});
    auto report = RunTool("report --target tflm " +
                          testing::WriteSyntheticModel(std::move(b), std::string(op) + ".tflite"));
    EXPECT_EQ(report.exit_code, 2) << report.out;
    EXPECT_NE(report.err.find(std::string("node 0 (") + op + "): TFLite Micro has no kernel"),
              std::string::npos)
        << report.err;
    EXPECT_EQ(std::count(report.err.begin(), report.err.end(), '\n'), 1) << report.err;
  }
}

}  // namespace
}  // namespace tfa
