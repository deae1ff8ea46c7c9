// End-to-end tests of the real tflite-analyze binary: exit codes, one-line errors, JSON output.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;
using testing::WriteTempFile;

const std::string kShortRange = "face_detection__face_detection_short_range";

TEST(Cli, InfoJsonHasTheContractFields) {
  ToolRun run = RunTool("info --json " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  const auto& sg = j.at("subgraphs").at(0);
  EXPECT_EQ(sg.at("index"), 0);
  EXPECT_EQ(sg.at("nodes"), 164);
  EXPECT_EQ(sg.at("tensors"), 250);
  EXPECT_EQ(sg.at("op_histogram").at("CONV_2D"), 21);
  EXPECT_EQ(sg.at("inputs").at(0).at("shape"), (std::vector<int>{1, 128, 128, 3}));
}

TEST(Cli, InfoTextNamesOpsAndInputs) {
  ToolRun run =
      RunTool("info " + testing::CorpusModelPath("selfie_segmentation__selfie_segmentation"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Convolution2DTransposeBias"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("input "), std::string::npos);
}

const char kHelloWorldInt8[] =
    "external/"
    "tflite-micro__tensorflow_lite_micro_examples_hello_world_models_hello_world_int8.tflite";

// Quantized inputs and outputs with scale and zero point; the metadata buffers with their sizes
// and, where it is text, their value.
TEST(Cli, InfoShowsQuantizationAndMetadataValues) {
  ToolRun run = RunTool("info " + testing::OraclePath(kHelloWorldInt8));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("q(scale 0.0244801, zp -128)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("    min_runtime_version            16 B  \"1.14.0\"\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("    CONVERSION_METADATA            88 B  (binary)"), std::string::npos)
      << run.out;
  ToolRun json = RunTool("info --json " + testing::OraclePath(kHelloWorldInt8));
  const auto j = nlohmann::json::parse(json.out);
  const auto& version = j.at("metadata_entries").at(0);
  EXPECT_EQ(version.at("name"), "min_runtime_version");
  EXPECT_EQ(version.at("bytes"), 16);
  EXPECT_EQ(version.at("text"), "1.14.0");
  EXPECT_TRUE(j.at("metadata_entries").at(1).at("text").is_null());
  const auto& quantization = j.at("subgraphs").at(0).at("inputs").at(0).at("quantization");
  EXPECT_EQ(quantization.at("zero_point"), nlohmann::json::parse("[-128]"));
  EXPECT_NEAR(quantization.at("scale").at(0).get<double>(), 0.0244801, 1e-6);
}

// info --ops: one row per node with its tensors and, for the matrix ops, its MACs. hello_world's
// three FULLY_CONNECTED layers: 1 -> 16 -> 16 -> 1 units.
TEST(Cli, InfoOpsListsEveryNodeWithItsMacs) {
  ToolRun run = RunTool("info --ops " + testing::OraclePath(kHelloWorldInt8));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("  nodes:\n   node  op"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("      1  FULLY_CONNECTED                     256  "), std::string::npos)
      << run.out;
  ToolRun json = RunTool("info --ops --json " + testing::OraclePath(kHelloWorldInt8));
  const auto table = nlohmann::json::parse(json.out).at("subgraphs").at(0).at("node_table");
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table.at(0).at("op"), "FULLY_CONNECTED");
  EXPECT_EQ(table.at(0).at("macs"), 16);
  EXPECT_EQ(table.at(1).at("macs"), 16 * 16);
  EXPECT_EQ(table.at(1).at("outputs").at(0).at("shape"), (std::vector<int>{1, 16}));
  // Without --ops, no table.
  ToolRun plain = RunTool("info --json " + testing::OraclePath(kHelloWorldInt8));
  EXPECT_FALSE(nlohmann::json::parse(plain.out).at("subgraphs").at(0).contains("node_table"));
}

TEST(Cli, ConvertWritesGraphJsonThatLoadsAgain) {
  const std::string out = testing::ProcessTempPath("converted.json");
  ToolRun run = RunTool("convert " + testing::CorpusModelPath(kShortRange) + " -o " + out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ToolRun again = RunTool("info --json " + out);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out).at("subgraphs").at(0).at("nodes"), 164);
}

TEST(Cli, ReportJsonFollowsTheContract) {
  ToolRun run = RunTool("report --json " + testing::CorpusModelPath(kShortRange));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_TRUE(j.contains("model"));
  ASSERT_TRUE(j.contains("tool_version"));
  const auto& sg = j.at("subgraphs").at(0);
  EXPECT_TRUE(sg.contains("partitions"));
  EXPECT_TRUE(sg.contains("delegated_partition_count"));
  EXPECT_TRUE(sg.contains("copy"));
}

TEST(Cli, ReportJsonShowsEverySubgraphAfterOneInvokeForControlFlow) {
  ToolRun run = RunTool("report --json " + testing::OraclePath("control_flow/while_acc.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("invoke").at("determined"), true);
  EXPECT_TRUE(j.at("invoke").at("facts_used").empty()) << "a static loop needs no iteration count";
  // Upstream's figures (tests/oracle/control_flow/while_acc.none.json, subgraphs_after_invoke).
  const std::vector<std::vector<uint64_t>> expected = {{196612, 196612}, {0, 65}, {0, 131136}};
  for (size_t s = 0; s < expected.size(); ++s) {
    const auto& after = j.at("subgraphs").at(s).at("after_invoke");
    EXPECT_EQ(after.at("planned"), true);
    EXPECT_EQ(after.at("invoked"), true);
    EXPECT_EQ(after.at("released"), s != 0);
    EXPECT_EQ(after.at("arena_size"), expected[s][0]);
    EXPECT_EQ(after.at("arena_high_water_mark"), expected[s][1]);
    EXPECT_EQ(after.at("persistent_size"), 0);
    EXPECT_EQ(after.at("persistent_high_water_mark"), 0);
    EXPECT_TRUE(after.at("allocs").is_array());
  }
  ToolRun text = RunTool("report " + testing::OraclePath("control_flow/while_acc.tflite"));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // The text report shows subgraph 0 unless asked for more.
  EXPECT_NE(
      text.out.find("after one Invoke: ran; arena 196.6 kB (last plan 196.6 kB), persistent 0 B"),
      std::string::npos)
      << text.out;
}

TEST(Cli, ReportSaysWhichInputDependentFactAnInvokeNeeds) {
  ToolRun run = RunTool("report --json " + testing::OraclePath("control_flow/if_branches.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("invoke").at("determined"), false);
  EXPECT_EQ(j.at("invoke").at("undetermined"),
            "IF node 1 of subgraph 0: its condition's value (input-dependent)");
  EXPECT_FALSE(j.at("subgraphs").at(0).contains("after_invoke"));
  ToolRun plain = RunTool("report --json " + testing::CorpusModelPath(kShortRange));
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("invoke"))
      << "one subgraph: nothing to add";
}

struct BadInput {
  const char* name;
  std::string bytes;
  const char* message;
};

class CliBadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInputTest, ExitsTwoWithOneLineNamingTheFile) {
  const std::string path = WriteTempFile(GetParam().name, GetParam().bytes);
  const std::string no_baseline = testing::ProcessTempPath("never_written_baseline.json");
  for (const std::string& command :
       {"info " + path, "report " + path, "convert " + path, "arena " + path, "dot " + path,
        "diff " + path + " " + path,
        "gate " + path + " --baseline " + no_baseline + " --update-baseline"}) {
    ToolRun run = RunTool(command);
    EXPECT_EQ(run.exit_code, 2) << command << ": " << run.err;
    EXPECT_EQ(run.out, "") << command;
    ASSERT_FALSE(run.err.empty());
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "not one line: " << run.err;
    EXPECT_NE(run.err.find(path), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(GetParam().message), std::string::npos) << run.err;
  }
}

std::string TruncatedCorpusModel() {
  std::string bytes = testing::ReadTextFile(testing::CorpusModelPath(kShortRange));
  return bytes.substr(0, bytes.size() / 3);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliBadInputTest,
    ::testing::Values(
        BadInput{"empty.tflite", "", "too short"},
        BadInput{"wrong_id.tflite", std::string("\x10\0\0\0ABCDxxxxxxxxxxxxxxxx", 24), "\"ABCD\""},
        BadInput{"truncated.tflite", TruncatedCorpusModel(), "verification failed"},
        BadInput{"bad.json", "{\"format\":\"tflite-analyze-graph/1\",\"tensors\":[]}", "nodes"}),
    [](const auto& info) {
      std::string name = info.param.name;
      for (char& c : name) {
        if (c == '.') c = '_';
      }
      return name;
    });

TEST(Cli, MissingFileExitsTwo) {
  ToolRun run = RunTool("info /nonexistent.tflite");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("/nonexistent.tflite: cannot open file"), std::string::npos) << run.err;
}

TEST(Cli, DirectoryAsAnInputFileIsRefused) {
  const std::string dir = testing::ProcessTempPath("a_directory");
  std::filesystem::create_directories(dir);
  const std::string model = testing::CorpusModelPath(kShortRange);
  for (const std::string& command :
       {"info " + dir, "report " + dir, "arena " + dir, "dot " + dir, "convert " + dir,
        "run " + dir, "diff " + dir + " " + model, "report " + model + " --delegate " + dir,
        "gate " + model + " --baseline " + dir}) {
    ToolRun run = RunTool(command);
    EXPECT_EQ(run.exit_code, 2) << command;
    EXPECT_EQ(run.err, "tflite-analyze: error: " + dir + ": is a directory\n") << command;
  }
}

// Every usage error is one line with the prefix every other error has, and exit code 2.
void ExpectUsageError(const std::string& command, const std::string& message) {
  ToolRun run = RunTool(command);
  EXPECT_EQ(run.exit_code, 2) << command;
  EXPECT_EQ(run.out, "") << command;
  EXPECT_TRUE(run.err.starts_with("tflite-analyze: error: ")) << command << ": " << run.err;
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << command << ": not one line: " << run.err;
  EXPECT_NE(run.err.find(message), std::string::npos) << command << ": " << run.err;
}

TEST(Cli, UsageErrorExitsTwo) {
  ExpectUsageError("info", "model is required");
  ExpectUsageError("", "A subcommand is required");
  ExpectUsageError("report --no-such-flag x.tflite", "--no-such-flag");
  ExpectUsageError("gate x.tflite", "--baseline is required");
  ExpectUsageError("report x.tflite --format yaml", "--format");
}

TEST(Cli, UnknownCommandIsNamedWithTheCommands) {
  ExpectUsageError("bogus",
                   "unknown command 'bogus'; commands: info convert report arena dot gate diff run "
                   "devices");
  ExpectUsageError("reprot x.tflite", "unknown command 'reprot' (did you mean report?); commands:");
}

TEST(Cli, NumericFlagsTakeOnlyNumbersInRange) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  const std::pair<std::string, std::string> cases[] = {
      {"run " + model + " --tolerance -1", "--tolerance: expected a number >= 0, got \"-1\""},
      {"run " + model + " --tolerance nan", "--tolerance: expected a number >= 0, got \"nan\""},
      {"run " + model + " --input-seed -5",
       "--input-seed: expected an integer from 0 to 18446744073709551615, got \"-5\""},
      {"run " + model + " --input-seed 18446744073709551616",
       "--input-seed: expected an integer from 0 to 18446744073709551615, got "
       "\"18446744073709551616\""},
      {"run " + model + " --memory-limit -1G", "--memory-limit: expected a byte count"},
      {"report " + model + " --delegate gpu --max-partitions 2147483648",
       "--max-partitions: expected an integer from -2147483648 to 2147483647"},
      {"arena " + model + " --delegate gpu --min-nodes-per-partition -1",
       "--min-nodes-per-partition: expected an integer from 0 to 2147483647, got \"-1\""},
      {"gate " + model + " --baseline " + testing::ProcessTempPath("b.json") +
           " --max-delegated-partitions -1",
       "--max-delegated-partitions: expected an integer from 0 to 18446744073709551615"},
      {"gate " + model + " --baseline " + testing::ProcessTempPath("b.json") +
           " --max-arena-growth -2%",
       "--max-arena-growth: expected a percentage"},
      {"report " + model + " --subgraph +0", "--subgraph: expected an index or \"all\""},
      {"dot " + model + " --subgraph 0x1", "--subgraph: expected an integer from 0 to 2147483647"},
      {"convert " + model + " --subgraph -1",
       "--subgraph: expected an integer from 0 to 2147483647, got \"-1\""},
      {"report " + model + " --while-iterations 0:1=-3", "--while-iterations"},
  };
  for (const auto& [command, message] : cases) ExpectUsageError(command, message);
}

TEST(Cli, UnknownOpNamesAreRefusedEverywhereWithASuggestion) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  const std::string message =
      "tflite-analyze: error: --delegate ops=CONV2D: unknown op 'CONV2D', "
      "neither a builtin op nor an op of " +
      model + " (did you mean CONV_2D?)\n";
  for (const std::string& command :
       {"report " + model, "arena " + model, "dot " + model, "run " + model,
        "diff " + model + " " + model,
        "gate " + model + " --baseline " + testing::ProcessTempPath("b.json") +
            " --update-baseline"}) {
    ToolRun run = RunTool(command + " --delegate ops=CONV2D");
    EXPECT_EQ(run.exit_code, 2) << command;
    EXPECT_EQ(run.err, message) << command;
  }
  const std::string profile = WriteTempFile(
      "typo_profile.json",
      R"({"format": "tflite-analyze-profile/1", "name": "typo", "ops": [{"op": "CONV2D"}]})");
  ToolRun run = RunTool("report " + model + " --delegate " + profile);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown builtin op 'CONV2D' (did you mean CONV_2D?)"), std::string::npos)
      << run.err;
}

TEST(Cli, HelpShowsAnExample) {
  for (const char* command : {"info", "convert", "report", "arena", "dot", "gate", "diff"}) {
    ToolRun run = RunTool(std::string(command) + " --help");
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_NE(run.out.find("Example"), std::string::npos) << command;
  }
}

}  // namespace
}  // namespace tfa
