#include "visualizers/model_explorer_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa::viz {
namespace {

std::vector<ModelExplorerOverlay> TwoOverlays() {
  GraphNodeData main;
  main.results.push_back({"0", {"gpu", "#eadbd7"}});
  GraphNodeData sizes;
  sizes.results.push_back({"0", {uint64_t{4096}, ""}});
  sizes.gradient = {{0, "#ffffff"}, {1, "#000000"}};
  return {{"delegate.json", {{{"main", main}}}}, {"arena_size.json", {{{"main", sizes}}}}};
}

TEST(ModelExplorerFiles, WritesOneFilePerOverlayIntoANewDirectory) {
  const std::string dir = tfa::testing::ProcessTempPath("me_overlays") + "/nested/dir";
  std::filesystem::remove_all(tfa::testing::ProcessTempPath("me_overlays"));
  ASSERT_TRUE(WriteModelExplorerOverlays(TwoOverlays(), dir).ok());
  EXPECT_EQ(
      tfa::testing::ReadJsonFile(dir + "/delegate.json"),
      nlohmann::json::parse(R"({"main":{"results":{"0":{"value":"gpu","bgColor":"#eadbd7"}}}})"));
  EXPECT_EQ(tfa::testing::ReadJsonFile(dir + "/arena_size.json"),
            nlohmann::json::parse(R"({"main":{"results":{"0":{"value":4096}},
              "gradient":[{"stop":0.0,"bgColor":"#ffffff"},{"stop":1.0,"bgColor":"#000000"}]}})"));
  // Written again over the same files.
  EXPECT_TRUE(WriteModelExplorerOverlays(TwoOverlays(), dir).ok());
}

TEST(ModelExplorerFiles, ADirectoryThatIsAFileIsAnErrorNamingIt) {
  const std::string file = tfa::testing::WriteTempFile("me_not_a_dir", "x");
  const Status written = WriteModelExplorerOverlays(TwoOverlays(), file);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find(file), std::string::npos) << written.message();
  const Status below = WriteModelExplorerOverlays(TwoOverlays(), file + "/sub");
  ASSERT_FALSE(below.ok());
  EXPECT_NE(below.message().find(file + "/sub"), std::string::npos) << below.message();
}

TEST(ModelExplorerFiles, TraceIsWrittenAsChromeTraceJson) {
  MemoryTimeline timeline;
  timeline.model = "m.tflite";
  SubgraphTimeline s;
  s.graph_id = "main";
  s.steps = {"ADD #0"};
  s.live_arena_bytes = {64};
  timeline.subgraphs.push_back(s);
  const std::string path = tfa::testing::ProcessTempPath("memory.json");
  ASSERT_TRUE(WriteMemoryTrace(timeline, path).ok());
  const nlohmann::json trace = tfa::testing::ReadJsonFile(path);
  EXPECT_EQ(trace.at("otherData").at("model"), "m.tflite");
  EXPECT_FALSE(trace.at("traceEvents").empty());
  EXPECT_FALSE(WriteMemoryTrace(timeline, path + "/below/a/file").ok());
}

}  // namespace
}  // namespace tfa::viz
