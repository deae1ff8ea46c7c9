// End-to-end tests of --target tflm-cmsis-nn --cpu: TFLite Micro with CMSIS-NN kernels, whose
// buffers are predicted (docs/tflm.md).
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

std::string TestConvModel() {
  return testing::OraclePath(
      "external/tflite-micro__tensorflow_lite_micro_testing_test_conv_model.tflite");
}

TEST(TflmCmsisNnCommand, ReportNamesTheBuildAndSaysThePrediction) {
  ToolRun run = RunTool("report --target tflm-cmsis-nn --cpu cortex-m4 " + TestConvModel());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("(tflm-cmsis-nn, 32-bit microcontroller, AAPCS, CMSIS-NN kernels for "
                         "cortex-m4 (dsp code path);"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  predicted: "), std::string::npos) << run.out;
  // conv 2's im2col buffer (2 x 144 x 2 bytes) in the head.
  EXPECT_NE(run.out.find("scratch of node 2             576"), std::string::npos) << run.out;
}

TEST(TflmCmsisNnCommand, JsonCarriesTheBuildName) {
  ToolRun m55 = RunTool("report --json --target tflm-cmsis-nn --cpu cortex-m55 " + TestConvModel());
  ASSERT_EQ(m55.exit_code, 0) << m55.err;
  const auto tflm = nlohmann::json::parse(m55.out).at("tflm");
  EXPECT_EQ(tflm.at("target"), "tflm-cmsis-nn");
  EXPECT_EQ(tflm.at("cmsis_nn").at("cpu"), "cortex-m55");
  EXPECT_EQ(tflm.at("cmsis_nn").at("code_path"), "mve");
  EXPECT_EQ(tflm.at("cmsis_nn").at("figures"), "predicted");
  ToolRun plain = RunTool("arena --json --target tflm-cmsis-nn " + TestConvModel());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(nlohmann::json::parse(plain.out).at("tflm").at("cmsis_nn").at("code_path"), "plain-c");
  ToolRun reference = RunTool("report --json --target tflm-32 " + TestConvModel());
  EXPECT_TRUE(nlohmann::json::parse(reference.out).at("tflm").at("cmsis_nn").is_null());
}

TEST(TflmCmsisNnCommand, ArenaBudgetOnACortexM4) {
  ToolRun run =
      RunTool("arena --target tflm-cmsis-nn --cpu cortex-m4 --arena-budget 8K " + TestConvModel());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.out.find("DOES NOT FIT"), std::string::npos) << run.out;
}

TEST(TflmCmsisNnCommand, FlagsOutOfPlaceExitTwo) {
  ToolRun cpu = RunTool("report --target tflm-32 --cpu cortex-m4 " + TestConvModel());
  EXPECT_EQ(cpu.exit_code, 2);
  EXPECT_NE(cpu.err.find("--cpu applies to --target tflm-cmsis-nn"), std::string::npos) << cpu.err;
  ToolRun core = RunTool("report --target tflm-cmsis-nn --cpu cortex-a53 " + TestConvModel());
  EXPECT_EQ(core.exit_code, 2);
  EXPECT_NE(core.err.find("--cpu: unknown core \"cortex-a53\""), std::string::npos) << core.err;
  ToolRun abi = RunTool("report --target tflm-cmsis-nn --abi i386 " + TestConvModel());
  EXPECT_EQ(abi.exit_code, 2);
  ToolRun gate = RunTool("gate --target tflm-cmsis-nn --update-baseline --baseline " +
                         testing::FreshDir("tflm_cmsis_gate") + "/b.json " + TestConvModel());
  EXPECT_EQ(gate.exit_code, 2);
  EXPECT_NE(gate.err.find("--target tflm-cmsis-nn are for report and arena"), std::string::npos)
      << gate.err;
}

TEST(TflmCmsisNnCommand, ReplacedKernelNotModelledExitsTwo) {
  ToolRun run = RunTool(
      "report --target tflm-cmsis-nn --cpu cortex-m7 " +
      testing::OraclePath("external/tflite-micro__tensorflow_lite_micro_integration_tests_seanet_"
                          "transpose_conv_transpose_conv0.tflite"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (TRANSPOSE_CONV): TFLite Micro's CMSIS-NN TRANSPOSE_CONV kernel "
                         "(cmsis_nn/transpose_conv.cc) is not modelled yet"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace tfa
