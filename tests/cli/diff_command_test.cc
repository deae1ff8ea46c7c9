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

TEST(DiffCommand, BadInputExitsTwo) {
  EXPECT_EQ(RunTool("diff " + testing::CorpusModelPath("hands__palm_detection_lite")).exit_code, 2);
  EXPECT_EQ(
      RunTool("diff /nonexistent.tflite " + testing::CorpusModelPath("hands__palm_detection_lite"))
          .exit_code,
      2);
}

}  // namespace
}  // namespace tfa
