#include "visualizers/partition_graph.h"

#include <graphviz/cgraph.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"
#include "visualizers/visualizer_test_data.h"

namespace tfa::viz {
namespace {

using testing::AlternatingReport;
using testing::CorpusSubgraph;
using testing::TinyReport;
using testing::TinyReportWithWeightPartition;
using testing::TinySubgraph;
using testing::TinySubgraphWithWeightNode;

struct GraphCounts {
  int nodes = 0;
  int edges = 0;
  int clusters = 0;
  std::multiset<std::string> edge_labels;  // non-empty labels only
};

// Re-parses DOT text with Graphviz itself: proof that Graphviz accepts what we wrote.
GraphCounts ParseDot(const std::string& dot) {
  std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> graph(agmemread(dot.c_str()), agclose);
  EXPECT_NE(graph, nullptr) << dot;
  GraphCounts counts;
  if (graph == nullptr) return counts;
  counts.nodes = agnnodes(graph.get());
  counts.edges = agnedges(graph.get());
  for (Agraph_t* sub = agfstsubg(graph.get()); sub != nullptr; sub = agnxtsubg(sub)) {
    if (std::string(agnameof(sub)).rfind("cluster", 0) == 0) ++counts.clusters;
  }
  char label_name[] = "label";
  for (Agnode_t* n = agfstnode(graph.get()); n != nullptr; n = agnxtnode(graph.get(), n)) {
    for (Agedge_t* e = agfstout(graph.get(), n); e != nullptr; e = agnxtout(graph.get(), e)) {
      const char* label = agget(e, label_name);
      if (label != nullptr && *label != '\0') counts.edge_labels.insert(label);
    }
  }
  return counts;
}

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

void ExpectWellFormedSvg(const std::string& svg) {
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  const size_t end = svg.find_last_not_of(" \n");
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(svg.substr(end + 1 - 6, 6), "</svg>");
}

// DOT text with Graphviz's line continuations (backslash, newline) inside long strings removed.
std::string Unwrapped(std::string dot) {
  for (size_t at = dot.find("\\\n"); at != std::string::npos; at = dot.find("\\\n", at)) {
    dot.erase(at, 2);
  }
  return dot;
}

Result<std::string> Render(const Subgraph& s, const SubgraphReport& r, GraphFormat format,
                           bool collapse = false) {
  PartitionGraphOptions options;
  options.collapse = collapse;
  return RenderPartitionGraph(s, r, format, options);
}

TEST(PartitionGraphTest, TinyGraphDotHasClustersNodesAndLabelledBoundaryEdges) {
  Result<std::string> dot = Render(TinySubgraph(), TinyReport(), GraphFormat::kDot);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  const GraphCounts counts = ParseDot(*dot);
  EXPECT_EQ(counts.clusters, 3);
  EXPECT_EQ(counts.nodes, 4 + 1 + 1);  // model nodes, one input, one output
  EXPECT_EQ(counts.edges, 6);
  EXPECT_EQ(counts.edge_labels,
            (std::multiset<std::string>{"4.1 kB", "2.0 kB", "2.0 kB", "1.0 kB", "1.2 MB"}));
  EXPECT_NE(dot->find("#2 MY_CUSTOM"), std::string::npos);
  EXPECT_NE(dot->find("not supported by gpu: custom op <MY_CUSTOM> has no GPU kernel"),
            std::string::npos);
  EXPECT_NE(dot->find("P1: CPU (1 nodes)"), std::string::npos);
}

TEST(PartitionGraphTest, TinyGraphCollapsedHasOneBoxPerPartition) {
  Result<std::string> dot = Render(TinySubgraph(), TinyReport(), GraphFormat::kDot, true);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  const GraphCounts counts = ParseDot(*dot);
  EXPECT_EQ(counts.clusters, 0);
  EXPECT_EQ(counts.nodes, 3 + 1 + 1);
  // input→P0, P0→P1, P0→P2, P1→P2, P2→output
  EXPECT_EQ(counts.edges, 5);
  EXPECT_EQ(counts.edge_labels,
            (std::multiset<std::string>{"4.1 kB", "2.0 kB", "2.0 kB", "1.0 kB", "1.2 MB"}));
  EXPECT_NE(dot->find("1 unsupported"), std::string::npos);
}

TEST(PartitionGraphTest, WeightsAreUploadedOnceAndWeightOnlyPartitionsFold) {
  Result<std::string> full =
      Render(TinySubgraphWithWeightNode(), TinyReportWithWeightPartition(), GraphFormat::kDot);
  ASSERT_TRUE(full.ok()) << full.status().message();
  // The weight node is not drawn; its partition is one folded box. The delegate partitions say
  // what they upload once (t1, t7: 512 B each), apart from the per-inference edges.
  EXPECT_EQ(ParseDot(*full).nodes, 4 + 1 + 1 + 1);
  EXPECT_EQ(CountOccurrences(*full, "uploaded once: 512 B"), 2u);
  EXPECT_NE(Unwrapped(*full).find("bold edges: tensors copied on every inference"),
            std::string::npos);

  Result<std::string> collapsed = Render(TinySubgraphWithWeightNode(),
                                         TinyReportWithWeightPartition(), GraphFormat::kDot, true);
  ASSERT_TRUE(collapsed.ok()) << collapsed.status().message();
  const GraphCounts counts = ParseDot(*collapsed);
  EXPECT_EQ(counts.nodes, 3 + 1 + 1);  // no box for the weight partition
  EXPECT_EQ(counts.edges, 5);
  // In the labels and tooltips of P0 and P2.
  EXPECT_EQ(CountOccurrences(*collapsed, "uploaded once: 512 B"), 4u);
  EXPECT_NE(Unwrapped(*collapsed)
                .find("1 partition of weight nodes only (1 node) folded into their consumers"),
            std::string::npos);
}

// A delegate that reads TFLite's buffers in place copies nothing: its boundary edges are dashed
// and unlabelled, and its boxes say so instead of giving bytes.
TEST(PartitionGraphTest, AnInPlaceDelegateShowsNoCopiesAndNoUploads) {
  SubgraphReport report = TinyReport();
  for (PartitionReport& p : report.partitions) {
    if (p.kind != PartitionReport::Kind::kDelegate) continue;
    p.delegate = "xnnpack";
    p.in_place = true;
    p.bytes_to_delegate = p.bytes_from_delegate = p.init_upload_bytes = 0;
  }
  report.copy = {0, 0, 4, 0};
  for (const bool collapse : {false, true}) {
    Result<std::string> dot = Render(TinySubgraph(), report, GraphFormat::kDot, collapse);
    ASSERT_TRUE(dot.ok()) << dot.status().message();
    const std::string text = Unwrapped(*dot);
    EXPECT_TRUE(ParseDot(*dot).edge_labels.empty()) << collapse;
    EXPECT_EQ(CountOccurrences(text, "uploaded once: "), 0u) << collapse;
    EXPECT_EQ(CountOccurrences(text, "copied per inference"), 0u) << collapse;
    EXPECT_GE(CountOccurrences(text, "in place: nothing copied"), 2u) << collapse;
    EXPECT_NE(text.find("crosses without a copy"), std::string::npos) << collapse;
  }
}

TEST(PartitionGraphTest, TinyGraphRendersSvgAndPng) {
  Result<std::string> svg = Render(TinySubgraph(), TinyReport(), GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  ExpectWellFormedSvg(*svg);
  EXPECT_EQ(CountOccurrences(*svg, "class=\"cluster\""), 3u);
  EXPECT_EQ(CountOccurrences(*svg, "class=\"node\""), 6u);
  EXPECT_EQ(CountOccurrences(*svg, "class=\"edge\""), 6u);

  Result<std::string> png = Render(TinySubgraph(), TinyReport(), GraphFormat::kPng);
  ASSERT_TRUE(png.ok()) << png.status().message();
  ASSERT_GT(png->size(), 8u);
  EXPECT_EQ(png->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(PartitionGraphTest, ReportErrorsComeBackAsStatus) {
  SubgraphReport report = TinyReport();
  report.partitions[0].nodes.push_back(7);
  Result<std::string> svg = Render(TinySubgraph(), report, GraphFormat::kSvg);
  ASSERT_FALSE(svg.ok());
  EXPECT_EQ(svg.status().message(), "subgraph 0: partition 0: node 7 is out of range (4 nodes)");
}

TEST(PartitionGraphTest, FormatFromPath) {
  EXPECT_EQ(*GraphFormatFromPath("a/b.dot"), GraphFormat::kDot);
  EXPECT_EQ(*GraphFormatFromPath("b.GV"), GraphFormat::kDot);
  EXPECT_EQ(*GraphFormatFromPath("b.svg"), GraphFormat::kSvg);
  EXPECT_EQ(*GraphFormatFromPath("b.Png"), GraphFormat::kPng);
  Result<GraphFormat> unknown = GraphFormatFromPath("out.pdf");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "out.pdf: unknown picture format (use .dot, .gv, .svg or .png)");
}

TEST(PartitionGraphTest, WritesTheFormatTheExtensionNames) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "tfa_viz_write_test";
  std::filesystem::create_directories(dir);
  const std::string svg_path = (dir / "tiny.svg").string();
  ASSERT_TRUE(WritePartitionGraph(TinySubgraph(), TinyReport(), {}, svg_path).ok());
  ExpectWellFormedSvg(tfa::testing::ReadTextFile(svg_path));
  Status bad =
      WritePartitionGraph(TinySubgraph(), TinyReport(), {}, (dir / "no/such/x.dot").string());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("no/such/x.dot: cannot open for writing"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Expected counts computed independently from the Graph IR: distinct (tensor, reader) pairs of
// non-constant tensors that a node produces or the graph takes as input, plus produced outputs.
struct ExpectedDrawing {
  int nodes = 0;
  int edges = 0;
};
// Nodes reading constants only (weight DEQUANTIZE) are folded: neither they nor their outputs are
// drawn.
ExpectedDrawing CountDrawing(const Subgraph& s) {
  std::set<int32_t> produced, inputs(s.inputs.begin(), s.inputs.end()), made_once;
  int folded = 0;
  for (const Node& n : s.nodes) {
    const bool constant_only = std::all_of(n.inputs.begin(), n.inputs.end(), [&](int32_t t) {
      return t < 0 || s.tensors[t].is_constant() || made_once.count(t) > 0;
    });
    if (constant_only) {
      ++folded;
      made_once.insert(n.outputs.begin(), n.outputs.end());
    }
    produced.insert(n.outputs.begin(), n.outputs.end());
  }
  auto moves = [&](int32_t t) {
    return t >= 0 && !s.tensors[t].is_constant() && made_once.count(t) == 0 &&
           (produced.count(t) || inputs.count(t));
  };
  ExpectedDrawing d;
  std::set<int32_t> drawn_inputs;
  for (const Node& n : s.nodes) {
    std::set<int32_t> seen;
    for (int32_t t : n.inputs) {
      if (!moves(t) || !seen.insert(t).second) continue;
      ++d.edges;
      if (!produced.count(t)) drawn_inputs.insert(t);
    }
  }
  int outputs = 0;
  for (int32_t t : std::set<int32_t>(s.outputs.begin(), s.outputs.end())) {
    if (moves(t) && produced.count(t)) ++outputs;
  }
  d.edges += outputs;
  d.nodes = static_cast<int>(s.nodes.size() + drawn_inputs.size()) + outputs - folded;
  return d;
}

TEST(PartitionGraphTest, CorpusModelWithThreePartitions) {
  const Subgraph s = CorpusSubgraph("face_detection__face_detection_short_range");
  ASSERT_EQ(s.nodes.size(), 164u);
  const SubgraphReport report = AlternatingReport(s.nodes.size(), 3);
  Result<std::string> dot = Render(s, report, GraphFormat::kDot);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  const GraphCounts counts = ParseDot(*dot);
  const ExpectedDrawing expected = CountDrawing(s);
  EXPECT_EQ(counts.clusters, 3);
  // 164 nodes less the 74 weight DEQUANTIZE nodes (the model's op histogram), plus the input and
  // the two outputs.
  EXPECT_EQ(counts.nodes, 164 - 74 + 1 + 2);
  EXPECT_EQ(counts.nodes, expected.nodes);
  EXPECT_EQ(counts.edges, expected.edges);

  Result<std::string> svg = Render(s, report, GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  ExpectWellFormedSvg(*svg);
  EXPECT_EQ(CountOccurrences(*svg, "class=\"cluster\""), 3u);
  EXPECT_EQ(CountOccurrences(*svg, "class=\"node\""), static_cast<size_t>(expected.nodes));
  EXPECT_EQ(CountOccurrences(*svg, "class=\"edge\""), static_cast<size_t>(expected.edges));
}

TEST(PartitionGraphTest, LargestCorpusModelCollapsedRendersQuickly) {
  const Subgraph s = CorpusSubgraph("face_mesh__face_landmark_with_attention");
  ASSERT_EQ(s.nodes.size(), 712u);
  const SubgraphReport report = AlternatingReport(s.nodes.size(), 15);
  const auto start = std::chrono::steady_clock::now();
  Result<std::string> svg = Render(s, report, GraphFormat::kSvg, true);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  ExpectWellFormedSvg(*svg);
  EXPECT_EQ(CountOccurrences(*svg, "class=\"cluster\""), 0u);
  EXPECT_GE(CountOccurrences(*svg, "class=\"node\""), 15u);
  EXPECT_LT(seconds, 10.0) << "collapsed rendering of 712 nodes took " << seconds << " s";
}

// Width and height from a PNG's IHDR chunk (big-endian, bytes 16..23).
std::pair<uint32_t, uint32_t> PngSize(const std::string& png) {
  EXPECT_GE(png.size(), 24u);
  if (png.size() < 24) return {0, 0};
  auto read = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {read(16), read(20)};
}

SubgraphReport DelegatedReport(const Model& model, const std::string& delegate) {
  ReportOptions options;
  DelegateRequest request;
  request.spec = delegate;
  options.delegates.push_back(request);
  Result<Report> report = BuildReport(model, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return report.ok() ? report->subgraphs[0] : SubgraphReport{};
}

// Convolutions delegated, weight DEQUANTIZE nodes left on the CPU in partitions of their own:
// the fan-out that made the collapsed picture larger than the full one.
TEST(PartitionGraphTest, CollapsedIsNoLargerThanTheFullPicture) {
  auto model =
      LoadModelFile(tfa::testing::CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const SubgraphReport report = DelegatedReport(*model, "ops=CONV_2D,DEPTHWISE_CONV_2D");
  Result<std::string> full = Render(model->subgraphs[0], report, GraphFormat::kPng);
  Result<std::string> collapsed = Render(model->subgraphs[0], report, GraphFormat::kPng, true);
  ASSERT_TRUE(full.ok()) << full.status().message();
  ASSERT_TRUE(collapsed.ok()) << collapsed.status().message();
  const auto [full_w, full_h] = PngSize(*full);
  const auto [w, h] = PngSize(*collapsed);
  EXPECT_LE(std::max(w, h), std::max(full_w, full_h));
  EXPECT_LE(uint64_t{w} * h, uint64_t{full_w} * full_h);
}

// The report says XNNPACK copies nothing and uploads nothing (it reads TFLite's buffers and
// packs its weights into delegate memory); the pictures of a real model say the same.
TEST(PartitionGraphTest, XnnpackPicturesCarryTheReportsZeroCopies) {
  auto model =
      LoadModelFile(tfa::testing::CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const SubgraphReport report = DelegatedReport(*model, "xnnpack");
  ASSERT_EQ(report.copy.bytes_to_delegate + report.copy.bytes_from_delegate, 0u);
  ASSERT_EQ(report.copy.init_upload_bytes, 0u);
  for (const bool collapse : {false, true}) {
    Result<std::string> dot = Render(model->subgraphs[0], report, GraphFormat::kDot, collapse);
    ASSERT_TRUE(dot.ok()) << dot.status().message();
    EXPECT_TRUE(ParseDot(*dot).edge_labels.empty()) << collapse;
    EXPECT_EQ(CountOccurrences(Unwrapped(*dot), "uploaded once: "), 0u) << collapse;
  }
}

// A chain of 50 RELU nodes.
Subgraph ReluChain() {
  Subgraph s;
  for (int i = 0; i <= 50; ++i) {
    Tensor t;
    t.name = std::string("t").append(std::to_string(i));
    t.bytes = 100;
    s.tensors.push_back(t);
  }
  for (int32_t i = 0; i < 50; ++i) {
    Node relu;
    relu.op = "RELU";
    relu.inputs = {i};
    relu.outputs = {i + 1};
    s.nodes.push_back(relu);
    s.execution_plan.push_back(i);
  }
  s.inputs = {0};
  s.outputs = {50};
  return s;
}

TEST(PartitionGraphTest, CollapsedGroupsConsecutiveDelegatePartitionsPastTenBoxes) {
  // 25 partitions of two nodes, every sixth on the CPU (P5, P11, P17, P23), the others gpu.
  SubgraphReport report = AlternatingReport(50, 25);
  report.unsupported.clear();
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    const bool cpu = p % 6 == 5;
    report.partitions[p].kind =
        cpu ? PartitionReport::Kind::kCpu : PartitionReport::Kind::kDelegate;
    report.partitions[p].delegate = cpu ? "" : "gpu";
  }
  Result<std::string> dot = Render(ReluChain(), report, GraphFormat::kDot, true);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  const std::string text = Unwrapped(*dot);
  // Up to 3 gpu partitions to a dashed box: P0–P2, P3–P4, P6–P8, P9–P10, ..., P21–P22, and P24.
  EXPECT_NE(text.find("P0–P2: 3 delegated partitions"), std::string::npos);
  EXPECT_NE(text.find("P3–P4: 2 delegated partitions"), std::string::npos);
  EXPECT_EQ(CountOccurrences(text, "style=\"rounded,filled,dashed\""), 8u);
  for (const char* cpu : {"P5: CPU", "P11: CPU", "P17: CPU", "P23: CPU"})
    EXPECT_NE(text.find(cpu), std::string::npos) << cpu;
  EXPECT_NE(text.find("P24: gpu"), std::string::npos);
  EXPECT_NE(text.find("25 partitions, up to 3 consecutive delegated ones to a dashed box"),
            std::string::npos);
}

// Partitions alternating gpu / CPU: no two delegate partitions are consecutive, so every
// partition keeps its box and every CPU island shows, however many there are.
TEST(PartitionGraphTest, CollapsedNeverHidesACpuPartitionInADelegatesBox) {
  const SubgraphReport report = AlternatingReport(50, 25);
  Result<std::string> dot = Render(ReluChain(), report, GraphFormat::kDot, true);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  const std::string text = Unwrapped(*dot);
  EXPECT_EQ(CountOccurrences(text, "style=\"rounded,filled,dashed\""), 0u);
  EXPECT_EQ(CountOccurrences(text, ": CPU\\n"), 2u * 12);  // 12 boxes' labels and tooltips
  EXPECT_EQ(text.find("delegated partitions"), std::string::npos);
}

TEST(PartitionGraphTest, LargestCorpusModelCollapsedFitsOneScreen) {
  auto model =
      LoadModelFile(tfa::testing::CorpusModelPath("face_mesh__face_landmark_with_attention"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  ASSERT_EQ(model->subgraphs[0].nodes.size(), 712u);
  const SubgraphReport report = DelegatedReport(*model, "gpu");
  Result<std::string> png = Render(model->subgraphs[0], report, GraphFormat::kPng, true);
  ASSERT_TRUE(png.ok()) << png.status().message();
  const auto [w, h] = PngSize(*png);
  EXPECT_LE(std::max(w, h), 2000u) << w << "x" << h;
}

}  // namespace
}  // namespace tfa::viz
