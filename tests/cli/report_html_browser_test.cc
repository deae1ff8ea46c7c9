// `report --html` opened in a real browser: Debian's headless Chromium (installed by setup.sh)
// parses the page, which must keep its tables and pictures, and takes a screenshot of it.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunCommand;
using testing::RunTool;
using testing::ToolRun;

constexpr char kChromium[] = "/usr/bin/chromium";
constexpr int kWidth = 1280;
constexpr int kHeight = 1600;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The text between `after` and the next `end` (empty when absent).
std::string Section(const std::string& text, const std::string& after, const std::string& end) {
  const size_t start = text.find(after);
  if (start == std::string::npos) return "";
  const size_t stop = text.find(end, start);
  return text.substr(start, stop == std::string::npos ? std::string::npos : stop - start);
}

uint32_t BigEndian32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<uint8_t>(bytes[at + i]);
  return value;
}

// Headless Chromium as root needs --no-sandbox; each run gets its own profile directory because
// ctest runs test processes side by side and Chromium locks its profile.
std::string Chromium(const std::string& dir, const std::string& args) {
  return std::string(kChromium) + " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage" +
         " --no-first-run --user-data-dir=" + dir + "/profile " + args;
}

class ReportHtmlInBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(kChromium))
        << kChromium << " is missing: ./setup.sh installs Debian's chromium package";
    dir_ = testing::FreshDir("report_html_browser");
    html_ = dir_ + "/report.html";
    ToolRun report =
        RunTool("report --delegate " + std::string(kDelegate) + " --html " + html_ + " " + model_);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    ToolRun json = RunTool("report --json --delegate " + std::string(kDelegate) + " " + model_);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    partitions_ = nlohmann::json::parse(json.out).at("subgraphs").at(0).at("partitions").size();
  }

  // Claims convolutions and ADD only, so the page has many partitions and unsupported nodes.
  static constexpr char kDelegate[] = "ops=CONV_2D,DEPTHWISE_CONV_2D,ADD";
  const std::string model_ = testing::CorpusModelPath("face_detection__face_detection_short_range");
  std::string dir_;
  std::string html_;
  size_t partitions_ = 0;
};

TEST_F(ReportHtmlInBrowser, PageLoadsWithItsTablesAndPictures) {
  // --dump-dom prints the document as the browser parsed it, so a malformed page shows up as
  // missing or misplaced elements.
  ToolRun dom = RunCommand(Chromium(dir_, "--dump-dom file://" + html_));
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  ASSERT_NE(dom.out.find("</html>"), std::string::npos) << dom.out.substr(0, 500);
  for (const char* heading :
       {"<h3>Figures</h3>", "<h3>Partitions</h3>", "<h3>Nodes left on the CPU</h3>",
        "<h3>Partition graph", "<h3>Arena</h3>"}) {
    EXPECT_NE(dom.out.find(heading), std::string::npos) << heading;
  }
  EXPECT_EQ(Count(dom.out, "<svg"), 2u);  // the partition graph and the arena picture
  // One header row and one row per partition.
  const std::string partitions = Section(dom.out, "<h3>Partitions</h3>", "</table>");
  EXPECT_GT(partitions_, 10u);
  EXPECT_EQ(Count(partitions, "<tr"), partitions_ + 1);
  const std::string unsupported = Section(dom.out, "<h3>Nodes left on the CPU</h3>", "</table>");
  EXPECT_NE(unsupported.find("RESHAPE"), std::string::npos) << unsupported.substr(0, 500);
}

TEST_F(ReportHtmlInBrowser, ScreenshotShowsThePage) {
  const std::string png = dir_ + "/report.png";
  ToolRun shot = RunCommand(Chromium(dir_, "--window-size=" + std::to_string(kWidth) + "," +
                                               std::to_string(kHeight) + " --screenshot=" + png +
                                               " file://" + html_));
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  const std::string bytes = testing::ReadTextFile(png);
  ASSERT_GT(bytes.size(), 24u) << png;
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(bytes.substr(12, 4), "IHDR");
  EXPECT_EQ(BigEndian32(bytes, 16), static_cast<uint32_t>(kWidth));
  EXPECT_EQ(BigEndian32(bytes, 20), static_cast<uint32_t>(kHeight));
  // An empty white page of this size compresses to about 9 kB, a heading alone to 11 kB; the
  // report's tables and graph give well over 100 kB.
  EXPECT_GT(bytes.size(), 60'000u) << png;
}

}  // namespace
}  // namespace tfa
