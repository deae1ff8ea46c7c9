// End-to-end tests of the Flex delegate and Edge TPU models (docs/accelerators.md): the real
// multi_add_flex model of upstream's test data, and the generated Edge TPU classifier and its
// uncompiled twin.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/synthetic_models.h"
#include "corpus/generator/tflite_writer.h"
#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

std::string MultiAddFlex() {
  return testing::OraclePath("external/LiteRT__tflite_testdata_multi_add_flex.tflite");
}

// The synthetic model `name` written as DIR/name.tflite.
std::string WriteSynthetic(const std::string& dir, const std::string& name) {
  auto built = BuildSyntheticModel(name);
  EXPECT_TRUE(built.ok()) << built.status().message();
  const std::vector<uint8_t> bytes = WriteTflite(built->model, built->data);
  const std::string path = dir + "/" + name + ".tflite";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

size_t Lines(const std::string& text) {
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

TEST(AcceleratorCommand, AFlexModelWithoutTheFlexDelegateFailsAllocateTensorsUpstream) {
  ToolRun text = RunTool("report " + MultiAddFlex());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\nupstream: AllocateTensors returns kTfLiteUnresolvedOps: 3 Select "
                          "TensorFlow op(s) without the Flex delegate: FlexAddV2 (subgraph 0 node "
                          "0)"),
            std::string::npos)
      << text.out;
  // It still shows what it can: the plan and the arena with the ops resolved.
  EXPECT_NE(text.out.find("arena size                 388"), std::string::npos) << text.out;

  ToolRun json = RunTool("report --json " + MultiAddFlex());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("allocate_tensors").at("status"), "unresolved_ops");
  EXPECT_EQ(j.at("subgraphs").at(0).at("unresolved_ops"),
            nlohmann::json::parse(R"([{"node":0,"op":"FlexAddV2"},{"node":1,"op":"FlexAddV2"},
                                      {"node":2,"op":"FlexAddV2"}])"));
}

TEST(AcceleratorCommand, TheFlexDelegateIsAppliedFirstAndResolvesEveryFlexOp) {
  ToolRun json = RunTool("report --json " + MultiAddFlex() + " --delegate xnnpack --delegate flex");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("delegates"), nlohmann::json::parse(R"(["flex","xnnpack"])"));
  EXPECT_EQ(j.at("delegation_notes").size(), 1u);
  EXPECT_FALSE(j.contains("allocate_tensors"));
  const auto& partitions = j.at("subgraphs").at(0).at("partitions");
  ASSERT_EQ(partitions.size(), 1u);
  EXPECT_EQ(partitions.at(0).at("delegate"), "flex");
  EXPECT_EQ(partitions.at(0).at("nodes"), nlohmann::json::parse("[0,1,2]"));
}

TEST(AcceleratorCommand, RunRefusesFlexOpsInOneLine) {
  for (const std::string flags : {"", " --delegate flex"}) {
    ToolRun run = RunTool("run " + MultiAddFlex() + flags);
    EXPECT_EQ(run.exit_code, 2) << flags;
    EXPECT_EQ(Lines(run.err), 1u) << run.err;
    EXPECT_NE(run.err.find("3 Select TensorFlow op(s) (first: FlexAddV2, subgraph 0 node 0); they "
                           "need TensorFlow's kernels"),
              std::string::npos)
        << run.err;
  }
}

// InterpreterBuilder applies no Flex delegate to a model without Flex ops: it runs as without it.
TEST(AcceleratorCommand, RunWithTheFlexDelegateOnAModelWithoutFlexOpsRunsWithoutIt) {
  ToolRun run =
      RunTool("run " + testing::OraclePath("external/LiteRT__tflite_testdata_multi_add.tflite") +
              " --delegate flex");
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST(AcceleratorCommand, AnUnknownDelegateNameIsOneLine) {
  ToolRun run = RunTool("report " + MultiAddFlex() + " --delegate flexx");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(Lines(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("not one of add-sub, flex, gpu"), std::string::npos) << run.err;
}

TEST(AcceleratorCommand, AnEdgeTpuModelReportsItsSegmentAndTheCpuRemainder) {
  const std::string dir = testing::FreshDir("edgetpu_report");
  const std::string compiled = WriteSynthetic(dir, "edgetpu_classifier_edgetpu");
  ToolRun text = RunTool("report " + compiled);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  accelerator edgetpu: node 1 edgetpu-custom-op, program 6.1 kB (its "
                          "custom options); per inference 768 B in, 5 B out\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  CPU remainder: 2 nodes (DEQUANTIZE, QUANTIZE)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  unknown: the chip's own parameter caching"), std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("Prepare not modelled"), std::string::npos) << text.out;
  // The chip's transfers are copies, wherever copies are counted.
  EXPECT_NE(text.out.find("  copies per inference: 768 B to delegates and accelerators, 5 B back, "
                          "2 transitions; 0 B uploaded once (accelerators: 768 B in, 5 B out)\n"),
            std::string::npos)
      << text.out;
  ToolRun json = RunTool("report --json " + compiled);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out).at("subgraphs").at(0).at("copy"),
            nlohmann::json::parse(R"({"bytes_to_delegate":768,"bytes_from_delegate":5,
              "transitions":2,"init_upload_bytes":0,"accelerator_bytes_in":768,
              "accelerator_bytes_out":5})"));
}

TEST(AcceleratorCommand, DiffShowsWhatMovedToTheEdgeTpu) {
  const std::string dir = testing::FreshDir("edgetpu_diff");
  const std::string plain = WriteSynthetic(dir, "edgetpu_classifier");
  const std::string compiled = WriteSynthetic(dir, "edgetpu_classifier_edgetpu");
  ToolRun text = RunTool("diff " + plain + " " + compiled);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("moved to edgetpu: 7 nodes (AVERAGE_POOL_2D, CONV_2D x2, "
                          "DEPTHWISE_CONV_2D, FULLY_CONNECTED, RESHAPE, SOFTMAX) replaced by node "
                          "1 edgetpu-custom-op"),
            std::string::npos)
      << text.out;

  ToolRun json = RunTool("diff --json " + plain + " " + compiled);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto moved = nlohmann::json::parse(json.out).at("moved_to_accelerator");
  EXPECT_EQ(moved.at("nodes"), 7);
  EXPECT_EQ(moved.at("cpu_nodes_after"), 2);
  EXPECT_EQ(moved.at("segments").at(0).at("program_bytes"), 6144);
  EXPECT_EQ(moved.at("ops").at(1), nlohmann::json::parse(R"({"op":"CONV_2D","nodes":2})"));
  const auto copies = nlohmann::json::parse(json.out).at("figures").at("bytes/inference");
  EXPECT_EQ(copies.at("before"), 0);
  EXPECT_EQ(copies.at("after"), 768 + 5);
}

// gate holds the chip's transfers as it holds a delegate's copies.
TEST(AcceleratorCommand, GateSeesTheEdgeTpusTransfers) {
  const std::string dir = testing::FreshDir("edgetpu_gate");
  const std::string compiled = WriteSynthetic(dir, "edgetpu_classifier_edgetpu");
  const std::string baseline = dir + "/baseline.json";
  ToolRun update = RunTool("gate " + compiled + " --baseline " + baseline + " --update-baseline");
  ASSERT_EQ(update.exit_code, 0) << update.err;
  EXPECT_NE(testing::ReadTextFile(baseline).find("\"copy_bytes\": 773"), std::string::npos)
      << testing::ReadTextFile(baseline);
}

}  // namespace
}  // namespace tfa
