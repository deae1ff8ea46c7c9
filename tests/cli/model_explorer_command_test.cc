// `report --model-explorer DIR` and `report --trace FILE` end to end: the files the real binary
// writes for a corpus model, and the one-line errors (exit code 2) for what it cannot do.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

constexpr const char* kPalm = "hands__palm_detection_lite";

TEST(ModelExplorerCommand, WritesTheOverlaysAndTheTrace) {
  const std::string dir = testing::FreshDir("me_command") + "/overlays";
  const std::string trace = testing::ProcessTempPath("me_command") + "/memory.json";
  const ToolRun run = RunTool("report " + testing::CorpusModelPath(kPalm) +
                              " --delegate gpu --model-explorer " + dir + " --trace " + trace);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* file : {"delegate.json", "copy_bytes.json", "arena_offset.json",
                           "arena_size.json", "live_arena.json"}) {
    const nlohmann::json overlay = testing::ReadJsonFile(dir + "/" + file);
    ASSERT_TRUE(overlay.contains("main")) << file;
    EXPECT_FALSE(overlay["main"]["results"].empty()) << file;
  }
  const nlohmann::json memory = testing::ReadJsonFile(trace);
  EXPECT_FALSE(memory.at("traceEvents").empty());
}

TEST(ModelExplorerCommand, UnwritableDirectoryIsOneLineAndExitCode2) {
  const std::string file = testing::WriteTempFile("me_command_file", "x");
  const ToolRun run =
      RunTool("report " + testing::CorpusModelPath(kPalm) + " --model-explorer " + file);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(file), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

TEST(ModelExplorerCommand, OneModelOnlyAndNotForTflm) {
  const std::string model = testing::CorpusModelPath(kPalm);
  EXPECT_EQ(RunTool("report " + model + " " + model + " --model-explorer out").exit_code, 2);
  EXPECT_EQ(RunTool("report " + model + " " + model + " --trace out.json").exit_code, 2);
  const ToolRun tflm = RunTool("report " + model + " --target tflm --trace out.json");
  EXPECT_EQ(tflm.exit_code, 2);
  EXPECT_NE(tflm.err.find("--target tflm"), std::string::npos) << tflm.err;
}

}  // namespace
}  // namespace tfa
