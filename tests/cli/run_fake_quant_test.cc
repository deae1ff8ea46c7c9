// `run --validate` on a generated model with FAKE_QUANT (fake_quant.cc); its options survive the
// writer and the loader; narrow_range is refused as upstream's Prepare refuses it; TFLite Micro's
// resolver has no FAKE_QUANT.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus/generator/model_builder.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/unmodelled_builtin_options.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

// x [1, 4, 4, 3] -> FAKE_QUANT -> ADD with itself (a CPU op that reads the fake-quantised values).
std::string FakeQuantModel(const FakeQuantParameters& parameters, const std::string& name) {
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {1, 4, 4, 3});
  const int32_t quantised = b.AddTensor(0, "quantised", TensorType::kFloat32, {1, 4, 4, 3});
  const int32_t sum = b.AddTensor(0, "sum", TensorType::kFloat32, {1, 4, 4, 3});
  OpOptions options;
  options.custom_options = EncodeFakeQuantParameters(parameters);
  b.AddNode(0, "FAKE_QUANT", {x}, {quantised}, options, parameters.narrow_range ? 2 : 1);
  b.AddNode(0, "ADD", {quantised, quantised}, {sum});
  b.SetInputs(0, {x});
  b.SetOutputs(0, {sum});
  return testing::WriteSyntheticModel(std::move(b), name);
}

TEST(RunFakeQuant, ValidatesAndKeepsItsOptions) {
  const FakeQuantParameters parameters{-1.0f, 1.0f, 8, false};
  const std::string path = FakeQuantModel(parameters, "fake_quant.tflite");
  auto model = LoadModelFile(path);
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto read = FakeQuantParametersOf(model->subgraphs[0].nodes[0].options);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, parameters);

  auto run = RunTool("run --validate --json --input-seed 1 " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
}

TEST(RunFakeQuant, NarrowRangeIsRefusedInOneLine) {
  const std::string path = FakeQuantModel({-1.0f, 1.0f, 8, true}, "fake_quant_narrow.tflite");
  for (const char* command : {"report ", "run "}) {
    auto result = RunTool(command + path);
    EXPECT_EQ(result.exit_code, 2) << command << result.out;
    EXPECT_NE(result.err.find("narrow_range FakeQuant is not supported at runtime"),
              std::string::npos)
        << command << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
}

// micro_mutable_op_resolver.h registers no FAKE_QUANT.
TEST(RunFakeQuant, TflmRefusesIt) {
  auto report = RunTool("report --target tflm " +
                        FakeQuantModel({-1.0f, 1.0f, 8, false}, "fake_quant_tflm.tflite"));
  EXPECT_EQ(report.exit_code, 2) << report.out;
  EXPECT_NE(report.err.find("node 0 (FAKE_QUANT): TFLite Micro has no kernel"), std::string::npos)
      << report.err;
  EXPECT_EQ(std::count(report.err.begin(), report.err.end(), '\n'), 1) << report.err;
}

}  // namespace
}  // namespace tfa
