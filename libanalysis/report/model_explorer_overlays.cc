#include "libanalysis/report/model_explorer_overlays.h"

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>

#include "libanalysis/report/cpu_nodes.h"
#include "libanalysis/report/delegate_colour.h"
#include "libanalysis/report/live_arena_bytes.h"
#include "libanalysis/report/model_explorer_ids.h"

namespace tfa {
namespace {

// A node a delegate rejected: light red, as the pictures mark unsupported nodes red.
constexpr const char* kRejectedFill = "#f6cfcf";

// Gradients run light to dark, so that the node labels stay readable (the UI turns them white on
// dark fills).
struct Stop {
  double stop;
  const char* colour;
};
constexpr std::array<Stop, 3> kCopyGradient = {{{0, "#fff5eb"}, {0.5, "#fd8d3c"}, {1, "#a63603"}}};
constexpr std::array<Stop, 2> kOffsetGradient = {{{0, "#f7fbff"}, {1, "#2171b5"}}};
constexpr std::array<Stop, 2> kSizeGradient = {{{0, "#fcfbfd"}, {1, "#6a51a3"}}};
constexpr std::array<Stop, 3> kLiveGradient = {{{0, "#ffffcc"}, {0.5, "#fd8d3c"}, {1, "#bd0026"}}};

template <size_t N>
std::vector<GradientStop> Gradient(const std::array<Stop, N>& stops) {
  std::vector<GradientStop> gradient;
  for (const Stop& s : stops) gradient.push_back({s.stop, s.colour});
  return gradient;
}

// Entries by model node, written out in node order.
using NodeEntries = std::vector<std::optional<NodeDataResult>>;

GraphNodeData InNodeOrder(NodeEntries entries, std::vector<GradientStop> gradient = {}) {
  GraphNodeData data;
  for (size_t n = 0; n < entries.size(); ++n) {
    if (!entries[n]) continue;
    data.results.emplace_back(ModelExplorerNodeId(static_cast<int32_t>(n)), std::move(*entries[n]));
  }
  data.gradient = std::move(gradient);
  return data;
}

bool Lists(std::span<const int32_t> tensors, int32_t tensor) {
  return std::find(tensors.begin(), tensors.end(), tensor) != tensors.end();
}

// Every node in its partition's delegate colour; a node left on the CPU says why when a delegate
// was asked (cpu_nodes.h), in light red when a delegate rejected it.
GraphNodeData DelegateOverlay(const SubgraphPlan& sp, const SubgraphReport& sr,
                              const std::vector<std::string>& delegates) {
  NodeEntries entries(sp.model_nodes);
  std::set<int32_t> rejected;
  for (const UnsupportedNode& u : sr.unsupported) rejected.insert(u.node);
  std::map<int32_t, std::string> cpu_reasons;
  for (CpuNode& c : NodesLeftOnCpu(sr, *sp.delegated, delegates)) {
    cpu_reasons.emplace(c.node, std::move(c.reason));
  }
  for (const PartitionReport& p : sr.partitions) {
    for (int32_t n : p.nodes) {
      if (n < 0 || static_cast<size_t>(n) >= entries.size()) continue;
      NodeDataResult& entry = entries[static_cast<size_t>(n)].emplace();
      if (p.kind == PartitionReport::Kind::kDelegate) {
        entry = {p.delegate, ColourOfDelegate(p.delegate).fill};
        continue;
      }
      auto reason = cpu_reasons.find(n);
      entry.value = reason == cpu_reasons.end() ? "cpu" : "cpu: " + reason->second;
      entry.bg_color = rejected.count(n) ? kRejectedFill : CpuColour().fill;
    }
  }
  GraphNodeData data = InNodeOrder(std::move(entries));
  data.show_expanded_summary_on_group_node = true;
  data.show_label_count_columns_in_children_stats_table = true;
  return data;
}

// Each delegated partition's per-inference copies (docs/copy-costs.md, as the report counts them)
// on the node that reads the copied input first, or writes the copied output.
GraphNodeData CopyOverlay(const SubgraphPlan& sp, const SubgraphReport& sr) {
  const Subgraph& nodes_graph = *sp.delegated;
  const Subgraph& sized = sp.memory ? *sp.memory->prepared : *sp.delegated;
  std::vector<uint64_t> bytes(sp.model_nodes, 0);
  auto add = [&](int32_t node, int32_t tensor) {
    if (node < 0 || static_cast<size_t>(node) >= bytes.size()) return;
    bytes[static_cast<size_t>(node)] += sized.tensors[static_cast<size_t>(tensor)].bytes_or_zero();
  };
  for (const PartitionReport& p : sr.partitions) {
    // A delegate working on TFLite's buffers in place (XNNPACK) copies nothing.
    if (p.kind != PartitionReport::Kind::kDelegate || p.in_place || p.nodes.empty()) continue;
    auto node_that = [&](int32_t tensor, bool reads) {
      for (int32_t n : p.nodes) {
        const Node& node = nodes_graph.nodes[static_cast<size_t>(n)];
        if (Lists(reads ? node.inputs : node.outputs, tensor)) return n;
      }
      // A tensor no replaced node lists itself (the delegate kernel's own): its partition's
      // first node takes what comes in, its last what goes out.
      return reads ? p.nodes.front() : p.nodes.back();
    };
    for (int32_t t : p.inputs) {
      if (t < 0 || IsMadeOnce(sized.tensors[static_cast<size_t>(t)])) continue;
      add(node_that(t, true), t);
    }
    for (int32_t t : p.outputs) {
      if (t >= 0) add(node_that(t, false), t);
    }
  }
  // An accelerator custom op (the Edge TPU's) moves its inputs and outputs as the report counts.
  if (sr.accelerators) {
    for (const AcceleratorSegment& segment : sr.accelerators->segments) {
      if (segment.node < 0 || static_cast<size_t>(segment.node) >= bytes.size()) continue;
      bytes[static_cast<size_t>(segment.node)] += segment.bytes_in + segment.bytes_out;
    }
  }
  NodeEntries entries(sp.model_nodes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    if (bytes[n] > 0) entries[n] = NodeDataResult{bytes[n], ""};
  }
  return InNodeOrder(std::move(entries), Gradient(kCopyGradient));
}

// Where each node's outputs lie in the non-persistent arena: the offset of the first output
// there, and the bytes of all of them. Outputs a delegate keeps to itself have no arena bytes.
std::pair<GraphNodeData, GraphNodeData> ArenaOverlays(const SubgraphPlan& sp) {
  NodeEntries offsets(sp.model_nodes), sizes(sp.model_nodes);
  const std::vector<TensorPlacement>& placements = sp.memory->plan.tensors;
  for (size_t n = 0; n < sp.model_nodes; ++n) {
    for (int32_t t : sp.delegated->nodes[n].outputs) {
      if (t < 0 || static_cast<size_t>(t) >= placements.size()) continue;
      const TensorPlacement& placement = placements[static_cast<size_t>(t)];
      if (placement.arena != ArenaKind::kRw) continue;
      if (!offsets[n]) offsets[n] = NodeDataResult{placement.offset, ""};
      if (!sizes[n]) sizes[n] = NodeDataResult{uint64_t{0}, ""};
      std::get<uint64_t>(sizes[n]->value) += placement.size;
    }
  }
  return {InNodeOrder(std::move(offsets), Gradient(kOffsetGradient)),
          InNodeOrder(std::move(sizes), Gradient(kSizeGradient))};
}

// The live arena bytes at the step each node runs at; a delegated node runs at its kernel's step.
GraphNodeData LiveArenaOverlay(const SubgraphPlan& sp) {
  const Subgraph& planned = *sp.memory->prepared;
  const std::vector<uint64_t> live = LiveArenaBytes(sp.memory->plan);
  const std::vector<int32_t> steps =
      planned.execution_plan.empty() ? IdentityExecutionPlan(planned) : planned.execution_plan;
  NodeEntries entries(sp.model_nodes);
  auto set = [&](int32_t node, uint64_t bytes) {
    if (node >= 0 && static_cast<size_t>(node) < entries.size())
      entries[static_cast<size_t>(node)] = NodeDataResult{bytes, ""};
  };
  for (size_t step = 0; step < steps.size() && step < live.size(); ++step) {
    const Node& node = planned.nodes[static_cast<size_t>(steps[step])];
    if (node.kind != NodeKind::kDelegateKernel) {
      set(steps[step], live[step]);
      continue;
    }
    for (int32_t replaced : node.replaces) set(replaced, live[step]);
  }
  return InNodeOrder(std::move(entries), Gradient(kLiveGradient));
}

}  // namespace

std::vector<ModelExplorerOverlay> ModelExplorerOverlays(const ModelPlan& plan,
                                                        const Report& report) {
  std::vector<ModelExplorerOverlay> overlays = {
      {"delegate.json", {}},   {"copy_bytes.json", {}}, {"arena_offset.json", {}},
      {"arena_size.json", {}}, {"live_arena.json", {}},
  };
  for (const SubgraphReport& sr : report.subgraphs) {
    if (sr.index < 0 || static_cast<size_t>(sr.index) >= plan.subgraphs.size()) continue;
    const SubgraphPlan& sp = plan.subgraphs[static_cast<size_t>(sr.index)];
    const std::string graph = ModelExplorerGraphId(sr.index, sp.delegated->name, plan.signatures);
    overlays[0].data.graphs.emplace_back(graph, DelegateOverlay(sp, sr, report.delegates));
    overlays[1].data.graphs.emplace_back(graph, CopyOverlay(sp, sr));
    if (!sp.memory || !sp.memory->planned) continue;
    auto [offsets, sizes] = ArenaOverlays(sp);
    overlays[2].data.graphs.emplace_back(graph, std::move(offsets));
    overlays[3].data.graphs.emplace_back(graph, std::move(sizes));
    overlays[4].data.graphs.emplace_back(graph, LiveArenaOverlay(sp));
  }
  return overlays;
}

std::string ModelNodeDataJson(const ModelNodeData& data, int indent) {
  nlohmann::ordered_json file = nlohmann::ordered_json::object();
  for (const auto& [graph_id, graph] : data.graphs) {
    nlohmann::ordered_json& g = file[graph_id];
    g["results"] = nlohmann::ordered_json::object();
    for (const auto& [node_id, result] : graph.results) {
      nlohmann::ordered_json& r = g["results"][node_id];
      std::visit([&](const auto& value) { r["value"] = value; }, result.value);
      if (!result.bg_color.empty()) r["bgColor"] = result.bg_color;
    }
    if (!graph.gradient.empty()) {
      g["gradient"] = nlohmann::ordered_json::array();
      for (const GradientStop& stop : graph.gradient) {
        g["gradient"].push_back({{"stop", stop.stop}, {"bgColor", stop.bg_color}});
      }
    }
    if (graph.show_expanded_summary_on_group_node) g["showExpandedSummaryOnGroupNode"] = true;
    if (graph.show_label_count_columns_in_children_stats_table) {
      g["showLabelCountColumnsInChildrenStatsTable"] = true;
    }
  }
  return file.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfa
