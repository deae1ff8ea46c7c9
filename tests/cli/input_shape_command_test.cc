// --input-shape on report, arena and run: a dynamic-batch model resized to batch 4 plans exactly as
// the same model written with batch 4, and every refusal is one line with exit code 2. Without
// the flag, the report names the batch it assumed.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus/generator/synthetic_models.h"
#include "corpus/generator/tflite_writer.h"
#include "tests/cli/cli_fixtures.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

void SetShape(Model& model, const std::string& name, std::vector<int32_t> shape) {
  for (Tensor& t : model.subgraphs[0].tensors) {
    if (t.name == name) {
      t.shape = std::move(shape);
      t.shape_signature = std::vector<int32_t>{};
      return;
    }
  }
  FAIL() << "no tensor " << name;
}

// corpus/generator's dynamic_batch (input [1,16], shape_signature [-1,16] -> FULLY_CONNECTED 32
// -> FULLY_CONNECTED 8 -> RESHAPE [-1,2,4] -> SOFTMAX), as generated and with batch 4 fixed.
struct Models {
  std::string dynamic;
  std::string batch4;
};

const Models& DynamicBatchModels() {
  static const Models models = [] {
    const std::string dir = testing::FreshDir("input_shape_command");
    auto synthetic = BuildSyntheticModel("dynamic_batch");
    EXPECT_TRUE(synthetic.ok());
    Models m{dir + "/dynamic_batch.tflite", dir + "/batch4.tflite"};
    const auto write = [](const std::string& path, const std::vector<uint8_t>& bytes) {
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
    };
    write(m.dynamic, WriteTflite(synthetic->model, synthetic->data));
    Model fixed = synthetic->model;
    SetShape(fixed, "input", {4, 16});
    SetShape(fixed, "fc1", {4, 32});
    SetShape(fixed, "fc2", {4, 8});
    SetShape(fixed, "reshape", {4, 2, 4});
    SetShape(fixed, "softmax", {4, 2, 4});
    write(m.batch4, WriteTflite(fixed, synthetic->data));
    return m;
  }();
  return models;
}

uint64_t ArenaSize(const std::string& args) {
  auto run = RunTool("report --json " + args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return nlohmann::json::parse(run.out).at("subgraphs")[0].at("arena").at("size");
}

// Float32 at batch 4: input 4x16x4 = 256 B, fc1 4x32x4 = 512 B, fc2 4x8x4 = 128 B (RESHAPE shares
// it), softmax 128 B. At FULLY_CONNECTED #1 input, fc1 and fc2 are live: 256 + 512 + 128 = 896 B
// (all multiples of the 64-byte alignment); softmax later takes fc1's freed bytes.
TEST(InputShapeCommand, ResizedBatchPlansAsTheModelWrittenWithThatBatch) {
  const Models& m = DynamicBatchModels();
  EXPECT_EQ(ArenaSize("--input-shape input=4,16 " + m.dynamic), 896u);
  EXPECT_EQ(ArenaSize(m.batch4), 896u);
  EXPECT_EQ(ArenaSize("--signature serving_default --input-shape input=4,16 " + m.dynamic), 896u);
  // Batch 1 as the file has it: 64 + 128 + 32 B.
  EXPECT_EQ(ArenaSize(m.dynamic), 224u);

  auto arena = RunTool("arena --input-shape 0=4,16 " + m.dynamic);
  ASSERT_EQ(arena.exit_code, 0) << arena.err;
  EXPECT_NE(arena.out.find("  tflite                    896"), std::string::npos) << arena.out;
  EXPECT_NE(arena.out.find("input input: shape [4,16] (--input-shape)"), std::string::npos)
      << arena.out;
  // The runtime, given the same shape, measures the arena it predicted.
  auto run = RunTool("run --validate --input-shape input=4,16 " + m.dynamic);
  EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("  arena                           896          896  ok"),
            std::string::npos)
      << run.out;
}

TEST(InputShapeCommand, NamesTheDimensionItAssumed) {
  const Models& m = DynamicBatchModels();
  auto text = RunTool("report " + m.dynamic);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("input input: dimension 0 assumed 1 (shape_signature [-1,16], file "
                          "shape [1,16]; give --input-shape to choose)"),
            std::string::npos)
      << text.out;
  auto json = RunTool("report --json " + m.dynamic);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto assumed = nlohmann::json::parse(json.out).at("assumed_dimensions");
  ASSERT_EQ(assumed.size(), 1u);
  EXPECT_EQ(assumed[0].at("input"), "input");
  EXPECT_EQ(assumed[0].at("dimension"), 0);
  EXPECT_EQ(assumed[0].at("value"), 1);
  auto given = RunTool("report --json --input-shape input=4,16 " + m.dynamic);
  EXPECT_TRUE(nlohmann::json::parse(given.out).at("assumed_dimensions").empty());
}

TEST(InputShapeCommand, RefusalsAreOneLineWithExitCode2) {
  const Models& m = DynamicBatchModels();
  const auto refusal = [&](const std::string& flag) {
    auto run = RunTool("report --input-shape " + flag + " " + m.dynamic);
    EXPECT_EQ(run.exit_code, 2) << flag;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    return run.err;
  };
  EXPECT_NE(refusal("Input=4,16").find("no input \"Input\" (did you mean input?)"),
            std::string::npos);
  EXPECT_NE(refusal("input=4").find("1 dimensions given, it has 2"), std::string::npos);
  EXPECT_NE(refusal("input=0,16").find("dimension 0 given as 0"), std::string::npos);
  EXPECT_NE(refusal("input=4,32").find("dimension 1 is fixed at 16 by the model"),
            std::string::npos);
  EXPECT_NE(refusal("input=4,x").find("\"x\" is not a dimension"), std::string::npos);
  // The batch-4 file fixes every dimension (no shape_signature).
  auto fixed = RunTool("report --input-shape input=2,16 " + m.batch4);
  EXPECT_EQ(fixed.exit_code, 2);
  EXPECT_NE(fixed.err.find("dimension 0 is fixed at 4 by the model"), std::string::npos)
      << fixed.err;
}

}  // namespace
}  // namespace tfa
