// End-to-end tests of `tflite-analyze report` beyond one model's JSON (cli_test.cc): several
// models at once, --subgraph, --format markdown, --html, --advise, and the facts of one Invoke
// (--if-condition, --while-iterations, --run-shape).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::ToolRun;

const std::string kShortRange = "face_detection__face_detection_short_range";
const std::string kPalm = "hands__palm_detection_lite";

// --max-partitions N <= 0: the GPU delegate takes it as 1 and the report says so; a delegate that
// only keeps the N largest partitions would keep none, so it is refused.
TEST(ReportCommand, MaxPartitionsBelowOneSaysWhatItMeansOrIsRefused) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  ToolRun gpu = RunTool("report --json --delegate gpu --max-partitions -1 " + model);
  ASSERT_EQ(gpu.exit_code, 0) << gpu.err;
  const auto j = nlohmann::json::parse(gpu.out);
  EXPECT_EQ(j.at("subgraphs").at(0).at("delegated_partition_count"), 1);
  EXPECT_EQ(j.at("delegation_notes"),
            nlohmann::json({"gpu: max_delegated_partitions -1 is taken as 1, as upstream's "
                            "delegate turns N <= 0 into 1"}));
  ToolRun ops = RunTool("report --delegate ops=ADD --max-partitions 0 " + model);
  EXPECT_EQ(ops.exit_code, 2);
  EXPECT_NE(ops.err.find("--max-partitions 0 for ops=ADD: it keeps the N largest partitions, so N "
                         "must be at least 1"),
            std::string::npos)
      << ops.err;
}

// Upstream's GPU delegate supports static-sized tensors only: on a model whose Prepare leaves a
// tensor dynamic, ModifyGraphWithDelegate refuses it before it sees a node (the oracle's
// modify_graph_status 3, kTfLiteApplicationError). Every rendering leads with that, in upstream's
// words, and the nodes left on the CPU say why.
TEST(ReportCommand, ADelegateRefusedForDynamicTensorsIsTheHeadline) {
  const std::string model =
      testing::OraclePath("external/LiteRT__tflite_testdata_dynamic_shapes.tflite");
  const std::string warning =
      "Attempting to use a delegate that only supports static-sized tensors with a graph that "
      "has dynamic-sized tensors (tensor#25 is a dynamic-sized tensor).";
  ToolRun text = RunTool("report --delegate gpu " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string headline =
      "delegate gpu refused by the interpreter for subgraph 0: \"" + warning + "\"";
  EXPECT_EQ(text.out.find(headline), text.out.find('\n') + 1) << text.out;
  EXPECT_NE(text.out.find("the interpreter refused the delegate (dynamic-sized tensors)"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("supported, but its partition was not kept"), std::string::npos);

  ToolRun json = RunTool("report --json --delegate gpu " + model);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(
      nlohmann::json::parse(json.out).at("delegate_refusals"),
      nlohmann::json::parse(R"([{"delegate":"gpu","subgraph":0,"dynamic_tensor":25,"reason":")" +
                            warning + "\"}]"));

  ToolRun markdown = RunTool("report --format markdown --delegate gpu " + model);
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_NE(markdown.out.find("> **" + headline), std::string::npos) << markdown.out;

  const std::string html = testing::FreshDir("refused_gpu_html") + "/report.html";
  ToolRun page = RunTool("report --delegate gpu --html " + html + " " + model);
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_NE(testing::ReadTextFile(html).find("<p class=\"headline\">delegate gpu refused by the "
                                             "interpreter for subgraph 0: &quot;Attempting"),
            std::string::npos);
}

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
  for (const std::string& name : names) {
    models += ' ';
    models += testing::CorpusModelPath(name);
  }
  ToolRun run = RunTool("report --delegate xnnpack" + models);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const size_t table = run.out.find("model");
  const size_t header = run.out.rfind(
      "nodes  partitions  delegated  bytes/inference  uploaded once       arena"
      "  persistent");
  ASSERT_NE(header, std::string::npos) << run.out;
  EXPECT_NE(table, std::string::npos);
  const std::string summary = run.out.substr(run.out.rfind('\n', header) + 1);
  for (const std::string& name : names)
    EXPECT_NE(summary.find(name + ".tflite"), std::string::npos) << name;
  // Not a terminal: no colour codes, no progress bar.
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(run.err, "");
}

// A model that cannot be read does not cost the others their report: each one that failed is
// named on stderr (one line each) and the exit code is 2, after the reports and the summary.
TEST(ReportCommand, AnUnreadableModelIsNamedAndTheOthersAreReported) {
  const std::string dir = testing::FreshDir("report_unreadable");
  const std::string a = testing::WriteFile(dir + "/a.json", testing::ChainGraphJson(8192));
  const std::string broken = testing::WriteFile(dir + "/broken.tflite", "not a model at all");
  const std::string missing = dir + "/missing.tflite";
  ToolRun run = RunTool("report --delegate ops=ADD " + a + " " + broken + " " + missing);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.out.find(a + "  (delegates: ops=ADD"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("a.json"), run.out.rfind("a.json")) << "no summary row: " << run.out;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 2) << run.err;
  EXPECT_NE(run.err.find("tflite-analyze: error: " + broken + ": "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("tflite-analyze: error: " + missing + ": cannot open file"),
            std::string::npos)
      << run.err;
  ToolRun json = RunTool("report --json " + a + " " + missing);
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(json.out).at("reports").size(), 1u);
}

// XNNPACK names the node in its reasons ("... in node #192"); the report names it already, so the
// same reason on several nodes is one group, with the nodes as ranges in numeric order.
TEST(ReportCommand, IdenticalReasonsGroupWithTheirNodesAsRanges) {
  ToolRun run = RunTool("report --delegate xnnpack " +
                        testing::CorpusModelPath("face_mesh__face_landmark_with_attention"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("5 x TransformLandmarks: unsupported custom operator type "
                         "\"TransformLandmarks\"  (#701..705)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("3 x Landmarks2TransformMatrix: unsupported custom operator type "
                         "\"Landmarks2TransformMatrix\"  (#192..194)"),
            std::string::npos)
      << run.out;
}

TEST(ReportCommand, SummaryRowHasTheModelsFigures) {
  const std::string dir = testing::FreshDir("report_summary");
  const std::string a = testing::WriteFile(dir + "/a.json", testing::ChainGraphJson(8192));
  const std::string b = testing::WriteFile(dir + "/b.json", testing::ChainGraphJson(16384));
  ToolRun run = RunTool("report --delegate ops=ADD " + a + " " + b);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(
      run.out.find(
          "\na.json       3           3          2          20.5 kB            0 B     16.4 kB"
          "         0 B\n"),
      std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find(
          "\nb.json       3           3          2          28.7 kB            0 B     24.6 kB"
          "         0 B\n"),
      std::string::npos);
  // Two models with the same file name are told apart by their paths.
  const std::string again = testing::WriteFile(dir + "/v2/a.json", testing::ChainGraphJson(16384));
  run = RunTool("report " + a + " " + again);
  EXPECT_NE(run.out.find("\n" + again + "       3"), std::string::npos) << run.out;
}

TEST(ReportCommand, SeveralModelsAsCsvOrSummaryOnly) {
  const std::string dir = testing::FreshDir("report_csv");
  const std::string a = testing::WriteFile(dir + "/a.json", testing::ChainGraphJson(8192));
  const std::string b = testing::WriteFile(dir + "/b,v2.json", testing::ChainGraphJson(16384));
  // The chain's figures (tests/cli/cli_fixtures.h): ADD, MUL, ADD; ops=ADD copies input and mid
  // in and out, plus wide in and out of the last ADD.
  ToolRun csv = RunTool("report --delegate ops=ADD --format csv " + a + " '" + b + "'");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "model,nodes,partitions,delegated_partitions,bytes_per_inference,uploaded_once_bytes,"
            "arena_bytes,persistent_bytes,delegate_bytes,delegate_bytes_basis\n" +
                a + ",3,3,2,20480,0,16384,0,0,predicted\n\"" + b +
                "\",3,3,2,28672,0,24576,0,0,predicted\n");
  ToolRun summary = RunTool("report --delegate ops=ADD --summary " + a + " '" + b + "'");
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_EQ(summary.out.find("model "), 0u) << summary.out;
  EXPECT_EQ(summary.out.find("subgraph 0"), std::string::npos) << summary.out;
  EXPECT_NE(summary.out.find("uploaded once"), std::string::npos) << summary.out;
  EXPECT_EQ(RunTool("report --summary --json " + a).exit_code, 2);
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

TEST(ReportCommand, BadDelegateOptionsAreOneLineAndExitTwo) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  const struct {
    const char* flags;
    const char* line;
  } cases[] = {
      {"--delegate gpu --delegate-option precision=fp16",
       "tflite-analyze: error: delegate gpu: unknown option 'precision' (options: "
       "allow_quant_ops, is_precision_loss_allowed, opencl_available)\n"},
      {"--delegate nnapi --delegate-option android_sdk_version=99",
       "tflite-analyze: error: delegate nnapi: option android_sdk_version expects an integer in "
       "[27, 35], got '99'\n"},
      {"--delegate xnnpack --delegate-option qs8=maybe",
       "tflite-analyze: error: delegate xnnpack: option qs8 expects true or false, got "
       "'maybe'\n"},
  };
  for (const auto& c : cases) {
    ToolRun run = RunTool(std::string("report ") + c.flags + " " + model);
    EXPECT_EQ(run.exit_code, 2) << c.flags;
    EXPECT_EQ(run.err, c.line) << c.flags;
  }
}

TEST(ReportCommand, TrustLabelInEveryFormat) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  ToolRun text = RunTool("report --delegate gpu --delegate nnapi " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(delegates: gpu [verified] nnapi [transcribed])"), std::string::npos)
      << text.out;
  ToolRun json = RunTool("report --json --delegate xnnpack " + model);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out).at("delegate_profiles"),
            nlohmann::json::parse(R"([{"name": "xnnpack", "trust": "verified"}])"));
  ToolRun markdown = RunTool("report --format markdown --delegate ops=ADD " + model);
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_NE(markdown.out.find("Delegates, in order: ops=ADD (user)"), std::string::npos)
      << markdown.out;
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

TEST(ReportCommand, HtmlCarriesTheAdviceToo) {
  const std::string html = testing::FreshDir("report_html_advice") + "/palm.html";
  ToolRun run = RunTool("report --delegate gpu --advise --html " + html + " " +
                        testing::CorpusModelPath(kPalm));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string page = testing::ReadTextFile(html);
  EXPECT_NE(page.find("<h3>Delegation advice for gpu</h3>\n<pre class=\"advice\">Delegation "
                      "advice for gpu (profile keeps its largest partition)"),
            std::string::npos);
  EXPECT_NE(page.find("Outcome of --max-partitions N:"), std::string::npos);
}

// The CPU count comes from the final partitions: with delegates applied in turn a node the first
// rejects may be taken by the second, and --max-partitions leaves supported nodes on the CPU.
void ExpectCpuCountFromPartitions(const std::string& args) {
  SCOPED_TRACE(args);
  ToolRun json = RunTool("report --json " + args);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  size_t on_cpu = 0;
  std::set<int> cpu_nodes;
  const auto report = nlohmann::json::parse(json.out);
  for (const auto& p : report.at("subgraphs").at(0).at("partitions")) {
    if (p.at("kind") != "cpu") continue;
    on_cpu += p.at("nodes").size();
    for (int n : p.at("nodes")) cpu_nodes.insert(n);
  }
  ToolRun text = RunTool("report --verbose " + args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  if (on_cpu == 0) {
    EXPECT_EQ(text.out.find("left on the CPU"), std::string::npos) << text.out;
    return;
  }
  const std::string sentence = std::string(" ").append(std::to_string(on_cpu)).append(" node") +
                               (on_cpu == 1 ? "" : "s") + " left on the CPU:\n";
  EXPECT_NE(text.out.find(sentence), std::string::npos) << text.out;
  // --verbose: one line "OP #N: reason" per CPU node, and none for a delegated node.
  std::istringstream lines(text.out.substr(text.out.find(" left on the CPU:\n")));
  std::string line;
  std::getline(lines, line);
  size_t listed = 0;
  while (std::getline(lines, line) && line.starts_with("    ") &&
         line.find(" #") != std::string::npos) {
    const int node = std::stoi(line.substr(line.find(" #") + 2));
    EXPECT_TRUE(cpu_nodes.count(node)) << "node " << node << " is delegated: " << line;
    ++listed;
  }
  EXPECT_EQ(listed, on_cpu);
}

TEST(ReportCommand, NodesLeftOnTheCpuAreThoseOfTheCpuPartitions) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  ExpectCpuCountFromPartitions(model + " --delegate add-sub --delegate gpu");
  ExpectCpuCountFromPartitions(model + " --delegate ops=CONV_2D --delegate xnnpack");
  ExpectCpuCountFromPartitions(model +
                               " --delegate ops=CONV_2D,DEPTHWISE_CONV_2D,ADD --max-partitions 2");
  ExpectCpuCountFromPartitions(testing::CorpusModelPath("face_mesh__face_landmark_with_attention") +
                               " --delegate gpu");
  // Upstream's figure (tests/oracle models/face_mesh__face_landmark_with_attention.gpu.json,
  // summary.cpu_nodes): the GPU delegate keeps one partition of 232 nodes, 480 stay on the CPU.
  ToolRun text = RunTool("report --delegate gpu " +
                         testing::CorpusModelPath("face_mesh__face_landmark_with_attention"));
  EXPECT_NE(text.out.find("  480 nodes left on the CPU, by op and reason"), std::string::npos)
      << text.out;
}

TEST(ReportCommand, NodesLeftOnTheCpuAreGroupedUnlessVerbose) {
  const std::string model = testing::CorpusModelPath(kShortRange);
  ToolRun grouped = RunTool("report --delegate ops=CONV_2D " + model);
  ASSERT_EQ(grouped.exit_code, 0) << grouped.err;
  // tests/oracle models/face_detection__face_detection_short_range.none.json: 74 DEQUANTIZE
  // nodes (the op histogram of the model), all rejected for the same reason.
  EXPECT_NE(grouped.out.find("      74 x DEQUANTIZE: op not listed in ops=CONV_2D  (#"),
            std::string::npos)
      << grouped.out;
  ToolRun verbose = RunTool("report --verbose --delegate ops=CONV_2D " + model);
  ASSERT_EQ(verbose.exit_code, 0) << verbose.err;
  EXPECT_LT(grouped.out.size() + 3000, verbose.out.size());
  EXPECT_NE(verbose.out.find("    DEQUANTIZE #0: op not listed in ops=CONV_2D\n"),
            std::string::npos)
      << verbose.out.substr(0, 2000);
}

// Upstream's after-Invoke figures (tests/oracle/control_flow/MODEL.none.json, seed 1) against the
// report's, subgraph by subgraph.
void ExpectAfterInvokeAsUpstream(const nlohmann::json& report, const std::string& model) {
  const auto oracle =
      testing::ReadJsonFile(testing::OraclePath("control_flow/" + model + ".none.json"));
  for (const auto& expected : oracle.at("subgraphs_after_invoke")) {
    const int index = expected.at("index");
    SCOPED_TRACE(model + " subgraph " + std::to_string(index));
    const auto& after = report.at("subgraphs").at(index).at("after_invoke");
    EXPECT_EQ(after.at("arena_size"), expected.at("arena_size"));
    EXPECT_EQ(after.at("arena_high_water_mark"), expected.at("arena_high_water_mark"));
    EXPECT_EQ(after.at("persistent_size"), expected.at("arena_persist_size"));
    EXPECT_EQ(after.at("persistent_high_water_mark"), expected.at("arena_persist_high_water_mark"));
  }
}

TEST(ReportCommand, IfConditionFalseRunsTheElseBranchAsUpstreamDid) {
  const std::string model = testing::OraclePath("control_flow/if_branches.tflite");
  ToolRun run = RunTool("report --json --if-condition 0:1=false " + model);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("invoke").at("determined"), true);
  EXPECT_EQ(j.at("invoke").at("facts_used"),
            nlohmann::json::array({"IF node 1 of subgraph 0: runs its else branch, subgraph 2 "
                                   "(given)"}));
  ExpectAfterInvokeAsUpstream(j, "if_branches");
  // The else branch, re-planned once its outputs alias the IF's, then released.
  const auto& else_branch = j.at("subgraphs").at(2).at("after_invoke");
  EXPECT_EQ(else_branch.at("invoked"), true);
  EXPECT_EQ(else_branch.at("released"), true);
  EXPECT_EQ(else_branch.at("arena_size"), 0);
  EXPECT_EQ(else_branch.at("arena_high_water_mark"), 262144);
  EXPECT_EQ(j.at("subgraphs").at(1).at("after_invoke").at("invoked"), false);

  ToolRun text = RunTool("report --if-condition 0:1=false " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("invoke fact: IF node 1 of subgraph 0: runs its else branch, subgraph 2 "
                          "(given)\n"),
            std::string::npos)
      << text.out;
}

TEST(ReportCommand, IfConditionTrueRunsTheThenBranch) {
  ToolRun run = RunTool("report --json --if-condition 0:1=true " +
                        testing::OraclePath("control_flow/if_branches.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("invoke").at("determined"), true);
  const auto& then_branch = j.at("subgraphs").at(1).at("after_invoke");
  EXPECT_EQ(then_branch.at("invoked"), true);
  EXPECT_EQ(then_branch.at("released"), true);
  EXPECT_EQ(then_branch.at("arena_size"), 0);
  // Like the else branch, re-planned without its 262,144-byte output: 786,432 -> 524,288.
  EXPECT_EQ(then_branch.at("arena_high_water_mark"), 524288);
  const auto& else_branch = j.at("subgraphs").at(2).at("after_invoke");
  EXPECT_EQ(else_branch.at("invoked"), false);
  EXPECT_EQ(else_branch.at("released"), false);
  EXPECT_EQ(else_branch.at("arena_size"), 393216) << "a branch that never ran keeps its plan";
}

TEST(ReportCommand, WhileIterationsAndRunShapesReplayADynamicLoopAsUpstreamDid) {
  // while_dynamic's body ran 30 times with seed 1; the shapes the run changed come from the oracle.
  const auto oracle =
      testing::ReadJsonFile(testing::OraclePath("control_flow/while_dynamic.none.json"));
  std::string flags = " --while-iterations 0:0=30";
  for (const auto& sg : oracle.at("subgraphs_after_invoke")) {
    const int index = sg.at("index");
    const auto& before = oracle.at("subgraphs").at(index).at("tensors");
    for (size_t t = 0; t < sg.at("tensors").size(); ++t) {
      const auto& now = sg.at("tensors").at(t);
      if (now.at("shape") == before.at(t).at("shape")) continue;
      std::string dims;
      for (const auto& d : now.at("shape")) {
        if (!dims.empty()) dims += ',';
        dims += d.dump();
      }
      flags += std::string(" --run-shape ").append(std::to_string(index)) + ":" +
               now.at("tensor").dump() + "=" + dims;
    }
  }
  ToolRun run = RunTool("report --json" + flags + " " +
                        testing::OraclePath("control_flow/while_dynamic.tflite"));
  ASSERT_EQ(run.exit_code, 0) << flags << ": " << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("invoke").at("determined"), true) << j.at("invoke");
  ExpectAfterInvokeAsUpstream(j, "while_dynamic");
}

TEST(ReportCommand, TextNamesTheFlagThatGivesTheMissingFact) {
  ToolRun run = RunTool("report " + testing::OraclePath("control_flow/if_branches.tflite"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("after one Invoke: not determined, the run needs IF node 1 of subgraph 0: "
                         "its condition's value (input-dependent); give it with --if-condition "
                         "0:1=true|false\n"),
            std::string::npos)
      << run.out;
  ToolRun loop = RunTool("report " + testing::OraclePath("control_flow/while_dynamic.tflite"));
  ASSERT_EQ(loop.exit_code, 0) << loop.err;
  EXPECT_NE(loop.out.find("; give it with --while-iterations 0:0=K\n"), std::string::npos)
      << loop.out;
  ToolRun shapes = RunTool("report --while-iterations 0:0=30 " +
                           testing::OraclePath("control_flow/while_dynamic.tflite"));
  ASSERT_EQ(shapes.exit_code, 0) << shapes.err;
  EXPECT_NE(shapes.out.find("; give them with --run-shape 2:T=D1,D2,... for each tensor whose "
                            "shape changed\n"),
            std::string::npos)
      << shapes.out;
}

struct BadFact {
  const char* name;
  const char* flags;
  const char* message;
};

class ReportBadFactTest : public ::testing::TestWithParam<BadFact> {};

TEST_P(ReportBadFactTest, ExitsTwoWithOneLine) {
  ToolRun run = RunTool(std::string("report ") + GetParam().flags + " " +
                        testing::OraclePath("control_flow/if_branches.tflite"));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.out, "");
  ASSERT_FALSE(run.err.empty());
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "not one line: " << run.err;
  EXPECT_NE(run.err.find(GetParam().message), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ReportBadFactTest,
    ::testing::Values(
        BadFact{"IfConditionNotABool", "--if-condition 0:1=maybe",
                "error: --if-condition: expected S:N=true|false, got \"0:1=maybe\""},
        BadFact{"IfConditionWithoutNode", "--if-condition x",
                "error: --if-condition: expected S:N=true|false, got \"x\""},
        BadFact{"NegativeSubgraph", "--if-condition=-1:1=true",
                "expected S:N=true|false, got \"-1:1=true\""},
        BadFact{"NegativeIterations", "--while-iterations 0:1=-3",
                "error: --while-iterations: the count must be 0 or more, got \"0:1=-3\""},
        BadFact{"IterationsNotANumber", "--while-iterations 0:1=many",
                "expected S:N=K, got \"0:1=many\""},
        BadFact{"EmptyDimension", "--run-shape 0:2=1,,4",
                "expected S:T=D1,D2,... with dimensions 0 or more"},
        BadFact{"NegativeDimension", "--run-shape 0:2=1,-4",
                "expected S:T=D1,D2,... with dimensions 0 or more"},
        BadFact{"IfConditionTwice", "--if-condition 0:1=true --if-condition 0:1=false",
                "error: --if-condition: 0:1 given twice"},
        BadFact{"RunShapeTwice", "--run-shape 0:2=1 --run-shape 0:2=2",
                "error: --run-shape: 0:2 given twice"},
        // Well-formed, but naming what the model lacks: BuildReport's check, with the model's path.
        BadFact{"IfConditionOnAMul", "--if-condition 0:2=true",
                "if_branches.tflite: IF condition given for node 2 of subgraph 0, which is MUL, "
                "not IF"},
        BadFact{"IterationsOnAnIf", "--while-iterations 0:1=2",
                "WHILE iteration count given for node 1 of subgraph 0, which is IF, not WHILE"},
        BadFact{"NoSuchSubgraph", "--if-condition 5:0=true", "but the model has 3 subgraphs"},
        BadFact{"NoSuchTensor", "--run-shape 2:40=1",
                "run shape given for tensor 40 of subgraph 2, which has"}),
    [](const auto& info) { return std::string(info.param.name); });

// --accelerator npu:VENDOR: the plugin's partitions with the honest label, in text and JSON; a
// vendor the tool does not know is one line and exit 2.
TEST(ReportCommand, AcceleratorNpuListsPluginPartitionsWithTheTranscribedNote) {
  ToolRun text =
      RunTool("report --accelerator npu:qualcomm,gpu " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("delegates: npu:qualcomm [transcribed] gpu [verified]"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("note: npu:qualcomm: transcribed; the vendor SDK's own op validation "
                          "may still reject"),
            std::string::npos)
      << text.out;
  ToolRun json =
      RunTool("report --json --accelerator npu:qualcomm " + testing::CorpusModelPath(kPalm));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"delegate\": \"npu:qualcomm\""), std::string::npos);
  // What the vendor's NPU runtime holds is not knowable here: unknown, as NNAPI's driver memory.
  EXPECT_NE(text.out.find("npu:qualcomm needs unknown memory outside the arena: npu_runtime "
                          "unknown (unknown)"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("delegate-owned 0 B (predicted)"), std::string::npos) << text.out;

  ToolRun unknown = RunTool("report --accelerator npu:acme " + testing::CorpusModelPath(kPalm));
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown NPU vendor 'acme'"), std::string::npos) << unknown.err;
  ToolRun both =
      RunTool("report --accelerator gpu --delegate xnnpack " + testing::CorpusModelPath(kPalm));
  EXPECT_EQ(both.exit_code, 2);
}

// --compare-accelerators: every default candidate planned alone and ranked; Qualcomm's plugin
// leaves face_landmark's 23 PRELU nodes on the CPU and names PRELU as the op to support next.
TEST(ReportCommand, CompareAcceleratorsRanksCandidatesAndNamesTheOpToSupportNext) {
  const std::string model = testing::CorpusModelPath("face_mesh__face_landmark");
  ToolRun json = RunTool("report --json --compare-accelerators " + model);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  const auto& candidates = j.at("accelerator_comparison").at("candidates");
  std::vector<std::string> order;
  for (const auto& c : candidates) order.push_back(c.at("accelerator"));
  EXPECT_EQ(order, (std::vector<std::string>{"xnnpack", "gpu", "npu:google_tensor", "npu:mediatek",
                                             "npu:qualcomm", "npu:example"}));
  EXPECT_EQ(candidates.at(1).at("cpu_nodes"), 0);
  const auto& qualcomm = candidates.at(4);
  EXPECT_EQ(qualcomm.at("cpu_nodes"), 23);
  EXPECT_EQ(qualcomm.at("support_next").at(0).at("op"), "PRELU");
  EXPECT_EQ(qualcomm.at("support_next").at(0).at("cpu_nodes_moved"), 23);

  ToolRun text = RunTool("report --compare-accelerators " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("PRELU (+23 nodes"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("note: npu:qualcomm: transcribed; the vendor SDK's own op validation "
                          "may still reject"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(RunTool("report --compare-accelerators --delegate gpu " + model).exit_code, 2);
}

}  // namespace
}  // namespace tfa
