// `run --validate` executes the analysed plan on the runtime and checks the prediction.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;

const std::string kShortRange = "face_detection__face_detection_short_range";

TEST(RunCommand, ValidatesTheAddSubSampleDelegate) {
  auto run = RunTool("run --validate --json --delegate add-sub " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j.at("validated").get<bool>());
  EXPECT_EQ(j.at("measured").at("delegated_partitions"), 16);
  for (const auto& check : j.at("checks")) EXPECT_TRUE(check.at("ok").get<bool>()) << check.dump();
  for (const auto& output : j.at("outputs")) EXPECT_EQ(output.at("max_abs_error"), 0.0);
}

TEST(RunCommand, ValidatesTheOpenClDelegateOnPocl) {
  auto run = RunTool("run --validate --delegate gpu " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("VALIDATED"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("arena                        257536       257536  ok"), std::string::npos) << run.out;
}

TEST(RunCommand, SimulatedDelegateAndTwoDelegatesInTurn) {
  auto run = RunTool("run --validate --delegate ops=CONV_2D --delegate nnapi " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("VALIDATED"), std::string::npos) << run.out;
}

TEST(RunCommand, AnalysisOnlyOptionsAndBadInputExitTwo) {
  auto run = RunTool("run --delegate gpu --no-greedy " + testing::CorpusModelPath(kShortRange));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("analysis-only"), std::string::npos) << run.err;
  EXPECT_EQ(RunTool("run /nonexistent.tflite").exit_code, 2);
}

TEST(DevicesCommand, ListsPocl) {
  auto run = RunTool("devices");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("platform 0 device 0"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace tfa
