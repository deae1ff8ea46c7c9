// `report --html` opened in a real browser: Debian's headless Chromium (installed by setup.sh)
// parses the page, which must keep its tables and pictures, and takes a screenshot of it. The
// pages of the public external models (testing::ExternalModelPaths) are laid out by the browser,
// which measures that no two labels of an arena picture overlap, and a 5,000-node model's page is
// timed by the browser's own clock (performance.now(): parsing and layout, not the browser's
// start).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

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

// Measures the page as the browser lays it out, once it is parsed: the labels of every arena
// picture, pairwise (half a pixel of slack for anti-aliasing), and the time since navigation
// started, layout forced. Writes JSON into <pre id="measurement">, which --dump-dom prints.
constexpr char kMeasurement[] = R"js(<script>
(function () {
  const overlaps = [];
  const pictures = document.querySelectorAll('svg.arena-picture');
  for (const svg of pictures) {
    const boxes = Array.from(svg.querySelectorAll('text'), (t) => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; ++i) {
      for (let j = i + 1; j < boxes.length; ++j) {
        const a = boxes[i][1], b = boxes[j][1];
        if (a.width === 0 || b.width === 0) continue;
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 &&
            b.top < a.bottom - 0.5) {
          overlaps.push(boxes[i][0] + ' | ' + boxes[j][0]);
        }
      }
    }
  }
  document.body.getBoundingClientRect();
  const result = {pictures: pictures.length, overlaps: overlaps, ms: performance.now()};
  const pre = document.createElement('pre');
  pre.id = 'measurement';
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
})();
</script>
)js";

// `html` with the measurement run at the end of its body.
std::string Measured(const std::string& html) {
  const size_t end = html.rfind("</body>");
  return html.substr(0, end) + kMeasurement + html.substr(end);
}

nlohmann::json Measure(const std::string& dir, const std::string& html) {
  const std::string page = testing::WriteFile(dir + "/measured.html", Measured(html));
  ToolRun dom = RunCommand(Chromium(dir, "--dump-dom file://" + page));
  EXPECT_EQ(dom.exit_code, 0) << dom.err;
  const std::string from = "<pre id=\"measurement\">";
  const size_t start = dom.out.find(from);
  if (start == std::string::npos) {
    ADD_FAILURE() << "no measurement in the page: " << dom.out.substr(0, 300);
    return nlohmann::json::object();
  }
  const size_t stop = dom.out.find("</pre>", start);
  std::string text = dom.out.substr(start + from.size(), stop - start - from.size());
  for (const auto& [entity, character] : {std::pair<std::string, std::string>{"&quot;", "\""},
                                          {"&lt;", "<"},
                                          {"&gt;", ">"},
                                          {"&amp;", "&"}}) {
    for (size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at))
      text.replace(at, entity.size(), character);
  }
  return nlohmann::json::parse(text);
}

// Every external model's page, gpu and xnnpack, in one browser: their subgraph sections joined
// into one page under the first one's head, so the browser starts once.
TEST(ReportHtmlLabels, NoTwoLabelsOfAnArenaPictureOverlapOnTheExternalModels) {
  ASSERT_TRUE(std::filesystem::exists(kChromium)) << kChromium << " is missing";
  const std::string dir = testing::FreshDir("report_html_labels");
  const std::vector<std::string> models = testing::ExternalModelPaths();
  ASSERT_GE(models.size(), 29u);
  std::string head, sections;
  size_t pages = 0;
  for (const std::string& model : models) {
    for (const char* delegate : {"gpu", "xnnpack"}) {
      const std::string html = dir + "/page.html";
      std::filesystem::remove(html);
      const ToolRun run =
          testing::RunInProcess({"report", model, "--delegate", delegate, "--html", html});
      if (run.exit_code != 0) continue;  // a model upstream refuses has no page
      const std::string page = testing::ReadTextFile(html);
      const size_t body = page.find("<body>") + 6;
      if (head.empty()) head = page.substr(0, body);
      sections += page.substr(body, page.rfind("</body>") - body);
      ++pages;
    }
  }
  EXPECT_GT(pages, 2 * models.size() - 10);
  const nlohmann::json m = Measure(dir, head + sections + "</body>\n</html>\n");
  EXPECT_GT(m.value("pictures", 0), 40);
  EXPECT_EQ(m.value("overlaps", nlohmann::json::array()), nlohmann::json::array());
}

// A chain of 5,000 nodes, every 500th a SIN the delegate leaves on the CPU.
std::string FiveThousandNodeGraph() {
  constexpr int kNodes = 5000;
  std::string tensors, nodes;
  for (int t = 0; t <= kNodes; ++t) {
    tensors += (t > 0 ? "," : "") + std::string(R"({"name":"t)") + std::to_string(t) +
               R"(","bytes":)" + std::to_string(4096 + 64 * (t % 7)) + "}";
  }
  for (int n = 0; n < kNodes; ++n) {
    nodes += (n > 0 ? "," : "") + std::string(R"({"op":")") + (n % 500 == 499 ? "SIN" : "ADD") +
             R"(","inputs":[)" + std::to_string(n) + "," + std::to_string(n) + R"(],"outputs":[)" +
             std::to_string(n + 1) + R"(],"inplace":0})";
  }
  return R"({"format":"tflite-analyze-graph/1","tensors":[)" + tensors + R"(],"nodes":[)" + nodes +
         R"(],"inputs":[0],"outputs":[)" + std::to_string(kNodes) + R"(],"variables":[]})";
}

// The issue's limit: the page of a 5,000-node model is parsed and laid out in under 2 s, by the
// browser's own clock.
TEST(ReportHtmlLoad, AFiveThousandNodePageLoadsInUnderTwoSeconds) {
  ASSERT_TRUE(std::filesystem::exists(kChromium)) << kChromium << " is missing";
  const std::string dir = testing::FreshDir("report_html_load");
  const std::string model = testing::WriteFile(dir + "/chain.json", FiveThousandNodeGraph());
  const std::string html = dir + "/report.html";
  const ToolRun run =
      testing::RunInProcess({"report", model, "--delegate", "ops=ADD", "--html", html});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json m = Measure(dir, testing::ReadTextFile(html));
  EXPECT_EQ(m.value("pictures", 0), 1);
  EXPECT_EQ(m.value("overlaps", nlohmann::json::array()), nlohmann::json::array());
  EXPECT_LT(m.value("ms", 1e9), 2000.0)
      << "the 5,000-node page took " << m.value("ms", 0.0) << " ms to parse and lay out";
}

}  // namespace
}  // namespace tfa
