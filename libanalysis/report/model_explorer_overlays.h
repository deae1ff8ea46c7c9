// What tflite-analyze predicts for each node, as Model Explorer's node data ("overlays"): one
// file per figure, each keyed by graph id and node id exactly as Model Explorer's built-in
// TFLite adapter names them (model_explorer_ids.h), so that loaded beside the .tflite they colour
// its nodes. The format is Model Explorer's ModelNodeData (google-ai-edge/model-explorer,
// src/server/package/src/model_explorer/node_data_builder.py; the UI's NodeDataProviderGraphData
// in src/ui/src/components/visualizer/common/types.ts): {graph id: {"results": {node id:
// {"value", "bgColor"?}}, "gradient"?, ...}}.
//
// The overlays, one file each (docs/model-explorer.md):
//   delegate.json     which delegate runs each node (its colour everywhere), or "cpu" and why;
//   copy_bytes.json   bytes copied across a CPU/delegate boundary on every inference, on the
//                     delegated node that reads the copied tensor or writes it;
//   arena_offset.json where each node's output lies in the non-persistent arena;
//   arena_size.json   the arena bytes of each node's outputs;
//   live_arena.json   the arena bytes live while the node runs (its whole delegate kernel's step).
// Nodes with nothing to show (no arena output, no copy) have no entry: they stay uncoloured.
#ifndef LIBANALYSIS_REPORT_MODEL_EXPLORER_OVERLAYS_H_
#define LIBANALYSIS_REPORT_MODEL_EXPLORER_OVERLAYS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/report.h"

namespace tfa {

// One node's entry (NodeDataResult upstream).
struct NodeDataResult {
  std::variant<uint64_t, std::string> value;
  std::string bg_color;  // empty: the graph's gradient colours numbers
};

// A colour stop (GradientItem upstream): 0 is the smallest value of the graph, 1 the largest.
struct GradientStop {
  double stop = 0;
  std::string bg_color;  // "#rrggbb": the UI interpolates hex colours only
};

// One graph's node data (GraphNodeData upstream).
struct GraphNodeData {
  std::vector<std::pair<std::string, NodeDataResult>> results;  // node id -> entry, node order
  std::vector<GradientStop> gradient;
  // For text values: the group nodes list each value with its share, and the children stats
  // table counts them.
  bool show_expanded_summary_on_group_node = false;
  bool show_label_count_columns_in_children_stats_table = false;
};

// One overlay file (ModelNodeData upstream): every subgraph's graph, in subgraph order.
struct ModelNodeData {
  std::vector<std::pair<std::string, GraphNodeData>> graphs;  // graph id -> its node data
};

struct ModelExplorerOverlay {
  std::string file_name;  // "delegate.json", ...
  ModelNodeData data;
};

// The overlays of `report`, built from `plan` (BuildReport(plan)): the five files above, in that
// order. A subgraph whose arena was not planned has no entries in the arena overlays.
std::vector<ModelExplorerOverlay> ModelExplorerOverlays(const ModelPlan& plan,
                                                        const Report& report);

// The file's text (indent < 0: on one line). Names that are not UTF-8 get U+FFFD.
std::string ModelNodeDataJson(const ModelNodeData& data, int indent = 2);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_MODEL_EXPLORER_OVERLAYS_H_
