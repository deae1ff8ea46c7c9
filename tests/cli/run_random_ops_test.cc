// `run --validate` on generated models with RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL
// (random_ops.cc), seeded: their seeds survive the writer and the loader; unseeded ones, whose
// numbers upstream draws from /dev/urandom, are refused by run in one line; TFLite Micro's
// resolver has none of them.
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

// shape [2] = (4, 8) -> RANDOM_UNIFORM and RANDOM_STANDARD_NORMAL [4, 8], added to the input x;
// constant logits [2, 3] -> MULTINOMIAL of 5 samples [2, 5] int64.
std::string RandomModel(const RandomSeeds& seeds, const std::string& name) {
  ModelBuilder b(name);
  b.AddSubgraph("main");
  const int32_t x = b.AddTensor(0, "x", TensorType::kFloat32, {4, 8});
  const int32_t shape = b.AddConstant(0, "shape", TensorType::kInt32, {2}, Int32Bytes({4, 8}));
  const int32_t uniform = b.AddTensor(0, "uniform", TensorType::kFloat32, {4, 8});
  const int32_t normal = b.AddTensor(0, "normal", TensorType::kFloat32, {4, 8});
  const int32_t noisy = b.AddTensor(0, "noisy", TensorType::kFloat32, {4, 8});
  const int32_t sum = b.AddTensor(0, "sum", TensorType::kFloat32, {4, 8});
  const int32_t logits = b.AddConstant(0, "logits", TensorType::kFloat32, {2, 3},
                                       FloatBytes({-1.6f, -1.2f, -0.7f, 0.0f, -2.0f, -0.5f}));
  const int32_t samples = b.AddConstant(0, "samples", TensorType::kInt32, {}, Int32Bytes({5}));
  const int32_t classes = b.AddTensor(0, "classes", TensorType::kInt64, {2, 5});
  OpOptions options;
  options.custom_options = EncodeRandomSeeds(seeds);
  b.AddNode(0, "RANDOM_UNIFORM", {shape}, {uniform}, options);
  b.AddNode(0, "RANDOM_STANDARD_NORMAL", {shape}, {normal}, options);
  b.AddNode(0, "ADD", {x, uniform}, {noisy});
  b.AddNode(0, "ADD", {noisy, normal}, {sum});
  b.AddNode(0, "MULTINOMIAL", {logits, samples}, {classes}, options);
  b.SetInputs(0, {x});
  b.SetOutputs(0, {sum, classes});
  return testing::WriteSyntheticModel(std::move(b), name);
}

TEST(RunRandomOps, SeededOpsValidateAndKeepTheirSeeds) {
  const RandomSeeds seeds{1234, 5678};
  const std::string path = RandomModel(seeds, "random_ops.tflite");
  auto model = LoadModelFile(path);
  ASSERT_TRUE(model.ok()) << model.status().message();
  for (size_t n : {0u, 1u, 4u}) {
    auto read = RandomSeedsOf(model->subgraphs[0].nodes[n].options);
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, seeds);
  }
  auto run = RunTool("run --validate --json --input-seed 1 " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>()) << run.out;
}

TEST(RunRandomOps, UnseededOpsAreRefusedInOneLine) {
  auto run = RunTool("run " + RandomModel({0, 0}, "random_unseeded.tflite"));
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.err.find("seed and seed2 are both 0"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

// micro_mutable_op_resolver.h registers none of the three.
TEST(RunRandomOps, TflmRefusesThem) {
  auto report = RunTool("report --target tflm " + RandomModel({1, 2}, "random_tflm.tflite"));
  EXPECT_EQ(report.exit_code, 2) << report.out;
  EXPECT_NE(report.err.find("(RANDOM_UNIFORM): TFLite Micro has no kernel"), std::string::npos)
      << report.err;
  EXPECT_EQ(std::count(report.err.begin(), report.err.end(), '\n'), 1) << report.err;
}

}  // namespace
}  // namespace tfa
