#include "libanalysis/report/report_json.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using ordered_json = nlohmann::ordered_json;

// What the writer is held to: the layout nlohmann's dump(2) gives the same document, which is
// what the report's JSON was before it was streamed.
std::string AsNlohmannDumps(const std::string& json, int indent = 2) {
  return ordered_json::parse(json).dump(indent, ' ', false,
                                        nlohmann::json::error_handler_t::replace);
}

// Every member the contract has, optional ones included, and empty lists.
Report EveryMember() {
  Report r;
  r.model = "m.tflite";
  r.tool_version = "0.1.0";
  r.delegates = {"gpu", "ops=ADD"};
  r.delegate_trust = {"verified", "user"};
  SubgraphReport s;
  s.index = 0;
  s.nodes = 3;
  PartitionReport cpu;
  cpu.nodes = {0};
  cpu.inputs = {0};
  cpu.outputs = {1};
  PartitionReport gpu;
  gpu.kind = PartitionReport::Kind::kDelegate;
  gpu.delegate = "gpu";
  gpu.nodes = {1, 2};
  gpu.bytes_to_delegate = 4096;
  s.partitions = {cpu, gpu};
  s.delegated_partition_count = 1;
  s.copy = {4096, 64, 2, 128};
  s.unsupported.push_back({0, "CUSTOM", "gpu", "custom op \"x\"\ttab"});
  ArenaReport a;
  a.size = 8192;
  a.persistent_size = 16;
  a.lower_bound = 4096;
  a.peak_step = 1;
  a.peak_at = {1, "ADD", false};
  a.allocs.push_back({1, 0, 1, std::nullopt, false, 0, 4096, nullptr});
  a.allocs.push_back({2, 1, 2, 1, true, 4096, 4096,
                      std::make_shared<const PlanStepNode>(PlanStepNode{-1, "gpu", true})});
  a.allocs.push_back({3, 2, 2, std::nullopt, false, 0, 64,
                      std::make_shared<const PlanStepNode>(PlanStepNode{2, "CONV_2D", false})});
  a.assumptions = {"temporaries estimated"};
  a.high_water_mark = 4096;
  a.planning_stops_at_node = 2;
  a.notes = {"planned by the fast planner"};
  s.arena = a;
  ArenaReport unplanned;
  unplanned.planned = false;
  s.arena_cpu_only = unplanned;
  s.after_invoke = AfterInvokeReport{a, 32, true, false};
  s.delegate_memory.push_back({"gpu", {{"device_tensors", 100, "sum of tensors"}}, 100});
  r.subgraphs = {s, SubgraphReport{}};
  r.subgraphs[1].index = 1;
  r.signatures.push_back({"serving", 0, {{"x", 0}, {"y", 1}, {"x", 2}}, {}});
  r.interpreter = InterpreterTotals{8192, 16, 1, 100, 64, false, 8372, {}, false};
  r.invoke = InvokeReport{{"0:1=true"}, MissingFact{}};
  r.invoke->undetermined->description = "the condition of node 3";
  return r;
}

TEST(ReportToJson, IsLaidOutAsNlohmannDumpsIt) {
  const Report r = EveryMember();
  const std::string pretty = ReportToJson(r);
  EXPECT_EQ(pretty, AsNlohmannDumps(pretty));
  const std::string compact = ReportToJson(r, -1);
  EXPECT_EQ(compact, AsNlohmannDumps(pretty, -1));
  // A repeated signature key keeps its first place and its last tensor.
  EXPECT_EQ(ordered_json::parse(pretty)["signatures"][0]["inputs"].dump(), R"({"x":2,"y":1})");
}

TEST(WriteReportJson, ShowsThePickedSubgraphsThenTheExtraMembers) {
  const Report r = EveryMember();
  const std::vector<int32_t> second = {1};
  const ordered_json advice = {{{"delegate", "gpu"}, {"subgraph", 1}, {"ops", {"ADD", "MUL"}}}};
  std::ostringstream out;
  WriteReportJson({&r, &second, {{"advice", advice.dump(2)}}}, out);
  ordered_json expected = ordered_json::parse(ReportToJson(r));
  expected["subgraphs"].erase(0);
  expected["advice"] = advice;
  EXPECT_EQ(out.str(), expected.dump(2));

  std::ostringstream both;
  WriteReportsJson({{&r, nullptr, {}}, {&r, &second, {{"advice", advice.dump(2)}}}}, both);
  const ordered_json reports = {{"reports", {ordered_json::parse(ReportToJson(r)), expected}}};
  EXPECT_EQ(both.str(), reports.dump(2));
}

TEST(ReportToJson, CorpusModelReportIsLaidOutAsNlohmannDumpsIt) {
  auto model = LoadModelFile(testing::CorpusModelPath("hands__palm_detection_lite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  ReportOptions options;
  options.delegates.push_back(DelegateRequest{});
  options.delegates.back().spec = "gpu";
  auto report = BuildReport(*model, options);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const std::string json = ReportToJson(*report);
  EXPECT_EQ(json, AsNlohmannDumps(json));
}

// Names come from the model file unchecked (found by fuzz_report: a signature key that is not
// UTF-8 made the JSON writer throw); they are written with U+FFFD in place of the bad bytes.
TEST(ReportToJson, NamesThatAreNotUtf8AreReplacedNotFatal) {
  Report r;
  r.model = "m.tflite";
  r.signatures.push_back(
      SignatureReport{"pre\xff"
                      "fill",
                      0,
                      {{"tok\xc3", 0}},
                      {}});
  std::string json;
  EXPECT_NO_THROW(json = ReportToJson(r));
  EXPECT_NE(json.find("pre\xef\xbf\xbd"
                      "fill"),
            std::string::npos)
      << json;
}

}  // namespace
}  // namespace tfa
