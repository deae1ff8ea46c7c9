// End-to-end tests of `tflite-analyze diff`: the op change, the figures and the tensors behind an
// arena change of the chain graph, and two corpus models.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

TEST(DiffCommand, NamesTheChangedOpsAndTheTensorBehindTheArenaGrowth) {
  const std::string dir = testing::FreshDir("diff_chain");
  const std::string old_model =
      testing::WriteFile(dir + "/old.json", testing::ChainGraphJson(8192, "MUL"));
  const std::string new_model =
      testing::WriteFile(dir + "/new.json", testing::ChainGraphJson(16384, "SUB"));
  ToolRun run = RunTool("diff " + old_model + " " + new_model);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("- MUL"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("+ SUB"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("arena grew by 8192 B"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("8192 -> 16384           +8192  wide"), std::string::npos) << run.out;

  ToolRun json = RunTool("diff --json " + old_model + " " + new_model);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("ops"),
            nlohmann::json::parse(
                R"([{"op":"MUL","before":1,"after":0},{"op":"SUB","before":0,"after":1}])"));
  EXPECT_EQ(j.at("figures").at("arena").at("before"), 16384);
  EXPECT_EQ(j.at("figures").at("arena").at("after"), 24576);
  EXPECT_EQ(j.at("arena_change").at("tensors"),
            nlohmann::json::parse(R"([{"name":"wide","tensor":2,"before":8192,"after":16384}])"));
}

TEST(DiffCommand, ShrinkExplainedFromTheOldPeak) {
  const std::string dir = testing::FreshDir("diff_shrink");
  const std::string old_model =
      testing::WriteFile(dir + "/old.json", testing::ChainGraphJson(16384));
  const std::string new_model =
      testing::WriteFile(dir + "/new.json", testing::ChainGraphJson(8192));
  ToolRun run = RunTool("diff --json " + old_model + " " + new_model);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("ops").size(), 0u);
  EXPECT_EQ(j.at("arena_change").at("grew"), false);
  EXPECT_EQ(j.at("arena_change").at("tensors"),
            nlohmann::json::parse(R"([{"name":"wide","tensor":2,"before":16384,"after":8192}])"));
}

TEST(DiffCommand, CorpusModelsWithGpu) {
  ToolRun run =
      RunTool("diff --delegate gpu " + testing::CorpusModelPath("hands__palm_detection_lite") +
              " " + testing::CorpusModelPath("hands__palm_detection_full"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("partitions: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("bytes/inference"), std::string::npos);
  EXPECT_NE(run.out.find("arena "), std::string::npos);
}

TEST(DiffCommand, TwoDelegateSetupsOnOneModel) {
  const std::string model = testing::CorpusModelPath("face_mesh__face_landmark_with_attention");
  ToolRun json = RunTool("diff --json " + model + " --delegate gpu --new-delegate xnnpack");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("old"), model);
  EXPECT_EQ(j.at("new"), model);
  EXPECT_EQ(j.at("old_delegates"), nlohmann::json::parse(R"(["gpu"])"));
  EXPECT_EQ(j.at("new_delegates"), nlohmann::json::parse(R"(["xnnpack"])"));
  EXPECT_EQ(j.at("ops").size(), 0u);
  // Upstream's figures: tests/oracle models/face_mesh__face_landmark_with_attention.gpu.json
  // (1 delegate kernel, arena 2211840, persistent 4757572) and .xnnpack.json (3 kernels, arena
  // 3274024, persistent 0: XNNPACK unpacks the fp16 weights itself).
  const auto& figures = j.at("figures");
  EXPECT_EQ(figures.at("delegated partitions").at("before"), 1);
  EXPECT_EQ(figures.at("delegated partitions").at("after"), 3);
  EXPECT_EQ(figures.at("arena").at("before"), 2211840);
  EXPECT_EQ(figures.at("arena").at("after"), 3274024);
  EXPECT_EQ(figures.at("persistent arena").at("before"), 4757572);
  EXPECT_EQ(figures.at("persistent arena").at("after"), 0);
  EXPECT_TRUE(figures.contains("uploaded once"));

  ToolRun text = RunTool("diff " + model + " --delegate gpu --new-delegate xnnpack");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find(model + "  (delegates: gpu -> xnnpack)  subgraph 0\n"), 0u) << text.out;
  EXPECT_NE(text.out.find("\n  uploaded once "), std::string::npos) << text.out;
  // One partition per line.
  EXPECT_NE(text.out.find("  after:\n    "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("nodes), "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("node), "), std::string::npos) << text.out;
}

// One ADD whose input and output have `type` and `shape`.
std::string OneAddGraph(const std::string& type, const std::string& shape, uint64_t bytes) {
  const std::string tensor =
      R"({"bytes":)" + std::to_string(bytes) + R"(,"type":")" + type + R"(","shape":)" + shape;
  return R"({"format":"tflite-analyze-graph/1","tensors":[)" + tensor + R"(,"name":"x"},)" +
         tensor + R"(,"name":"y"}],"nodes":[{"op":"ADD","inputs":[0,0],"outputs":[1]}],)" +
         R"("inputs":[0],"outputs":[1],"variables":[]})";
}

TEST(DiffCommand, NamesInputsAndOutputsWhoseTypeOrShapeChanged) {
  const std::string dir = testing::FreshDir("diff_io");
  const std::string old_model =
      testing::WriteFile(dir + "/old.json", OneAddGraph("float32", "[1,4]", 16));
  const std::string new_model =
      testing::WriteFile(dir + "/new.json", OneAddGraph("int8", "[1,8]", 8));
  ToolRun run = RunTool("diff " + old_model + " " + new_model);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("  input 0 \"x\": float32 [1,4] -> int8 [1,8]\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  output 0 \"y\": float32 [1,4] -> int8 [1,8]\n"), std::string::npos)
      << run.out;
  ToolRun same = RunTool("diff " + old_model + " " + old_model);
  EXPECT_NE(same.out.find("(same types and shapes)"), std::string::npos) << same.out;

  ToolRun json = RunTool("diff --json " + old_model + " " + new_model);
  const auto io = nlohmann::json::parse(json.out).at("io_changes");
  ASSERT_EQ(io.size(), 2u);
  EXPECT_EQ(io.at(0), nlohmann::json::parse(
                          R"({"kind":"input","position":0,
                              "before":{"name":"x","type":"float32","shape":[1,4]},
                              "after":{"name":"x","type":"int8","shape":[1,8]}})"));
}

// The chain on ops=ADD,MUL runs wholly on the delegate; with SUB in the middle node 1 falls back.
TEST(DiffCommand, NamesTheOpsThatNewlyFallBackToTheCpu) {
  const std::string dir = testing::FreshDir("diff_fallback");
  const std::string old_model =
      testing::WriteFile(dir + "/old.json", testing::ChainGraphJson(8192, "MUL"));
  const std::string new_model =
      testing::WriteFile(dir + "/new.json", testing::ChainGraphJson(8192, "SUB"));
  ToolRun run = RunTool("diff " + old_model + " " + new_model + " --delegate ops=ADD,MUL");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("CPU fallbacks:\n  + SUB"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("0 -> 1    #1: op not listed in ops=ADD,MUL"), std::string::npos)
      << run.out;
  ToolRun json = RunTool("diff --json " + old_model + " " + new_model + " --delegate ops=ADD,MUL");
  EXPECT_EQ(nlohmann::json::parse(json.out).at("fallback_changes"),
            nlohmann::json::parse(R"([{"op":"SUB","before":0,"after":1,"nodes_after":[1],
                                       "reasons_after":["op not listed in ops=ADD,MUL"]}])"));
  // Without delegates there are no fallbacks to compare.
  EXPECT_EQ(RunTool("diff " + old_model + " " + new_model).out.find("CPU fallbacks"),
            std::string::npos);
}

TEST(DiffCommand, BadInputExitsTwo) {
  ToolRun one = RunTool("diff " + testing::CorpusModelPath("hands__palm_detection_lite"));
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_NE(one.err.find("give a NEW model, or --new-delegate"), std::string::npos) << one.err;
  EXPECT_EQ(
      RunTool("diff /nonexistent.tflite " + testing::CorpusModelPath("hands__palm_detection_lite"))
          .exit_code,
      2);
}

}  // namespace
}  // namespace tfa
