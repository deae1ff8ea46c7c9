#include "visualizers/html_report.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "libanalysis/model/model_loader.h"
#include "tests/support/test_paths.h"
#include "visualizers/visualizer_test_data.h"

namespace tfa::viz {
namespace {

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

Model TinyModel() {
  Model model;
  model.subgraphs.push_back(testing::TinySubgraph());
  return model;
}

Report TinyModelReport() {
  Report report;
  report.model = "tiny.tflite";
  report.tool_version = "0.1.0";
  report.delegates = {"gpu"};
  report.delegate_trust = {"verified"};
  report.subgraphs.push_back(testing::TinyReport());
  ArenaReport arena;
  arena.size = 8192;
  arena.lower_bound = 6144;
  arena.peak_step = 1;
  arena.allocs = {{0, 0, 0, std::nullopt, false, 0, 4096, nullptr},
                  {3, 0, 1, std::nullopt, false, 4096, 2048, nullptr}};
  arena.assumptions = {"MY_CUSTOM: temporaries <unknown>"};
  report.subgraphs[0].arena = arena;
  return report;
}

void ExpectSelfContained(const std::string& html) {
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.substr(html.size() - 8), "</html>\n");
  EXPECT_EQ(CountOccurrences(html, "<script"), 0u);
  EXPECT_EQ(CountOccurrences(html, "<link"), 0u);
  EXPECT_EQ(CountOccurrences(html, "src="), 0u);
  EXPECT_EQ(CountOccurrences(html, "<?xml"), 0u);  // Graphviz's prolog is stripped when inlined
  EXPECT_EQ(CountOccurrences(html, "<!DOCTYPE svg"), 0u);
}

TEST(HtmlReportTest, TinyModelHasTablesAndBothPictures) {
  Result<std::string> html = RenderHtmlReport(TinyModel(), TinyModelReport());
  ASSERT_TRUE(html.ok()) << html.status().message();
  ExpectSelfContained(*html);
  EXPECT_EQ(CountOccurrences(*html, "<table class=\"figures\">"), 1u);
  EXPECT_EQ(CountOccurrences(*html, "<table class=\"partitions\">"), 1u);
  EXPECT_EQ(CountOccurrences(*html, "<span class=\"swatch\""), 3u);
  EXPECT_EQ(CountOccurrences(*html, "<table class=\"unsupported\">"), 1u);
  EXPECT_NE(html->find("<td>custom op &lt;MY_CUSTOM&gt; has no GPU kernel</td>"),
            std::string::npos);
  EXPECT_EQ(CountOccurrences(*html, "<svg"), 2u);
  EXPECT_EQ(CountOccurrences(*html, "class=\"cluster\""), 3u);
  EXPECT_EQ(CountOccurrences(*html, "<rect class=\"alloc\""), 2u);
  // P2's row: one node (#3 MUL), 3.0 kB in, 1.2 MB out, 1.2 MB copied per inference.
  EXPECT_NE(html->find("<td>MUL×1</td><td class=\"num\" title=\"3048 B\">3.0 kB</td>"
                       "<td class=\"num\" title=\"1200000 B\">1.2 MB</td>"
                       "<td class=\"num\" title=\"1203048 B\">1.2 MB</td>"),
            std::string::npos);
  EXPECT_NE(html->find("<th>arena size</th><td class=\"num\" title=\"8192 B\">8.2 kB</td>"),
            std::string::npos);
  EXPECT_NE(html->find("<li>MY_CUSTOM: temporaries &lt;unknown&gt;</li>"), std::string::npos);
  EXPECT_NE(html->find("delegates: gpu [verified] · tflite-analyze 0.1.0"), std::string::npos);
}

TEST(HtmlReportTest, LargeSubgraphsGetTheCollapsedGraph) {
  HtmlReportOptions options;
  options.collapse_above_nodes = 3;
  Result<std::string> html = RenderHtmlReport(TinyModel(), TinyModelReport(), options);
  ASSERT_TRUE(html.ok()) << html.status().message();
  EXPECT_NE(html->find("Partition graph (collapsed: one box per partition)"), std::string::npos);
  EXPECT_EQ(CountOccurrences(*html, "class=\"cluster\""), 0u);
}

TEST(HtmlReportTest, ReportAndModelMustAgree) {
  Report report = TinyModelReport();
  report.subgraphs[0].index = 2;
  Result<std::string> html = RenderHtmlReport(TinyModel(), report);
  ASSERT_FALSE(html.ok());
  EXPECT_EQ(html.status().message(),
            "tiny.tflite: report subgraph 2 is not in the model (1 subgraphs)");
}

TEST(HtmlReportTest, CorpusModelWithThreePartitions) {
  Result<Model> model =
      LoadModelFile(tfa::testing::CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  Report report;
  report.model = "face_detection_short_range.tflite";
  report.subgraphs.push_back(testing::AlternatingReport(model->subgraphs[0].nodes.size(), 3));
  Result<std::string> html = RenderHtmlReport(*model, report);
  ASSERT_TRUE(html.ok()) << html.status().message();
  ExpectSelfContained(*html);
  EXPECT_EQ(CountOccurrences(*html, "<span class=\"swatch\""), 3u);
  // 164 nodes: above the 100 the page draws node by node, so partitions are one box each.
  EXPECT_EQ(CountOccurrences(*html, "class=\"cluster\""), 0u);
  EXPECT_EQ(CountOccurrences(*html, "<svg"), 1u);  // no arena in this report
}

}  // namespace
}  // namespace tfa::viz
