#include "libanalysis/report/model_explorer_overlays.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/tflite_schema_generated.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/report/live_arena_bytes.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/small_graphs.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using nlohmann::json;

// Model Explorer's node data file, transcribed from its TypeScript interfaces
// (google-ai-edge/model-explorer, src/ui/src/components/visualizer/common/types.ts:
// NodeDataProviderData, NodeDataProviderGraphData, NodeDataProviderResultData, ThresholdItem,
// GradientItem) and the Python dataclasses of its extension API (node_data_builder.py:
// ModelNodeData, GraphNodeData, NodeDataResult, ThresholdItem, GradientItem). Returns what the
// file breaks, empty when it conforms.
std::vector<std::string> NodeDataFileErrors(const json& file) {
  std::vector<std::string> errors;
  auto fail = [&](const std::string& where, const std::string& what) {
    errors.push_back(where + ": " + what);
  };
  // The UI interpolates gradient colours from "#rrggbb" or colour names; we write hex only.
  const std::regex hex("#[0-9a-f]{6}");
  auto colour = [&](const json& value, const std::string& where) {
    if (!value.is_string()) return fail(where, "not a string");
    if (!std::regex_match(value.get<std::string>(), hex)) fail(where, "not #rrggbb");
  };
  if (!file.is_object()) return {"top level: not an object of graph ids"};
  for (const auto& [graph_id, graph] : file.items()) {
    const std::string g = "graph " + graph_id;
    if (!graph.is_object()) {
      fail(g, "not an object");
      continue;
    }
    static const std::set<std::string> kGraphKeys = {"name",
                                                     "results",
                                                     "thresholds",
                                                     "gradient",
                                                     "hideInAggregatedStatsTable",
                                                     "hideInChildrenStatsTable",
                                                     "hideAggregatedStats",
                                                     "showExpandedSummaryOnGroupNode",
                                                     "showLabelCountColumnsInChildrenStatsTable"};
    for (const auto& [key, value] : graph.items()) {
      if (!kGraphKeys.count(key)) fail(g, "unknown member " + key);
    }
    if (!graph.contains("results") || !graph["results"].is_object()) {
      fail(g, "results missing or not an object");
      continue;
    }
    for (const auto& [node_id, result] : graph["results"].items()) {
      const std::string r = g + " node " + node_id;
      if (!result.is_object() || !result.contains("value")) {
        fail(r, "not an object with a value");
        continue;
      }
      // The Python dataclass takes numbers; the UI takes any value and shows text as labels.
      if (!result["value"].is_number() && !result["value"].is_string()) {
        fail(r, "value neither number nor string");
      }
      for (const auto& [key, value] : result.items()) {
        if (key == "bgColor" || key == "textColor") {
          colour(value, r + " " + key);
        } else if (key != "value") {
          fail(r, "unknown member " + key);
        }
      }
    }
    if (graph.contains("thresholds")) {
      for (const json& t : graph["thresholds"]) {
        if (!t.contains("value") || !t["value"].is_number()) fail(g, "threshold without value");
        if (!t.contains("bgColor")) fail(g, "threshold without bgColor");
      }
    }
    if (graph.contains("gradient")) {
      std::set<double> stops;
      for (const json& stop : graph["gradient"]) {
        if (!stop.contains("stop") || !stop["stop"].is_number()) {
          fail(g, "gradient item without a stop");
          continue;
        }
        const double s = stop["stop"];
        if (s < 0 || s > 1) fail(g, "gradient stop outside [0, 1]");
        stops.insert(s);
        if (stop.contains("bgColor")) colour(stop["bgColor"], g + " gradient");
      }
      // "Stops for 0 and 1 should always be provided."
      if (!stops.count(0.0) || !stops.count(1.0)) fail(g, "gradient lacks stop 0 or 1");
    }
    for (const char* flag :
         {"hideInAggregatedStatsTable", "hideInChildrenStatsTable",
          "showExpandedSummaryOnGroupNode", "showLabelCountColumnsInChildrenStatsTable"}) {
      if (graph.contains(flag) && !graph[flag].is_boolean())
        fail(g, std::string(flag) + " not a bool");
    }
  }
  return errors;
}

struct Analysed {
  ModelPlan plan;
  Report report;
};

Analysed Analyse(const Model& model, const std::vector<std::string>& delegates) {
  std::vector<DelegateRequest> requests;
  for (const std::string& spec : delegates) requests.emplace_back().spec = spec;
  auto profiles = ResolveDelegateRequests(requests);
  EXPECT_TRUE(profiles.ok()) << profiles.status().message();
  PlanOptions options;
  if (profiles.ok()) options.delegates = *profiles;
  auto plan = PlanModel(model, options);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  if (!plan.ok()) return {};
  auto report = BuildReport(*plan, "test");
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return {};
  return {std::move(plan).value(), std::move(report).value()};
}

std::map<std::string, json> OverlayFiles(const Analysed& a) {
  std::map<std::string, json> files;
  for (const ModelExplorerOverlay& overlay : ModelExplorerOverlays(a.plan, a.report)) {
    files[overlay.file_name] = json::parse(ModelNodeDataJson(overlay.data));
  }
  return files;
}

// x -ADD(c0)-> a -SIN-> b -ADD(c1)-> y -MUL(v)-> z, v a variable (report_builder_test.cc).
constexpr const char* kAlternating = R"({"format":"tflite-analyze-graph/1",
  "tensors":[{"name":"x","bytes":400},{"name":"c0","bytes":40,"alloc":"mmap_ro"},
             {"name":"a","bytes":400},{"name":"b","bytes":400},
             {"name":"c1","bytes":48,"alloc":"mmap_ro"},{"name":"y","bytes":400},
             {"name":"v","bytes":16,"alloc":"arena_rw_persistent"},{"name":"z","bytes":400}],
  "nodes":[{"op":"ADD","inputs":[0,1],"outputs":[2]},
           {"op":"SIN","inputs":[2],"outputs":[3]},
           {"op":"ADD","inputs":[3,4],"outputs":[5]},
           {"op":"MUL","inputs":[5,6],"outputs":[7]}],
  "inputs":[0],"outputs":[7],"variables":[6]})";

Analysed AlternatingWithAddDelegate() {
  auto model = ParseGraphJson(kAlternating, "g.json");
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? Analyse(*model, {"ops=ADD"}) : Analysed{};
}

TEST(ModelExplorerOverlays, FilesFollowModelExplorersNodeDataFormat) {
  const auto files = OverlayFiles(AlternatingWithAddDelegate());
  ASSERT_EQ(files.size(), 5u);
  for (const char* name : {"delegate.json", "copy_bytes.json", "arena_offset.json",
                           "arena_size.json", "live_arena.json"}) {
    ASSERT_TRUE(files.count(name)) << name;
    EXPECT_EQ(NodeDataFileErrors(files.at(name)), std::vector<std::string>{}) << name;
    EXPECT_TRUE(files.at(name).contains("main")) << name;
  }
}

TEST(ModelExplorerOverlays, CheckerRejectsWhatModelExplorerWouldNotRead) {
  EXPECT_FALSE(NodeDataFileErrors(json::array()).empty());
  EXPECT_FALSE(NodeDataFileErrors(json::parse(R"({"main":{"nodes":{}}})")).empty());
  EXPECT_FALSE(NodeDataFileErrors(json::parse(R"({"main":{"results":{"0":{"val":1}}}})")).empty());
  EXPECT_FALSE(
      NodeDataFileErrors(json::parse(R"({"main":{"results":{},"gradient":[{"stop":0.5}]}})"))
          .empty());
  EXPECT_FALSE(
      NodeDataFileErrors(json::parse(R"({"main":{"results":{"0":{"value":1,"bgColor":"red "}}}})"))
          .empty());
}

TEST(ModelExplorerOverlays, DelegateOverlayNamesTheDelegateOrWhyTheCpuRunsTheNode) {
  const Analysed a = AlternatingWithAddDelegate();
  const json delegate = OverlayFiles(a).at("delegate.json").at("main");
  const std::string name = a.report.subgraphs.at(0).partitions.at(0).delegate;
  const json& results = delegate.at("results");
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results.at("0").at("value"), name);
  EXPECT_EQ(results.at("2").at("value"), name);
  EXPECT_EQ(results.at("0").at("bgColor"), results.at("2").at("bgColor"));
  const std::string sin = results.at("1").at("value");
  EXPECT_EQ(sin.rfind("cpu: ", 0), 0u) << sin;
  EXPECT_EQ(results.at("1").at("bgColor"), "#f6cfcf");  // rejected: light red
  EXPECT_EQ(delegate.at("showExpandedSummaryOnGroupNode"), true);
}

TEST(ModelExplorerOverlays, WithoutDelegatesEveryNodeIsGreyCpu) {
  auto model = ParseGraphJson(kAlternating, "g.json");
  ASSERT_TRUE(model.ok());
  const json results = OverlayFiles(Analyse(*model, {})).at("delegate.json")["main"]["results"];
  ASSERT_EQ(results.size(), 4u);
  for (const auto& [node, result] : results.items()) {
    EXPECT_EQ(result, json::parse(R"({"value":"cpu","bgColor":"#ececec"})")) << node;
  }
}

TEST(ModelExplorerOverlays, CopyBytesSitOnTheDelegatedNodesAndSumToTheReportsCopies) {
  const Analysed a = AlternatingWithAddDelegate();
  const json results = OverlayFiles(a).at("copy_bytes.json")["main"]["results"];
  // Node 0 reads x (400 B; the constant c0 is uploaded once) and writes a (400 B); node 2 reads
  // b and writes y. The CPU nodes copy nothing themselves.
  EXPECT_EQ(results, json::parse(R"({"0":{"value":800},"2":{"value":800}})"));
  const CopyCost& copy = a.report.subgraphs.at(0).copy;
  EXPECT_EQ(copy.bytes_to_delegate + copy.bytes_from_delegate, 1600u);
}

// XNNPACK reads and writes TFLite's buffers where they lie: the report counts no copy, and
// neither does the overlay.
TEST(ModelExplorerOverlays, AnInPlaceDelegateCopiesNothing) {
  auto model =
      LoadModelFile(tfa::testing::CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Analysed a = Analyse(*model, {"xnnpack"});
  ASSERT_GT(a.report.subgraphs.at(0).delegated_partition_count, 0);
  const CopyCost& copy = a.report.subgraphs.at(0).copy;
  EXPECT_EQ(copy.bytes_to_delegate + copy.bytes_from_delegate, 0u);
  const std::map<std::string, json> files = OverlayFiles(a);
  for (const auto& [graph, data] : files.at("copy_bytes.json").items()) {
    EXPECT_EQ(data.at("results"), json::object()) << graph;
  }
}

TEST(ModelExplorerOverlays, ArenaOverlaysGiveEachNodesOutputPlacement) {
  const Analysed a = AlternatingWithAddDelegate();
  const auto files = OverlayFiles(a);
  const json offsets = files.at("arena_offset.json")["main"]["results"];
  const json sizes = files.at("arena_size.json")["main"]["results"];
  const ArenaReport& arena = *a.report.subgraphs.at(0).arena;
  std::map<int32_t, const ArenaAllocation*> allocs;
  for (const ArenaAllocation& al : arena.allocs) allocs[al.tensor] = &al;
  // Node n writes tensor 2, 3, 5, 7.
  const std::vector<std::pair<std::string, int32_t>> outputs = {
      {"0", 2}, {"1", 3}, {"2", 5}, {"3", 7}};
  ASSERT_EQ(offsets.size(), 4u);
  for (const auto& [node, tensor] : outputs) {
    ASSERT_TRUE(allocs.count(tensor)) << tensor;
    EXPECT_EQ(offsets.at(node).at("value"), allocs[tensor]->offset) << node;
    EXPECT_EQ(sizes.at(node).at("value"), 400u) << node;
  }
  // x takes [0, 400) for the whole run; a, b, y and z (400 B each, 448 aligned) alternate above
  // it as their lifetimes allow.
  EXPECT_EQ(offsets, json::parse(R"({"0":{"value":448},"1":{"value":896},"2":{"value":448},
                                     "3":{"value":896}})"));
}

TEST(ModelExplorerOverlays, LiveArenaIsTheLiveBytesOfTheStepTheNodeRunsAt) {
  const Analysed a = AlternatingWithAddDelegate();
  const json results = OverlayFiles(a).at("live_arena.json")["main"]["results"];
  const std::vector<uint64_t> live = LiveArenaBytes(a.plan.subgraphs.at(0).memory->plan);
  // Four steps: the ADD kernel, SIN, the ADD kernel, MUL.
  ASSERT_EQ(live.size(), 4u);
  // x + a, then x + a + b, x + b + y, x + y + z.
  EXPECT_EQ(results, json::parse(R"({"0":{"value":800},"1":{"value":1200},"2":{"value":1200},
                                     "3":{"value":1200}})"));
  for (size_t n = 0; n < 4; ++n) EXPECT_EQ(results.at(std::to_string(n)).at("value"), live[n]);
}

// Graph ids and node ids as the built-in adapter derives them from the flatbuffer itself
// (direct_flatbuffer_to_json_graph_convert.cc: GetSubgraphName, and operator i -> "i"), read
// here with the flatbuffers reader, not our loader.
std::map<std::string, std::set<std::string>> AdapterOperatorIds(const std::string& path) {
  const std::string bytes = testing::ReadTextFile(path);
  const tflite::Model* model = tflite::GetModel(bytes.data());
  std::map<std::string, std::set<std::string>> ids;
  for (flatbuffers::uoffset_t i = 0; i < model->subgraphs()->size(); ++i) {
    const tflite::SubGraph* sg = model->subgraphs()->Get(i);
    std::string id = sg->name() ? sg->name()->str() : "";
    if (id.empty() && model->signature_defs()) {
      for (const tflite::SignatureDef* s : *model->signature_defs()) {
        if (s->subgraph_index() != i) continue;
        if (s->signature_key() && s->signature_key()->size() > 0) id = s->signature_key()->str();
        break;
      }
    }
    if (id.empty()) id = i == 0 ? "main" : "subgraph_" + std::to_string(i);
    std::set<std::string>& nodes = ids[id];
    const uint32_t operators = sg->operators() ? sg->operators()->size() : 0;
    for (uint32_t op = 0; op < operators; ++op) nodes.insert(std::to_string(op));
  }
  return ids;
}

void ExpectKeyedAsTheAdapterKeysIt(const std::string& path,
                                   const std::vector<std::string>& delegates,
                                   const std::vector<std::string>& expected_graphs) {
  SCOPED_TRACE(path);
  auto model = LoadModelFile(path);
  ASSERT_TRUE(model.ok()) << model.status().message();
  const auto adapter = AdapterOperatorIds(path);
  std::vector<std::string> adapter_graphs;
  for (const auto& [graph, nodes] : adapter) adapter_graphs.push_back(graph);
  std::vector<std::string> sorted_expected = expected_graphs;
  std::sort(sorted_expected.begin(), sorted_expected.end());
  ASSERT_EQ(adapter_graphs, sorted_expected);
  for (const auto& [file, content] : OverlayFiles(Analyse(*model, delegates))) {
    EXPECT_EQ(NodeDataFileErrors(content), std::vector<std::string>{}) << file;
    std::vector<std::string> graphs;
    for (const auto& [graph, data] : content.items()) {
      graphs.push_back(graph);
      ASSERT_TRUE(adapter.count(graph)) << file << ": graph " << graph;
      for (const auto& [node, result] : data["results"].items()) {
        EXPECT_TRUE(adapter.at(graph).count(node)) << file << ": " << graph << " node " << node;
      }
      // Every operator says where it runs.
      if (file == "delegate.json") {
        EXPECT_EQ(data["results"].size(), adapter.at(graph).size());
      }
    }
    if (file == "delegate.json") {
      std::sort(graphs.begin(), graphs.end());
      EXPECT_EQ(graphs, sorted_expected);
    }
  }
}

TEST(ModelExplorerOverlays, ControlFlowModelIsKeyedByTheAdaptersGraphAndNodeIds) {
  ExpectKeyedAsTheAdapterKeysIt(testing::OraclePath("control_flow/while_acc.tflite"),
                                {"ops=ADD,MUL"}, {"main", "cond", "body"});
}

TEST(ModelExplorerOverlays, NamelessSubgraphsTakeTheSignatureKeyOrTheirNumber) {
  Model model = testing::WhileModel();
  SignatureDef serving;
  serving.key = "serving";
  serving.subgraph_index = 0;
  serving.inputs = {{"x", 0}};
  serving.outputs = {{"y", 4}};
  model.signatures.push_back(serving);
  for (Subgraph& sg : model.subgraphs) {
    for (Node& node : sg.nodes) node.builtin_code = BuiltinCodeFromName(node.op).value_or(-1);
  }
  const std::vector<uint8_t> bytes = WriteTflite(model);
  const std::string path =
      testing::WriteTempFile("nameless_while.tflite", std::string(bytes.begin(), bytes.end()));
  ExpectKeyedAsTheAdapterKeysIt(path, {}, {"serving", "subgraph_1", "subgraph_2"});
}

}  // namespace
}  // namespace tfa
