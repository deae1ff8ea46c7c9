// End-to-end tests of --target tflm-cmsis-nn --cpu: TFLite Micro with CMSIS-NN kernels, whose
// buffers are predicted (docs/tflm.md).
#include <gtest/gtest.h>

#include <fstream>
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
  ToolRun gate =
      RunTool("gate --target tflm-cmsis-nn --static-memory --update-baseline --baseline " +
              testing::FreshDir("tflm_cmsis_gate_flags") + "/b.json " + TestConvModel());
  EXPECT_EQ(gate.exit_code, 2);
  EXPECT_NE(gate.err.find("gate records the default TFLite Micro builds"), std::string::npos)
      << gate.err;
}

// seanet's int16 TRANSPOSE_CONV: the port's OpData (a third buffer index) and the reference's
// int64 accumulators.
TEST(TflmCmsisNnCommand, TransposeConvIsPlanned) {
  ToolRun run = RunTool(
      "report --target tflm-cmsis-nn --cpu cortex-m7 " +
      testing::OraclePath("external/tflite-micro__tensorflow_lite_micro_integration_tests_seanet_"
                          "transpose_conv_transpose_conv0.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("TRANSPOSE_CONV OpData                76"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("scratch of node 0           18432"), std::string::npos) << run.out;
}

// A rank-5 BATCH_MATMUL, which the reference kernel runs and CMSIS-NN's refuses in Prepare.
TEST(TflmCmsisNnCommand, ThePortsPrepareRefusalExitsTwo) {
  const std::string model = testing::FreshDir("tflm_cmsis_bmm") + "/bmm5.json";
  std::ofstream(model) << R"({"format":"tflite-analyze-graph/1",
 "tensors":[{"name":"lhs","type":"float32","shape":[1,1,2,4,8],"bytes":256},
            {"name":"rhs","type":"float32","shape":[1,1,2,8,6],"bytes":384},
            {"name":"out","type":"float32","shape":[1,1,2,4,6],"bytes":192}],
 "nodes":[{"op":"BATCH_MATMUL","inputs":[0,1],"outputs":[2]}],
 "inputs":[0,1],"outputs":[2],"variables":[]})";
  EXPECT_EQ(RunTool("report --target tflm-32 " + model).exit_code, 0);
  ToolRun run = RunTool("report --target tflm-cmsis-nn --cpu cortex-m4 " + model);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("node 0 (BATCH_MATMUL): TFLite Micro refuses it in Prepare: lhs_rank <= "
                         "4 was not true. (cmsis_nn/batch_matmul.cc)"),
            std::string::npos)
      << run.err;
}

// gate records each core as a configuration of its own, named as the command line reads, with
// the TFLM gate's figures (arena_used_bytes, the tail) and limits.
TEST(TflmCmsisNnCommand, GateRecordsAndChecksEachCore) {
  const std::string baseline = testing::FreshDir("tflm_cmsis_gate") + "/b.json";
  ToolRun m4 = RunTool("gate --target tflm-cmsis-nn --cpu cortex-m4 --update-baseline --baseline " +
                       baseline + " " + TestConvModel());
  ASSERT_EQ(m4.exit_code, 0) << m4.err;
  EXPECT_NE(m4.out.find("[--target tflm-cmsis-nn --cpu cortex-m4]: arena 9952, persistent 1500"),
            std::string::npos)
      << m4.out;
  ToolRun m55 = RunTool(
      "gate --target tflm-cmsis-nn --cpu cortex-m55 --update-baseline "
      "--baseline " +
      baseline + " " + TestConvModel());
  ASSERT_EQ(m55.exit_code, 0) << m55.err;
  EXPECT_NE(testing::ReadTextFile(baseline).find(R"("target": "tflm-cmsis-nn --cpu cortex-m55")"),
            std::string::npos);
  ToolRun check = RunTool("gate --baseline " + baseline + " " + TestConvModel());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("[--target tflm-cmsis-nn --cpu cortex-m4]  ok"), std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("[--target tflm-cmsis-nn --cpu cortex-m55]  ok"), std::string::npos)
      << check.out;
  // A tail 48 bytes above a cortex-m4 baseline of 1,452 fails at 0% and passes at 5%.
  std::string recorded = testing::ReadTextFile(baseline);
  const size_t at = recorded.find(R"("persistent_bytes": 1500)");
  ASSERT_NE(at, std::string::npos) << recorded;
  recorded.replace(at, 24, R"("persistent_bytes": 1452)");
  std::ofstream(baseline) << recorded;
  ToolRun grown = RunTool("gate --baseline " + baseline + " " + TestConvModel());
  EXPECT_EQ(grown.exit_code, 1) << grown.out << grown.err;
  EXPECT_NE(grown.out.find("[--target tflm-cmsis-nn --cpu cortex-m4]  FAILED"), std::string::npos)
      << grown.out;
  EXPECT_EQ(
      RunTool("gate --max-persistent-growth 5% --baseline " + baseline + " " + TestConvModel())
          .exit_code,
      0);
}

TEST(TflmCmsisNnCommand, DiffNamesTheCoreAndThePrediction) {
  const std::string keyword = testing::OraclePath(
      "external/tflite-micro__tensorflow_lite_micro_models_keyword_scrambled.tflite");
  ToolRun json = RunTool("diff --json --target tflm-cmsis-nn --cpu cortex-m55 " + TestConvModel() +
                         " " + keyword);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("target"), "tflm-cmsis-nn");
  EXPECT_EQ(j.at("cmsis_nn").at("cpu"), "cortex-m55");
  EXPECT_EQ(j.at("cmsis_nn").at("figures"), "predicted");
  EXPECT_EQ(j.at("figures").at("head"), (nlohmann::json{{"before", 8320}, {"after", 672}}));
  EXPECT_EQ(j.at("figures").at("tail"), (nlohmann::json{{"before", 1548}, {"after", 14528}}));
  ToolRun text = RunTool("diff --target tflm-cmsis-nn --cpu cortex-m4 " + TestConvModel() + " " +
                         TestConvModel());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("CMSIS-NN kernels for cortex-m4 (dsp code path))\n  predicted: "),
            std::string::npos)
      << text.out;
}

}  // namespace
}  // namespace tfa
