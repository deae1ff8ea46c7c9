// End-to-end tests of `tflite-analyze arena` and `tflite-analyze dot`.
#include <graphviz/cgraph.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

const std::string kPalm = "hands__palm_detection_lite";

TEST(ArenaCommand, TfliteRowMatchesTheReport) {
  const std::string dir = testing::FreshDir("arena_chain");
  const std::string model = testing::WriteFile(dir + "/chain.json", testing::ChainGraphJson(8192));
  ToolRun run = RunTool("arena --json " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  const auto& sg = j.at("subgraphs").at(0);
  EXPECT_EQ(sg.at("lower_bound"), 16384);
  EXPECT_EQ(sg.at("planners").at(0).at("planner"), "tflite");
  EXPECT_EQ(sg.at("planners").at(0).at("size"), 16384);
  EXPECT_EQ(sg.at("planners").at(0).at("gap"), 0);
  ToolRun text = RunTool("arena " + model + " --planner all");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("tflite"), std::string::npos) << text.out;
}

TEST(ArenaCommand, CorpusModelWithDelegateAndPicture) {
  const std::string svg = testing::FreshDir("arena_svg") + "/arena.svg";
  ToolRun run =
      RunTool("arena --delegate gpu --svg " + svg + " " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("gap to lower bound"), std::string::npos) << run.out;
  EXPECT_NE(testing::ReadTextFile(svg).find("<svg"), std::string::npos);
}

TEST(ArenaCommand, SaysWhenTheArenaKeepsAnEarlierLargerPlan) {
  // tests/oracle control_flow/while_acc.add-mul.json, subgraph 2 (the body): arena_size 131136,
  // arena_high_water_mark 65600 (planned again by WHILE, the buffer keeps the first plan).
  const std::string model = testing::OraclePath("control_flow/while_acc.tflite");
  ToolRun text = RunTool("arena " + model + " --delegate ops=ADD,MUL --subgraph 2");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("131136   131.1 kB"), std::string::npos) << text.out;
  EXPECT_NE(
      text.out.find("last plan needs 65600 (65.6 kB): the arena keeps an earlier, larger plan"),
      std::string::npos)
      << text.out;
}

TEST(ArenaCommand, UnknownPlannerExitsTwo) {
  ToolRun run = RunTool("arena --planner best " + testing::CorpusModelPath(kPalm));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--planner: unknown planner \"best\""), std::string::npos) << run.err;
}

// Graphviz's own parser accepts the DOT the tool writes.
TEST(DotCommand, DotOnStdoutParsesWithGraphviz) {
  ToolRun run = RunTool("dot --delegate gpu " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  Agraph_t* graph = agmemread(run.out.c_str());
  ASSERT_NE(graph, nullptr) << run.out.substr(0, 500);
  EXPECT_GT(agnnodes(graph), 10);
  agclose(graph);
}

TEST(DotCommand, WritesSvgAndPngByExtension) {
  const std::string dir = testing::FreshDir("dot_files");
  ASSERT_EQ(RunTool("dot --delegate gpu -o " + dir + "/g.svg " + testing::CorpusModelPath(kPalm))
                .exit_code,
            0);
  EXPECT_NE(testing::ReadTextFile(dir + "/g.svg").find("<svg"), std::string::npos);
  ToolRun png = RunTool("dot --delegate gpu --collapse -o " + dir + "/g.png " +
                        testing::CorpusModelPath(kPalm));
  ASSERT_EQ(png.exit_code, 0) << png.err;
  EXPECT_EQ(testing::ReadTextFile(dir + "/g.png").substr(0, 8), "\x89PNG\r\n\x1a\n");
  ToolRun dot =
      RunTool("dot --delegate gpu -o " + dir + "/g.dot " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(dot.exit_code, 0);
  EXPECT_EQ(testing::ReadTextFile(dir + "/g.dot").rfind("digraph", 0), 0u);
}

// Many partitions interleaved in execution order: dot's default cluster ranking fails on them
// and Graphviz 2.42 then aborts with a double free while routing edges (regression test).
TEST(DotCommand, ManyInterleavedPartitionsRenderWithoutCrashing) {
  const std::string svg = testing::FreshDir("dot_interleaved") + "/g.svg";
  ToolRun run = RunTool("dot --delegate ops=CONV_2D,DEPTHWISE_CONV_2D,ADD -o " + svg + " " +
                        testing::CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string picture = testing::ReadTextFile(svg);
  size_t clusters = 0;
  for (size_t at = picture.find("class=\"cluster\""); at != std::string::npos;
       at = picture.find("class=\"cluster\"", at + 1)) {
    ++clusters;
  }
  EXPECT_EQ(clusters, 37u);
}

// The corpus model with the most nodes (712), convolutions delegated: many partitions, weight
// DEQUANTIZE fan-out. The collapsed PNG fits one screen (IHDR width and height, big-endian).
TEST(DotCommand, CollapsedPictureOfTheLargestModelFitsOneScreen) {
  const std::string png = testing::FreshDir("dot_largest") + "/g.png";
  ToolRun run = RunTool("dot --delegate ops=CONV_2D,DEPTHWISE_CONV_2D --collapse -o " + png + " " +
                        testing::CorpusModelPath("face_mesh__face_landmark_with_attention"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string picture = testing::ReadTextFile(png);
  ASSERT_GE(picture.size(), 24u);
  auto read = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(picture[at + i]);
    return v;
  };
  EXPECT_LE(std::max(read(16), read(20)), 2000u) << read(16) << "x" << read(20);
}

TEST(DotCommand, UnknownExtensionExitsTwo) {
  ToolRun run = RunTool("dot -o g.bmp " + testing::CorpusModelPath(kPalm));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("g.bmp"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace tfa
