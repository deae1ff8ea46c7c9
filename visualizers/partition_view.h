// What the pictures draw of a partitioning, computed once from the Graph IR and the report: which
// partition each node is in, every data edge between nodes (and from graph inputs / to graph
// outputs), which of those cross a partition boundary and which the report counts as copies, and
// a per-partition summary. The figures of copies and uploads are the report's own
// (PartitionReport), never recomputed here.
//
// Only tensors that move at run time are edges: constants (weights), tensors made from constants
// only (the outputs of weight DEQUANTIZE / DENSIFY nodes, made once) and tensors nobody produces
// that are not graph inputs (variables) are left out, so the picture shows data flow, not
// weights. The nodes that make tensors from constants only are marked, so pictures can fold them.
#ifndef VISUALIZERS_PARTITION_VIEW_H_
#define VISUALIZERS_PARTITION_VIEW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa::viz {

inline constexpr int32_t kOutsidePartitions = -1;  // graph inputs/outputs, nodes no partition lists

// One tensor flowing from a producer to a consumer. A tensor read by several nodes is one edge per
// reader; a node reading the same tensor twice is one edge.
struct TensorEdge {
  int32_t tensor = 0;
  int32_t from_node = -1;  // -1: a graph input
  int32_t to_node = -1;    // -1: a graph output
  int32_t from_partition = kOutsidePartitions;
  int32_t to_partition = kOutsidePartitions;
  uint64_t bytes = 0;
  // Copied on every inference, as the report counts copies (PartitionReport): out of a delegate
  // partition that copies, as one of its outputs, or into one, as one of its inputs. A tensor
  // crossing between the CPU and a delegate that reads TFLite's buffers in place (XNNPACK), or
  // between two CPU partitions, crosses without a copy.
  bool copied = false;
  bool crosses_boundary() const { return from_partition != to_partition; }
};

struct PartitionSummary {
  size_t node_count = 0;
  int32_t first_node = -1;  // smallest original node index (-1 when the partition is empty)
  int32_t last_node = -1;
  std::string op_summary;           // most frequent ops first: "CONV_2D×12, ADD×4, RELU×2, …"
  uint64_t boundary_in_bytes = 0;   // distinct tensors read from outside the partition
  uint64_t boundary_out_bytes = 0;  // distinct tensors read outside, or graph outputs
  size_t unsupported_nodes = 0;     // CPU partitions: nodes a delegate rejected
  // Nodes that read constants only (weight DEQUANTIZE / DENSIFY), folded in the pictures.
  size_t weight_nodes = 0;
  // A partition of weight nodes only: nothing in it runs per inference.
  bool weights_only() const { return node_count > 0 && weight_nodes == node_count; }
};

struct PartitionView {
  std::vector<int32_t> partition_of_node;    // per node of the subgraph; kOutsidePartitions if none
  std::vector<bool> constant_only_node;      // per node: reads constants only (made once)
  std::vector<PartitionSummary> partitions;  // parallel to SubgraphReport::partitions
  std::vector<TensorEdge> edges;             // ordered by consumer node, then input position
};

// Fails when the report names a node the subgraph does not have or puts a node in two partitions.
// Delegate kernel nodes of a post-delegation subgraph are skipped: the view is about model nodes.
Result<PartitionView> BuildPartitionView(const Subgraph& subgraph, const SubgraphReport& report);

// "CONV_2D×12, ADD×4, RELU×2, …": the `max_kinds` most frequent ops (ties by name).
std::string SummarizeOps(const Subgraph& subgraph, const std::vector<int32_t>& nodes,
                         size_t max_kinds = 3);

}  // namespace tfa::viz

#endif  // VISUALIZERS_PARTITION_VIEW_H_
