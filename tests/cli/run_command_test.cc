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
  // Not nnapi second: on this fp16-weight model its FP16 weight remapping delegates part of the
  // plan with rewired inputs, which the simulated delegate's CPU kernels cannot run (refused).
  auto run = RunTool("run --validate --delegate ops=CONV_2D --delegate ops=ADD,RELU,DEPTHWISE_CONV_2D " +
                     testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("VALIDATED"), std::string::npos) << run.out;
}

TEST(RunCommand, AnalysisOnlyOptionsAndBadInputExitTwo) {
  auto run = RunTool("run --delegate gpu --no-greedy " + testing::CorpusModelPath(kShortRange));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("analysis-only"), std::string::npos) << run.err;
  EXPECT_EQ(RunTool("run /nonexistent.tflite").exit_code, 2);
}

TEST(RunCommand, MemoryLimitAndGuardWrites) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  auto refused = RunTool("run --memory-limit 512K " + model);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("above the memory limit of 524288 bytes"), std::string::npos)
      << refused.err;
  auto bad = RunTool("run --memory-limit 12X " + model);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--memory-limit: expected a byte count such as 1048576, 512M or 2G, got '12X'"),
            std::string::npos)
      << bad.err;
  auto guarded = RunTool("run --guard-writes --memory-limit 64M --delegate add-sub " + model);
  EXPECT_EQ(guarded.exit_code, 0) << guarded.err;
}

TEST(DevicesCommand, ListsPocl) {
  auto run = RunTool("devices");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("platform 0 device 0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("delegate profile gpu: verified\ndelegate profile nnapi: transcribed\n"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace tfa
