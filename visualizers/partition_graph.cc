#include "visualizers/partition_graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "libanalysis/core/byte_units.h"
#include "visualizers/graphviz_graph.h"
#include "visualizers/output_file.h"
#include "visualizers/palette.h"
#include "visualizers/partition_view.h"

namespace tfa::viz {
namespace {

constexpr const char* kFont = "Helvetica";
constexpr const char* kInternalEdgeColour = "#9a9a9a";
constexpr const char* kBoundaryEdgeColour = "#333333";
// Tooltips of collapsed boxes list at most this many unsupported nodes.
constexpr size_t kMaxUnsupportedInTooltip = 20;
// The collapsed picture draws at most this many partition boxes: an overview that fits a screen.
constexpr size_t kMaxOverviewBoxes = 10;
constexpr const char* kOverviewInches = "20.8,20.8";

// Graphviz interprets backslash sequences in labels (\n, \N, \l); a tensor name's own backslashes
// must reach the picture as written.
std::string LabelText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string PartitionTitle(const SubgraphReport& report, size_t p) {
  const PartitionReport& partition = report.partitions[p];
  const std::string who =
      partition.kind == PartitionReport::Kind::kCpu ? "CPU" : partition.delegate;
  return fmt::format("P{}: {}", p, who);
}

std::string NodeLabel(const Subgraph& subgraph, int32_t n) {
  return fmt::format("#{} {}", n, LabelText(subgraph.nodes[n].op));
}

std::string TensorDescription(const Subgraph& subgraph, int32_t t) {
  return fmt::format("tensor {} {} ({})", t, LabelText(subgraph.tensors[t].name),
                     HumanBytes(subgraph.tensors[t].bytes_or_zero()));
}

// Every reason the report gives for a node, one per line.
std::map<int32_t, std::string> ReasonsByNode(const SubgraphReport& report) {
  std::map<int32_t, std::string> reasons;
  for (const UnsupportedNode& u : report.unsupported) {
    std::string& text = reasons[u.node];
    if (!text.empty()) text += "\\n";
    text += LabelText(fmt::format("not supported by {}: {}", u.delegate, u.reason));
  }
  return reasons;
}

// Declares every attribute the drawing sets, with the look shared by all objects as defaults.
void DeclareAttributes(GraphvizGraph& graph) {
  graph.Declare(AGRAPH, "rankdir", "TB");
  // Partitions interleave in execution order, so clusters share ranks. dot's default cluster
  // ranking then fails ("trouble in init_rank") and Graphviz 2.42 goes on to a double free in
  // spline routing; the global ranking of newrank handles interleaved clusters.
  graph.Declare(AGRAPH, "newrank", "true");
  graph.Declare(AGRAPH, "fontname", kFont);
  graph.Declare(AGRAPH, "label", "");
  graph.Declare(AGRAPH, "labelloc", "t");
  graph.Declare(AGRAPH, "size", "");
  graph.Declare(AGRAPH, "style", "");
  graph.Declare(AGRAPH, "color", "");
  graph.Declare(AGRAPH, "fillcolor", "");
  graph.Declare(AGRAPH, "penwidth", "1");
  graph.Declare(AGNODE, "shape", "box");
  graph.Declare(AGNODE, "style", "rounded,filled");
  graph.Declare(AGNODE, "fillcolor", "white");
  graph.Declare(AGNODE, "color", "black");
  graph.Declare(AGNODE, "penwidth", "1");
  graph.Declare(AGNODE, "fontname", kFont);
  graph.Declare(AGNODE, "fontsize", "10");
  graph.Declare(AGNODE, "label", "\\N");
  graph.Declare(AGNODE, "tooltip", "");
  graph.Declare(AGEDGE, "color", kInternalEdgeColour);
  graph.Declare(AGEDGE, "penwidth", "1");
  graph.Declare(AGEDGE, "fontname", kFont);
  graph.Declare(AGEDGE, "fontsize", "9");
  graph.Declare(AGEDGE, "label", "");
  graph.Declare(AGEDGE, "tooltip", "");
  graph.Declare(AGEDGE, "style", "");
}

// Graph inputs and outputs drawn as ellipses, keyed by tensor.
struct IoNodes {
  std::map<int32_t, Agnode_t*> inputs;
  std::map<int32_t, Agnode_t*> outputs;
};

IoNodes AddIoNodes(GraphvizGraph& graph, const Subgraph& subgraph, const PartitionView& view) {
  IoNodes io;
  for (const TensorEdge& edge : view.edges) {
    const bool is_input = edge.from_node < 0;
    const bool is_output = edge.to_node < 0;
    if (!is_input && !is_output) continue;
    std::map<int32_t, Agnode_t*>& nodes = is_input ? io.inputs : io.outputs;
    if (nodes.count(edge.tensor) > 0) continue;
    Agnode_t* node = graph.AddNode(
        graph.root(), fmt::format("{}_t{}", is_input ? "input" : "output", edge.tensor));
    graph.Set(node, "shape", "ellipse");
    graph.Set(node, "style", "filled");
    graph.Set(node, "fillcolor", "#fffbe6");
    graph.Set(node, "label",
              fmt::format("{}\\n{}\\n{}", is_input ? "input" : "output",
                          LabelText(subgraph.tensors[edge.tensor].name), HumanBytes(edge.bytes)));
    graph.Set(node, "tooltip", TensorDescription(subgraph, edge.tensor));
    nodes[edge.tensor] = node;
  }
  return io;
}

// Delegate partitions: what the report counts as copied on every inference, and the weights
// uploaded once at init; a delegate that reads TFLite's buffers in place copies nothing.
std::string CopyLines(const SubgraphReport& report, size_t p) {
  const PartitionReport& partition = report.partitions[p];
  if (partition.kind != PartitionReport::Kind::kDelegate) return "";
  if (partition.in_place) return "\\nin place: nothing copied";
  std::string lines =
      fmt::format("\\ncopied per inference: {} in, {} out", HumanBytes(partition.bytes_to_delegate),
                  HumanBytes(partition.bytes_from_delegate));
  if (partition.init_upload_bytes > 0)
    lines += fmt::format("\\nuploaded once: {}", HumanBytes(partition.init_upload_bytes));
  return lines;
}

// The graph's caption: what the edges mean, and what the collapsed picture folded away.
void SetLegend(GraphvizGraph& graph, const std::string& folded) {
  graph.Set(graph.root(), "label",
            "bold edges: tensors copied on every inference (bytes); dashed edges: tensors that "
            "cross partitions without a copy; \"uploaded once\": weights a delegate uploads at "
            "init" +
                folded);
  graph.Set(graph.root(), "labelloc", "b");
}

// A tensor crossing a partition boundary: bold and labelled with its bytes when the report counts
// it as a copy, dashed and unlabelled when it crosses without one.
void StyleBoundaryEdge(GraphvizGraph& graph, Agedge_t* edge, uint64_t copied_bytes, bool copied,
                       const std::string& tooltip) {
  graph.Set(edge, "color", kBoundaryEdgeColour);
  graph.Set(edge, "tooltip", tooltip);
  if (!copied) {
    graph.Set(edge, "style", "dashed");
    return;
  }
  graph.Set(edge, "penwidth", "2");
  graph.Set(edge, "label", HumanBytes(copied_bytes));
}

void DrawNodes(GraphvizGraph& graph, const Subgraph& subgraph, const SubgraphReport& report,
               const PartitionView& view) {
  std::vector<Agraph_t*> clusters;
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    const PartitionColour colour = ColourForPartition(report.partitions[p]);
    Agraph_t* cluster = graph.AddSubgraph(graph.root(), fmt::format("cluster_p{}", p));
    graph.Set(cluster, "label",
              fmt::format("{} ({} nodes){}", LabelText(PartitionTitle(report, p)),
                          view.partitions[p].node_count, CopyLines(report, p)));
    graph.Set(cluster, "style", "filled,rounded");
    graph.Set(cluster, "color", colour.stroke);
    graph.Set(cluster, "fillcolor", colour.fill);
    graph.Set(cluster, "penwidth", "2");
    clusters.push_back(cluster);
  }
  const std::map<int32_t, std::string> reasons = ReasonsByNode(report);
  std::vector<Agnode_t*> nodes(subgraph.nodes.size(), nullptr);
  for (size_t n = 0; n < subgraph.nodes.size(); ++n) {
    if (subgraph.nodes[n].kind == NodeKind::kDelegateKernel) continue;
    if (view.constant_only_node[n]) continue;  // drawn as weights are: not at all
    const int32_t p = view.partition_of_node[n];
    Agraph_t* parent = p == kOutsidePartitions ? graph.root() : clusters[p];
    Agnode_t* node = graph.AddNode(parent, fmt::format("n{}", n));
    const int32_t index = static_cast<int32_t>(n);
    graph.Set(node, "label", NodeLabel(subgraph, index));
    if (p != kOutsidePartitions)
      graph.Set(node, "color", ColourForPartition(report.partitions[p]).stroke);
    auto reason = reasons.find(index);
    // A node one delegate rejects and the next takes is no CPU node: no red border for it.
    const bool on_cpu =
        p == kOutsidePartitions || report.partitions[p].kind == PartitionReport::Kind::kCpu;
    if (reason == reasons.end() || !on_cpu) {
      graph.Set(node, "tooltip", NodeLabel(subgraph, index));
      nodes[n] = node;
      continue;
    }
    graph.Set(node, "color", kUnsupportedColour);
    graph.Set(node, "penwidth", "3");
    graph.Set(node, "tooltip", NodeLabel(subgraph, index) + "\\n" + reason->second);
    nodes[n] = node;
  }

  // A partition of weight nodes only would vanish: one box stands for them.
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    const SubsetIds& members = report.partitions[p].nodes;
    const bool all_folded = std::all_of(members.begin(), members.end(), [&](int32_t n) {
      return view.constant_only_node[static_cast<size_t>(n)];
    });
    if (members.empty() || !all_folded) continue;
    Agnode_t* folded = graph.AddNode(clusters[p], fmt::format("folded_p{}", p));
    graph.Set(
        folded, "label",
        fmt::format("{} weight node{} (folded)", members.size(), members.size() == 1 ? "" : "s"));
    graph.Set(folded, "style", "rounded,dashed");
  }

  SetLegend(graph, "");
  const IoNodes io = AddIoNodes(graph, subgraph, view);
  for (const TensorEdge& edge : view.edges) {
    Agnode_t* tail = edge.from_node < 0 ? io.inputs.at(edge.tensor) : nodes[edge.from_node];
    Agnode_t* head = edge.to_node < 0 ? io.outputs.at(edge.tensor) : nodes[edge.to_node];
    Agedge_t* drawn = graph.AddEdge(tail, head);
    const std::string tooltip = TensorDescription(subgraph, edge.tensor);
    if (edge.crosses_boundary()) {
      StyleBoundaryEdge(graph, drawn, edge.bytes, edge.copied,
                        tooltip + (edge.copied ? "" : ", crosses without a copy"));
    } else {
      graph.Set(drawn, "tooltip", tooltip);
    }
  }
}

// One partition's box: title, node count and range, most frequent ops, the report's copies and
// uploads, and its unsupported nodes (listed in the tooltip).
Agnode_t* DrawPartitionBox(GraphvizGraph& graph, const Subgraph& subgraph,
                           const SubgraphReport& report, const PartitionView& view,
                           const std::map<int32_t, std::string>& reasons, size_t p) {
  const PartitionSummary& summary = view.partitions[p];
  const PartitionColour colour = ColourForPartition(report.partitions[p]);
  Agnode_t* box = graph.AddNode(graph.root(), fmt::format("p{}", p));
  std::string label =
      fmt::format("{}\\n{} nodes", LabelText(PartitionTitle(report, p)), summary.node_count);
  if (summary.node_count > 0)
    label += fmt::format(" (#{}–#{})", summary.first_node, summary.last_node);
  label += "\\n" + LabelText(summary.op_summary) + CopyLines(report, p);
  graph.Set(box, "fillcolor", colour.fill);
  graph.Set(box, "color", colour.stroke);
  graph.Set(box, "penwidth", "2");
  std::string tooltip = label;
  if (summary.unsupported_nodes > 0) {
    label += fmt::format("\\n{} unsupported", summary.unsupported_nodes);
    graph.Set(box, "color", kUnsupportedColour);
    graph.Set(box, "penwidth", "3");
    size_t listed = 0;
    for (int32_t n : report.partitions[p].nodes) {
      auto reason = reasons.find(n);
      if (reason == reasons.end()) continue;
      if (listed++ == kMaxUnsupportedInTooltip) {
        tooltip += "\\n…";
        break;
      }
      tooltip += "\\n" + NodeLabel(subgraph, n) + ": " + reason->second;
    }
  }
  graph.Set(box, "label", label);
  graph.Set(box, "tooltip", tooltip);
  return box;
}

// Consecutive delegate partitions drawn as one dashed box: their nodes, ops, copies and uploads
// (the report's, summed); the tooltip lists them one by one. A CPU partition never joins one.
Agnode_t* DrawGroupBox(GraphvizGraph& graph, const Subgraph& subgraph, const SubgraphReport& report,
                       const PartitionView& view, const std::vector<size_t>& group) {
  size_t nodes = 0;
  int32_t first = -1, last = -1;
  uint64_t copied_in = 0, copied_out = 0, uploaded = 0;
  bool all_in_place = true;
  std::vector<int32_t> members;
  std::string tooltip;
  for (size_t p : group) {
    const PartitionReport& partition = report.partitions[p];
    const PartitionSummary& summary = view.partitions[p];
    copied_in += partition.bytes_to_delegate;
    copied_out += partition.bytes_from_delegate;
    uploaded += partition.init_upload_bytes;
    all_in_place = all_in_place && partition.in_place;
    nodes += summary.node_count;
    if (summary.node_count > 0) {
      first = first < 0 ? summary.first_node : std::min(first, summary.first_node);
      last = std::max(last, summary.last_node);
    }
    members.insert(members.end(), partition.nodes.begin(), partition.nodes.end());
    if (!tooltip.empty()) tooltip += "\\n";
    tooltip += fmt::format("{}: {} nodes{}", LabelText(PartitionTitle(report, p)),
                           summary.node_count, CopyLines(report, p));
  }
  std::string label = fmt::format("P{}–P{}: {} delegated partitions\\n{} nodes", group.front(),
                                  group.back(), group.size(), nodes);
  if (first >= 0) label += fmt::format(" (#{}–#{})", first, last);
  label += "\\n" + LabelText(SummarizeOps(subgraph, members));
  if (all_in_place) {
    label += "\\nin place: nothing copied";
  } else {
    label += fmt::format("\\ncopied per inference: {} in, {} out", HumanBytes(copied_in),
                         HumanBytes(copied_out));
  }
  if (uploaded > 0) label += fmt::format("\\nuploaded once: {}", HumanBytes(uploaded));
  const PartitionColour colour = ColourForPartition(report.partitions[group.front()]);
  Agnode_t* box = graph.AddNode(graph.root(), fmt::format("p{}_p{}", group.front(), group.back()));
  graph.Set(box, "fillcolor", colour.fill);
  graph.Set(box, "color", colour.stroke);
  graph.Set(box, "penwidth", "2");
  graph.Set(box, "style", "rounded,filled,dashed");
  graph.Set(box, "label", label);
  graph.Set(box, "tooltip", tooltip);
  return box;
}

// The boxes of the collapsed picture: past kMaxOverviewBoxes, consecutive delegate partitions
// share a box, up to `per_box` to one; a CPU partition always has a box of its own, so the CPU
// islands between delegated parts stay in sight whatever the model's size.
std::vector<std::vector<size_t>> OverviewBoxes(const SubgraphReport& report,
                                               const std::vector<size_t>& drawn, size_t per_box) {
  auto on_cpu = [&](size_t p) { return report.partitions[p].kind == PartitionReport::Kind::kCpu; };
  std::vector<std::vector<size_t>> boxes;
  for (size_t p : drawn) {
    const bool joins = !boxes.empty() && !on_cpu(p) && !on_cpu(boxes.back().front()) &&
                       boxes.back().size() < per_box;
    if (joins) {
      boxes.back().push_back(p);
    } else {
      boxes.push_back({p});
    }
  }
  return boxes;
}

// Collapsed: one box per partition (consecutive delegate partitions share a box when there are
// more than kMaxOverviewBoxes, OverviewBoxes), one more for nodes no partition lists (if
// any), the graph's inputs and outputs, and one edge per pair of boxes that exchange tensors.
void DrawCollapsed(GraphvizGraph& graph, const Subgraph& subgraph, const SubgraphReport& report,
                   const PartitionView& view) {
  const std::map<int32_t, std::string> reasons = ReasonsByNode(report);
  std::vector<Agnode_t*> boxes(report.partitions.size(), nullptr);
  size_t folded_partitions = 0;
  size_t folded_nodes = 0;
  std::vector<size_t> drawn;
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    const PartitionSummary& summary = view.partitions[p];
    // Weight nodes only: their outputs are weights, which the consumers' boxes count as uploaded
    // once; no tensor of theirs moves per inference, so no edge would reach the box.
    if (summary.weights_only()) {
      ++folded_partitions;
      folded_nodes += summary.node_count;
      continue;
    }
    drawn.push_back(p);
  }
  const size_t per_box =
      std::max<size_t>(1, (drawn.size() + kMaxOverviewBoxes - 1) / kMaxOverviewBoxes);
  bool grouped = false;
  for (const std::vector<size_t>& group : OverviewBoxes(report, drawn, per_box)) {
    grouped = grouped || group.size() > 1;
    Agnode_t* box = group.size() == 1
                        ? DrawPartitionBox(graph, subgraph, report, view, reasons, group.front())
                        : DrawGroupBox(graph, subgraph, report, view, group);
    for (size_t p : group) boxes[p] = box;
  }
  std::string caption;
  if (folded_partitions > 0) {
    caption += fmt::format(
        "\\n{} partition{} of weight nodes only ({} node{}) folded into their "
        "consumers",
        folded_partitions, folded_partitions == 1 ? "" : "s", folded_nodes,
        folded_nodes == 1 ? "" : "s");
  }
  if (grouped) {
    caption += fmt::format(
        "\\n{} partitions, up to {} consecutive delegated ones to a dashed box, every CPU "
        "partition in a box of its own (report --html lists each)",
        drawn.size(), per_box);
  }
  SetLegend(graph, caption);
  // An overview is for one screen: Graphviz scales a larger layout down to 20.8 inches, under
  // 2,000 px at the PNG renderer's 96 dpi. Grouping keeps that rare.
  graph.Set(graph.root(), "size", kOverviewInches);
  Agnode_t* unpartitioned = nullptr;
  auto box_of_node = [&](int32_t n) {
    const int32_t p = view.partition_of_node[n];
    if (p != kOutsidePartitions) return boxes[p];
    if (unpartitioned == nullptr) {
      unpartitioned = graph.AddNode(graph.root(), "unpartitioned");
      graph.Set(unpartitioned, "label", "nodes in no partition");
      graph.Set(unpartitioned, "style", "rounded,dashed");
    }
    return unpartitioned;
  };

  const IoNodes io = AddIoNodes(graph, subgraph, view);
  // Distinct tensors per (tail, head) pair, in first-seen order so the layout is deterministic;
  // those the report counts as copied apart.
  struct Crossing {
    std::set<int32_t> tensors;
    std::set<int32_t> copied;
  };
  std::vector<std::pair<Agnode_t*, Agnode_t*>> order;
  std::map<std::pair<Agnode_t*, Agnode_t*>, Crossing> crossings;
  for (const TensorEdge& edge : view.edges) {
    if (!edge.crosses_boundary() && edge.from_node >= 0 && edge.to_node >= 0) continue;
    Agnode_t* tail = edge.from_node < 0 ? io.inputs.at(edge.tensor) : box_of_node(edge.from_node);
    Agnode_t* head = edge.to_node < 0 ? io.outputs.at(edge.tensor) : box_of_node(edge.to_node);
    if (tail == head || tail == nullptr || head == nullptr) continue;
    auto [it, inserted] = crossings.try_emplace({tail, head});
    if (inserted) order.push_back({tail, head});
    it->second.tensors.insert(edge.tensor);
    if (edge.copied) it->second.copied.insert(edge.tensor);
  }
  for (const auto& ends : order) {
    const Crossing& crossing = crossings.at(ends);
    uint64_t copied_bytes = 0;
    std::string tooltip;
    for (int32_t t : crossing.tensors) {
      const bool copied = crossing.copied.count(t) > 0;
      if (copied) copied_bytes += subgraph.tensors[t].bytes_or_zero();
      if (!tooltip.empty()) tooltip += "\\n";
      tooltip += TensorDescription(subgraph, t) + (copied ? "" : ", crosses without a copy");
    }
    StyleBoundaryEdge(graph, graph.AddEdge(ends.first, ends.second), copied_bytes,
                      !crossing.copied.empty(), tooltip);
  }
}

}  // namespace

Result<GraphFormat> GraphFormatFromPath(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  std::string extension = dot == std::string::npos ? "" : path.substr(dot + 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == "dot" || extension == "gv") return GraphFormat::kDot;
  if (extension == "svg") return GraphFormat::kSvg;
  if (extension == "png") return GraphFormat::kPng;
  return Status::Error(path + ": unknown picture format (use .dot, .gv, .svg or .png)");
}

Result<std::string> RenderPartitionGraph(const Subgraph& subgraph, const SubgraphReport& report,
                                         GraphFormat format, const PartitionGraphOptions& options) {
  Result<PartitionView> view = BuildPartitionView(subgraph, report);
  if (!view.ok()) return view.status();
  GraphvizGraph graph(fmt::format("subgraph {}", report.index));
  DeclareAttributes(graph);
  if (options.collapse) {
    DrawCollapsed(graph, subgraph, report, *view);
  } else {
    DrawNodes(graph, subgraph, report, *view);
  }
  switch (format) {
    case GraphFormat::kDot:
      return graph.WriteDot();
    case GraphFormat::kSvg:
      return graph.Render("dot", "svg");
    case GraphFormat::kPng:
      return graph.Render("dot", "png");
  }
  return Status::Error("unknown graph format");
}

Status WritePartitionGraph(const Subgraph& subgraph, const SubgraphReport& report,
                           const PartitionGraphOptions& options, const std::string& path) {
  Result<GraphFormat> format = GraphFormatFromPath(path);
  if (!format.ok()) return format.status();
  Result<std::string> rendered = RenderPartitionGraph(subgraph, report, *format, options);
  if (!rendered.ok()) return rendered.status().WithContext(path);
  return WriteOutputFile(path, *rendered);
}

}  // namespace tfa::viz
