// End-to-end tests of `tflite-analyze report` beyond one model's JSON (cli_test.cc): several
// models at once, --subgraph, --format markdown, --html and --advise.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

const std::string kShortRange = "face_detection__face_detection_short_range";
const std::string kPalm = "hands__palm_detection_lite";

TEST(ReportCommand, SeveralModelsGiveOneJsonReportEachInOrder) {
  ToolRun run = RunTool("report --json --delegate gpu " + testing::CorpusModelPath(kShortRange) +
                        " " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j.at("reports").size(), 2u);
  EXPECT_EQ(j.at("reports").at(0).at("model"), testing::CorpusModelPath(kShortRange));
  EXPECT_EQ(j.at("reports").at(1).at("model"), testing::CorpusModelPath(kPalm));
  EXPECT_EQ(j.at("reports").at(1).at("delegates"), nlohmann::json::parse(R"(["gpu"])"));
}

TEST(ReportCommand, EveryCorpusModelInParallelEndsWithASummaryTable) {
  std::string models;
  const std::vector<std::string> names = testing::CorpusModelNames();
  for (const std::string& name : names) models += " " + testing::CorpusModelPath(name);
  ToolRun run = RunTool("report --delegate xnnpack" + models);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const size_t table = run.out.find("model");
  const size_t header =
      run.out.rfind("nodes  partitions  delegated  bytes/inference       arena  persistent");
  ASSERT_NE(header, std::string::npos) << run.out;
  EXPECT_NE(table, std::string::npos);
  const std::string summary = run.out.substr(run.out.rfind('\n', header) + 1);
  for (const std::string& name : names)
    EXPECT_NE(summary.find(name + ".tflite"), std::string::npos) << name;
  // Not a terminal: no colour codes, no progress bar.
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(run.err, "");
}

TEST(ReportCommand, SummaryRowHasTheModelsFigures) {
  const std::string dir = testing::FreshDir("report_summary");
  const std::string a = testing::WriteFile(dir + "/a.json", testing::ChainGraphJson(8192));
  const std::string b = testing::WriteFile(dir + "/b.json", testing::ChainGraphJson(16384));
  ToolRun run = RunTool("report --delegate ops=ADD " + a + " " + b);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(
      run.out.find(
          "\na.json       3           3          2          20.5 kB     16.4 kB         0 B\n"),
      std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find(
          "\nb.json       3           3          2          28.7 kB     24.6 kB         0 B\n"),
      std::string::npos);
  // Two models with the same file name are told apart by their paths.
  const std::string again = testing::WriteFile(dir + "/v2/a.json", testing::ChainGraphJson(16384));
  run = RunTool("report " + a + " " + again);
  EXPECT_NE(run.out.find("\n" + again + "       3"), std::string::npos) << run.out;
}

TEST(ReportCommand, SubgraphSelection) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  ToolRun zero = RunTool("report --json --subgraph 0 " + model);
  ASSERT_EQ(zero.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(zero.out).at("subgraphs").size(), 1u);
  ToolRun out_of_range = RunTool("report --subgraph 7 " + model);
  EXPECT_EQ(out_of_range.exit_code, 2);
  EXPECT_NE(out_of_range.err.find(model + ": no subgraph 7 (model has 1)"), std::string::npos)
      << out_of_range.err;
  EXPECT_EQ(RunTool("report --subgraph x " + model).exit_code, 2);
}

TEST(ReportCommand, MarkdownHasTables) {
  ToolRun run =
      RunTool("report --format markdown --delegate gpu " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("## `", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("| # | kind | nodes | first..last | bytes in | bytes out | ops |"),
            std::string::npos);
  EXPECT_NE(run.out.find("| 0 | gpu |"), std::string::npos) << run.out;
}

TEST(ReportCommand, JsonAndFormatMustAgree) {
  const std::string model = testing::CorpusModelPath(kPalm);
  EXPECT_EQ(RunTool("report --json --format markdown " + model).exit_code, 2);
  EXPECT_EQ(RunTool("report --json --format json " + model).exit_code, 0);
  EXPECT_EQ(RunTool("report --format junit " + model).exit_code, 2);
}

TEST(ReportCommand, HtmlIsSelfContained) {
  const std::string html = testing::FreshDir("report_html") + "/palm.html";
  ToolRun run =
      RunTool("report --delegate gpu --html " + html + " " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string page = testing::ReadTextFile(html);
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("src=\"http"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(RunTool("report --html " + html + " " + testing::CorpusModelPath(kPalm) + " " +
                    testing::CorpusModelPath(kShortRange))
                .exit_code,
            2);
}

TEST(ReportCommand, AdviseAddsTheAdvisor) {
  const std::string model = testing::CorpusModelPath(kPalm);
  ToolRun text = RunTool("report --delegate gpu --advise " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("advice for gpu, subgraph 0:"), std::string::npos) << text.out;
  ToolRun json = RunTool("report --json --delegate gpu --advise " + model);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j.at("advice").size(), 1u);
  EXPECT_EQ(j.at("advice").at(0).at("subgraph"), 0);
  EXPECT_EQ(RunTool("report --advise " + model).exit_code, 2);  // nothing to advise on
}

}  // namespace
}  // namespace tfa
