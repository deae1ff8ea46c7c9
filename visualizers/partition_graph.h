// The picture of a subgraph's partitioning (`tflite-analyze dot`): one cluster per partition,
// coloured by delegate (CPU grey), nodes labelled "#index OP", tensors crossing a partition
// boundary drawn as bold edges labelled with their size, CPU nodes a delegate rejected with a red
// border and the delegate's reasons in the tooltip. Graph inputs and outputs are drawn as ellipses;
// constant tensors (weights) are not drawn, and neither are the nodes that make tensors from
// constants only (weight DEQUANTIZE / DENSIFY: run once, their outputs are weights too), which
// would otherwise swamp the picture with fan-out.
//
// Bold edges are tensors the report counts as copied on every inference; dashed edges cross a
// partition boundary without a copy (into a delegate that reads TFLite's buffers in place, such as
// XNNPACK, or between two CPU partitions). A delegate partition's label gives the report's own
// figures: bytes copied in and out per inference and the weights it uploads once at init.
//
// Collapsed mode draws one box per partition (node count, node range, most frequent ops) and one
// edge per pair of partitions that exchange tensors, labelled with the bytes of the distinct
// tensors exchanged: the readable picture for models with thousands of nodes. Partitions of
// weight nodes only are folded away; past ten boxes, consecutive delegate partitions share a
// dashed box (a CPU partition always keeps its own, so no CPU island hides in a delegate's box),
// and the layout is scaled to fit 2,000 px.
//
// Built with Graphviz's cgraph and laid out / rendered in-process with gvc's "dot" layout.
#ifndef VISUALIZERS_PARTITION_GRAPH_H_
#define VISUALIZERS_PARTITION_GRAPH_H_

#include <string>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa::viz {

enum class GraphFormat {
  kDot,  // the graph itself, not laid out
  kSvg,
  kPng,  // binary data in the returned string
};

// ".dot" / ".gv" → kDot, ".svg" → kSvg, ".png" → kPng (case-insensitive); anything else is an
// error naming the path.
Result<GraphFormat> GraphFormatFromPath(const std::string& path);

struct PartitionGraphOptions {
  bool collapse = false;  // one box per partition instead of one per node
};

// `subgraph` is the model's subgraph the report's node indices refer to.
Result<std::string> RenderPartitionGraph(const Subgraph& subgraph, const SubgraphReport& report,
                                         GraphFormat format, const PartitionGraphOptions& options);

// Renders in the format `path`'s extension names and writes the file.
Status WritePartitionGraph(const Subgraph& subgraph, const SubgraphReport& report,
                           const PartitionGraphOptions& options, const std::string& path);

}  // namespace tfa::viz

#endif  // VISUALIZERS_PARTITION_GRAPH_H_
