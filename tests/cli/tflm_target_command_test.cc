// End-to-end tests of --target tflm|tflm-32 on report and arena.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

std::string TflmModel(const std::string& name) {
  return testing::OraclePath("external/tflite-micro__tensorflow_lite_micro_" + name + ".tflite");
}

TEST(TflmTargetCommand, ReportPrintsTheArenaAndTheResolver) {
  ToolRun run = RunTool("report --target tflm " + TflmModel("models_keyword_scrambled"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("  head                             672"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  tail                           14264"), std::string::npos);
  EXPECT_NE(run.out.find("tflite::MicroMutableOpResolver<4> resolver;\n"
                         "resolver.AddQuantize();\nresolver.AddSvdf();\n"
                         "resolver.AddFullyConnected();\nresolver.AddSoftmax();\n"),
            std::string::npos)
      << run.out;
}

TEST(TflmTargetCommand, JsonCarriesTheTflmObject) {
  ToolRun run = RunTool("report --json --target tflm " + TflmModel("testing_test_conv_model"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("tflm").at("target"), "tflm");
  EXPECT_EQ(j.at("tflm").at("head"), 7744);
  EXPECT_EQ(j.at("tflm").at("tail"), 2088);
  EXPECT_EQ(j.at("tflm").at("resolver").size(), 6u);
}

TEST(TflmTargetCommand, ArenaSummarisesOnA32BitTarget) {
  ToolRun run = RunTool("arena --target tflm-32 " + TflmModel("testing_test_conv_model"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("tflm-32, 32-bit microcontroller"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("recommended kTensorArenaSize"), std::string::npos);
}

TEST(TflmTargetCommand, AnOpWithoutATflmKernelExitsTwoNamingIt) {
  ToolRun run = RunTool("report --target tflm " +
                        testing::OraclePath("external/LiteRT__tflite_testdata_lstm.tflite"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (LSTM): TFLite Micro has no kernel for LSTM (rules of "),
            std::string::npos)
      << run.err;
}

TEST(TflmTargetCommand, UnknownTargetExitsTwo) {
  ToolRun run = RunTool("report --target tflm-64 " + TflmModel("testing_test_conv_model"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown target \"tflm-64\""), std::string::npos) << run.err;
}

TEST(TflmTargetCommand, GateRecordsAndChecksTheTflmArena) {
  const std::string baseline = testing::FreshDir("tflm_gate") + "/baseline.json";
  const std::string model = TflmModel("testing_test_conv_model");
  ToolRun record =
      RunTool("gate --target tflm --update-baseline --baseline " + baseline + " " + model);
  ASSERT_EQ(record.exit_code, 0) << record.err;
  EXPECT_NE(record.out.find("[--target tflm]: arena 10080, persistent 2088"), std::string::npos)
      << record.out;
  ToolRun check = RunTool("gate --baseline " + baseline + " " + model);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("[--target tflm]  ok"), std::string::npos) << check.out;
}

}  // namespace
}  // namespace tfa
