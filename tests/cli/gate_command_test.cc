// End-to-end tests of `tflite-analyze gate`: a baseline recorded from one version of a model, then
// checked against a version with a bigger arena (exit 1), the same version (exit 0), a smaller
// one with --fail-on-shrink, and the JUnit / GitHub forms of the verdict.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::ChainGraphJson;
using testing::FreshDir;
using testing::RunTool;
using testing::ToolRun;
using testing::WriteFile;

// A baseline recorded from the chain with an 8192-byte middle tensor, under two configurations.
struct Recorded {
  std::string dir;
  std::string model;
  std::string baseline;
};

Recorded RecordChain(const std::string& name) {
  Recorded r;
  r.dir = FreshDir(name);
  r.model = WriteFile(r.dir + "/v1/chain.json", ChainGraphJson(8192));
  r.baseline = r.dir + "/baseline.json";
  for (const char* config : {"", "--delegate ops=ADD"}) {
    ToolRun run =
        RunTool("gate " + r.model + " --baseline " + r.baseline + " --update-baseline " + config);
    EXPECT_EQ(run.exit_code, 0) << run.err;
  }
  return r;
}

TEST(GateCommand, UpdateBaselineRecordsEveryConfigurationOfEveryModel) {
  const Recorded r = RecordChain("gate_record");
  const nlohmann::json b = testing::ReadJsonFile(r.baseline);
  EXPECT_EQ(b.at("format"), "tflite-analyze-baseline/1");
  ASSERT_EQ(b.at("models").size(), 1u);
  const auto& m = b.at("models").at(0);
  EXPECT_EQ(m.at("file"), "chain.json");
  EXPECT_EQ(m.at("sha256").get<std::string>().size(), 64u);
  ASSERT_EQ(m.at("configs").size(), 2u);
  // Sorted by name: "--delegate ops=ADD" before "cpu only".
  const auto& cpu = m.at("configs").at(1);
  EXPECT_EQ(cpu.at("config"), "cpu only");
  // mid and wide overlap at step 1 with the input; output reuses mid's block: 4096 * 2 + 8192.
  EXPECT_EQ(cpu.at("arena_bytes"), 16384);
  EXPECT_EQ(cpu.at("delegated_partitions"), 0);
  const auto& add = m.at("configs").at(0);
  EXPECT_EQ(add.at("config"), "--delegate ops=ADD");
  EXPECT_EQ(add.at("delegates"), nlohmann::json::parse(R"([{"spec":"ops=ADD"}])"));
  EXPECT_EQ(add.at("delegated_partitions"), 2);
  // ADD #0 takes input, gives mid; ADD #2 takes wide, gives output.
  EXPECT_EQ(add.at("copy_bytes"), 4096 * 3 + 8192);
}

TEST(GateCommand, SameModelPassesEveryRecordedConfiguration) {
  const Recorded r = RecordChain("gate_same");
  ToolRun run = RunTool("gate " + r.model + " --baseline " + r.baseline);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("[cpu only]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("[--delegate ops=ADD]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("PASSED: 10 checks"), std::string::npos) << run.out;
  EXPECT_EQ(run.err, "");
}

TEST(GateCommand, BiggerArenaFailsWithBeforeAfterAndDelta) {
  const Recorded r = RecordChain("gate_bigger");
  const std::string v2 = WriteFile(r.dir + "/v2/chain.json", ChainGraphJson(16384));
  ToolRun run = RunTool("gate " + v2 + " --baseline " + r.baseline +
                        " --delegate ops=ADD --max-arena-growth 2%");
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("REGRESSED"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("arena_bytes"), std::string::npos);
  EXPECT_NE(run.out.find("FAILED: 2 of 5 checks"), std::string::npos)
      << run.out;  // arena and copy bytes; the runtime version (ADD v1: 1.5.0) holds
  // Generous enough limits let the same change through.
  ToolRun lenient =
      RunTool("gate " + v2 + " --baseline " + r.baseline +
              " --delegate ops=ADD --max-arena-growth 50% --max-copy-bytes-growth 8192");
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
}

TEST(GateCommand, FailOnShrinkCatchesAnUnexpectedImprovement) {
  const Recorded r = RecordChain("gate_shrink");
  const std::string v2 = WriteFile(r.dir + "/v2/chain.json", ChainGraphJson(4096));
  EXPECT_EQ(RunTool("gate " + v2 + " --baseline " + r.baseline).exit_code, 0);
  ToolRun run = RunTool("gate " + v2 + " --baseline " + r.baseline +
                        " --fail-on-shrink --max-arena-growth 1%");
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_NE(run.out.find("IMPROVED beyond limit"), std::string::npos) << run.out;
}

TEST(GateCommand, RenamedOrUnknownModelsFail) {
  const Recorded r = RecordChain("gate_renamed");
  const std::string renamed = WriteFile(r.dir + "/renamed.json", ChainGraphJson(8192));
  ToolRun run = RunTool("gate " + renamed + " --baseline " + r.baseline);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("records this file's contents as \"chain.json\""), std::string::npos)
      << run.out;
  const std::string unknown = WriteFile(r.dir + "/unknown.json", ChainGraphJson(512));
  run = RunTool("gate " + unknown + " --baseline " + r.baseline);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("not in the baseline"), std::string::npos) << run.out;
}

TEST(GateCommand, CorpusModelsRecordAndPassInParallel) {
  const std::string dir = FreshDir("gate_corpus");
  std::string models;
  for (const char* name :
       {"face_detection__face_detection_short_range", "hands__palm_detection_lite",
        "selfie_segmentation__selfie_segmentation"}) {
    models += " " + testing::CorpusModelPath(name);
  }
  const std::string baseline = dir + "/baseline.json";
  ASSERT_EQ(
      RunTool("gate" + models + " --baseline " + baseline + " --delegate gpu --update-baseline")
          .exit_code,
      0);
  ToolRun run = RunTool("gate" + models + " --baseline " + baseline);
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("PASSED: 15 checks"), std::string::npos) << run.out;
  // The palm detector under the face detector's name: a different model with a bigger arena.
  const std::string impostor = dir + "/face_detection__face_detection_short_range.tflite";
  std::filesystem::copy_file(testing::CorpusModelPath("hands__palm_detection_lite"), impostor);
  run = RunTool("gate " + impostor + " --baseline " + baseline);
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_NE(run.out.find("arena_bytes"), std::string::npos);
}

TEST(GateCommand, JunitHasOneTestcasePerModelConfigAndFigure) {
  const Recorded r = RecordChain("gate_junit");
  const std::string v2 = WriteFile(r.dir + "/v2/chain.json", ChainGraphJson(16384));
  ToolRun run = RunTool("gate " + v2 + " --baseline " + r.baseline + " --format junit");
  EXPECT_EQ(run.exit_code, 1);
  const std::string& xml = run.out;
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite ", 0), 0u) << xml;
  EXPECT_NE(xml.find("tests=\"10\" failures=\"3\""), std::string::npos) << xml;
  size_t testcases = 0;
  for (size_t at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1))
    ++testcases;
  EXPECT_EQ(testcases, 10u);
  EXPECT_NE(xml.find("<testcase classname=\"chain.json [cpu only]\" name=\"arena_bytes\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"arena_bytes grew from 16384 to 24576"), std::string::npos)
      << xml;
  EXPECT_NE(
      xml.find(
          "<testcase classname=\"chain.json [--delegate ops=ADD]\" name=\"persistent_bytes\"/>"),
      std::string::npos);
  EXPECT_EQ(xml.substr(xml.size() - 13), "</testsuite>\n");
  // Opening and closing tags balance.
  size_t open = 0, close = 0;
  for (size_t at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1)) {
    if (xml.compare(xml.find('>', at) - 1, 1, "/") != 0) ++open;
  }
  for (size_t at = xml.find("</testcase>"); at != std::string::npos;
       at = xml.find("</testcase>", at + 1))
    ++close;
  EXPECT_EQ(open, close);
}

TEST(GateCommand, GithubAnnotationsOnActionsOrAsked) {
  const Recorded r = RecordChain("gate_github");
  const std::string v2 = WriteFile(r.dir + "/v2/chain.json", ChainGraphJson(16384));
  // This test may itself run on GitHub Actions: decide the variable, restore it afterwards.
  const char* outer = std::getenv("GITHUB_ACTIONS");
  const std::string saved = outer == nullptr ? "" : outer;
  unsetenv("GITHUB_ACTIONS");
  ToolRun run = RunTool("gate " + v2 + " --baseline " + r.baseline + " --format github");
  EXPECT_EQ(run.exit_code, 1);
  // Baseline configurations are sorted by name: "--delegate ops=ADD" before "cpu only". The
  // workflow command syntax escapes '%' as %25.
  EXPECT_EQ(
      run.out.rfind(
          "::error file=" + v2 +
              ",title=tflite-analyze gate [--delegate ops=ADD]::chain.json: arena_bytes grew from "
              "16384 to 24576 (+8192 (+50.00%25)), limit +0%25\n",
          0),
      0u)
      << run.out;
  EXPECT_NE(run.out.find("::notice title=tflite-analyze gate::FAILED: 3 of 10 checks"),
            std::string::npos);
  ToolRun plain = RunTool("gate " + v2 + " --baseline " + r.baseline);
  EXPECT_EQ(plain.out.find("::error"), std::string::npos);
  setenv("GITHUB_ACTIONS", "true", 1);
  ToolRun on_ci = RunTool("gate " + v2 + " --baseline " + r.baseline);
  if (outer == nullptr) {
    unsetenv("GITHUB_ACTIONS");
  } else {
    setenv("GITHUB_ACTIONS", saved.c_str(), 1);
  }
  EXPECT_EQ(on_ci.exit_code, 1);
  EXPECT_NE(on_ci.out.find("REGRESSED"), std::string::npos);
  EXPECT_NE(on_ci.out.find("::error file="), std::string::npos) << on_ci.out;
}

TEST(GateCommand, JunitOutputFileAndJson) {
  const Recorded r = RecordChain("gate_files");
  const std::string xml = r.dir + "/gate.xml";
  ToolRun run =
      RunTool("gate " + r.model + " --baseline " + r.baseline + " --json --junit-output " + xml);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("passed"), true);
  EXPECT_EQ(j.at("checks").size(), 2u);
  EXPECT_EQ(j.at("checks").at(0).at("figures").at(0).at("figure"), "arena_bytes");
  EXPECT_NE(testing::ReadTextFile(xml).find("failures=\"0\""), std::string::npos);
}

TEST(GateCommand, BadInputExitsTwoWithOneLine) {
  const Recorded r = RecordChain("gate_bad");
  const std::string broken =
      WriteFile(r.dir + "/broken.json", "{\"format\":\"tflite-analyze-baseline/1\",");
  const std::string wrong =
      WriteFile(r.dir + "/wrong.json", R"({"format":"tflite-analyze-baseline/1","models":{}})");
  const std::string cases[] = {
      "gate " + r.model + " --baseline " + broken,
      "gate " + r.model + " --baseline " + wrong,
      "gate " + r.model + " --baseline " + r.dir + "/missing.json",
      "gate " + r.dir + "/missing.tflite --baseline " + r.baseline,
      "gate " + r.model + " --baseline " + r.baseline + " --max-arena-growth lots",
      "gate " + r.model + " --baseline " + r.baseline + " --delegate no-such-delegate",
      "gate " + r.model + " --baseline " + r.baseline + " --format csv",
      "gate " + r.model,
  };
  for (const std::string& args : cases) {
    ToolRun run = RunTool(args);
    EXPECT_EQ(run.exit_code, 2) << args << "\n" << run.out << run.err;
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << args << ": " << run.err;
  }
  EXPECT_NE(RunTool(cases[1]).err.find("wrong.json: models: expected an array"), std::string::npos);
}

}  // namespace
}  // namespace tfa
