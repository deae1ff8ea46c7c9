// End-to-end tests of `tflite-analyze gate`: a baseline recorded from one version of a model, then
// checked against a version with a bigger arena (exit 1), the same version (exit 0), a smaller
// one with --fail-on-shrink, and the JUnit / GitHub forms of the verdict.
#include <gtest/gtest.h>

#include <algorithm>
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
  EXPECT_NE(run.out.find("PASSED: 12 checks"), std::string::npos) << run.out;
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
  EXPECT_NE(run.out.find("FAILED: 2 of 7 checks"), std::string::npos)
      << run.out;  // arena and copy bytes; the runtime version (ADD v1: 1.5.0) holds
  // Generous enough limits let the same change through.
  ToolRun lenient =
      RunTool("gate " + v2 + " --baseline " + r.baseline +
              " --delegate ops=ADD --max-arena-growth 50% --max-copy-bytes-growth 8192");
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
}

// A pull-request comment leads with what failed: the failing figures in their own table, the
// passing ones folded under <details>.
TEST(GateCommand, MarkdownPutsFailuresFirstAndFoldsThePasses) {
  const Recorded r = RecordChain("gate_markdown");
  const std::string v2 = WriteFile(r.dir + "/v2/chain.json", ChainGraphJson(16384));
  ToolRun run = RunTool("gate " + v2 + " --baseline " + r.baseline +
                        " --delegate ops=ADD --max-arena-growth 2% --format markdown");
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  const size_t failed = run.out.find("❌");
  const size_t details = run.out.find("<details><summary>5 figures passed</summary>");
  ASSERT_NE(failed, std::string::npos) << run.out;
  ASSERT_NE(details, std::string::npos) << run.out;
  EXPECT_LT(failed, details) << run.out;
  EXPECT_EQ(run.out.find("✅"), run.out.find("✅", details)) << run.out;
  EXPECT_EQ(run.out.rfind("❌"), run.out.rfind("❌", details)) << run.out;
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
    models += ' ';
    models += testing::CorpusModelPath(name);
  }
  const std::string baseline = dir + "/baseline.json";
  ASSERT_EQ(
      RunTool("gate" + models + " --baseline " + baseline + " --delegate gpu --update-baseline")
          .exit_code,
      0);
  ToolRun run = RunTool("gate" + models + " --baseline " + baseline);
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("PASSED: 18 checks"), std::string::npos) << run.out;
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
  EXPECT_NE(xml.find("tests=\"12\" failures=\"3\""), std::string::npos) << xml;
  size_t testcases = 0;
  for (size_t at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1))
    ++testcases;
  EXPECT_EQ(testcases, 12u);
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
  EXPECT_NE(run.out.find("::notice title=tflite-analyze gate::FAILED: 3 of 12 checks"),
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

// Every node of the chain on ops=ADD,MUL; a new version whose middle op is SUB leaves node 1 on
// the CPU: gated as a new fallback, by op and node, and as a node the delegate lost.
TEST(GateCommand, ANewCpuFallbackFailsNamingItsOpAndNode) {
  const std::string dir = FreshDir("gate_fallback");
  const std::string v1 = WriteFile(dir + "/v1/chain.json", ChainGraphJson(8192));
  const std::string baseline = dir + "/baseline.json";
  ToolRun record = RunTool("gate " + v1 + " --baseline " + baseline +
                           " --update-baseline --delegate ops=ADD,MUL");
  ASSERT_EQ(record.exit_code, 0) << record.err;
  EXPECT_NE(record.out.find("3 nodes on ops=ADD,MUL, 0 CPU fallbacks"), std::string::npos)
      << record.out;
  const nlohmann::json config =
      testing::ReadJsonFile(baseline).at("models").at(0).at("configs").at(0);
  EXPECT_EQ(config.at("delegated_nodes"), nlohmann::json::parse(R"({"ops=ADD,MUL":3})"));
  EXPECT_EQ(config.at("cpu_fallback_nodes"), nlohmann::json::object());

  const std::string v2 = WriteFile(dir + "/v2/chain.json", ChainGraphJson(8192, "SUB"));
  ToolRun run = RunTool("gate " + v2 + " --baseline " + baseline);
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("cpu_fallback_nodes[SUB]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("now on the CPU: #1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("delegated_nodes[ops=ADD,MUL]"), std::string::npos) << run.out;
  ToolRun json = RunTool("gate " + v2 + " --baseline " + baseline + " --json");
  const nlohmann::json figures = nlohmann::json::parse(json.out).at("checks").at(0).at("figures");
  EXPECT_EQ(figures.at(6).at("figure"), "cpu_fallback_nodes[SUB]");
  EXPECT_EQ(figures.at(6).at("verdict"), "grew");
  EXPECT_EQ(figures.at(6).at("regression"), true);
  EXPECT_EQ(figures.at(6).at("nodes_on_cpu"), nlohmann::json::parse(R"(["#1"])"));
  EXPECT_EQ(figures.at(5).at("verdict"), "shrank");  // the delegate lost node 1

  // (Splitting the partition also moved the partition count, the copies and the arena.)
  ToolRun allowed = RunTool("gate " + v2 + " --baseline " + baseline +
                            " --allow-new-fallbacks 1 --max-delegated-nodes-drop 1 --json");
  const nlohmann::json loosened =
      nlohmann::json::parse(allowed.out).at("checks").at(0).at("figures");
  EXPECT_EQ(loosened.at(5).at("verdict"), "pass");
  EXPECT_EQ(loosened.at(6).at("verdict"), "pass");
  EXPECT_EQ(loosened.at(6).at("limit"), "+1");
}

// Baselines recorded before fallbacks were gated stay readable: the other figures are checked
// and the verdict says what was not.
TEST(GateCommand, ABaselineWithoutFallbackFiguresSaysItChecksThemNot) {
  const std::string dir = FreshDir("gate_old_baseline");
  const std::string model = WriteFile(dir + "/chain.json", ChainGraphJson(8192));
  const std::string baseline = dir + "/baseline.json";
  ASSERT_EQ(
      RunTool("gate " + model + " --baseline " + baseline + " --update-baseline --delegate ops=ADD")
          .exit_code,
      0);
  nlohmann::json old = testing::ReadJsonFile(baseline);
  nlohmann::json& config = old.at("models").at(0).at("configs").at(0);
  config.erase("delegated_nodes");
  config.erase("cpu_fallback_nodes");
  WriteFile(baseline, old.dump());
  ToolRun run = RunTool("gate " + model + " --baseline " + baseline);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("not checked: delegated_nodes, cpu_fallback_nodes (the baseline was "
                         "recorded before they were gated; re-record it with --update-baseline)"),
            std::string::npos)
      << run.out;
}

// One model that cannot be read does not stop the others: they are gated, the unreadable one is
// named on stderr, and the exit code is 2.
TEST(GateCommand, AnUnreadableModelIsNamedAndTheOthersAreGated) {
  const Recorded r = RecordChain("gate_unreadable");
  const std::string missing = r.dir + "/missing.tflite";
  const std::string broken = WriteFile(r.dir + "/broken.tflite", "not a model");
  ToolRun run =
      RunTool("gate " + missing + " " + r.model + " " + broken + " --baseline " + r.baseline);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.out.find("PASSED: 12 checks"), std::string::npos) << run.out;
  EXPECT_NE(run.err.find("tflite-analyze: error: " + missing + ": cannot open file"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("tflite-analyze: error: " + broken + ": "), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 2) << run.err;
}

}  // namespace
}  // namespace tfa
