// The delegate-side choice of nodes to hand to ReplaceNodeSubsetsWithDelegateKernels:
// upstream's GraphPartitionHelper and FP16GraphPartitionHelper (tflite/delegates/utils.cc).
#ifndef LIBANALYSIS_DELEGATION_NODE_SELECTION_H_
#define LIBANALYSIS_DELEGATION_NODE_SELECTION_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/delegation/partition_validation.h"
#include "libanalysis/model/graph.h"

namespace tfa {

struct NodeSelectionOptions {
  // Keep at most this many partitions, largest first. As upstream's helper, 0 or less keeps
  // none; the GPU delegate turns 0 or less into 1 before asking, a caller's job.
  int max_partitions = std::numeric_limits<int>::max();
  // Stop at the first partition (largest first) with fewer nodes than this.
  int min_nodes_per_partition = 0;
  // The interpreter's clustering mode, used for the preview partitioning.
  bool greedy = true;
  // FP16GraphPartitionHelper: constant fp16 -> fp32 DEQUANTIZE nodes are held back and the
  // selected nodes read the fp16 constants directly.
  bool fp16_helper = false;
};

// One input of one node pointed at another tensor (the fp16 helper's remapping).
struct InputRemap {
  int32_t node = 0;
  int32_t input_position = 0;
  int32_t from_tensor = 0;
  int32_t to_tensor = 0;

  bool operator==(const InputRemap&) const = default;
};

struct NodeSelection {
  // What the delegate passes to ReplaceNodeSubsetsWithDelegateKernels, in upstream's order:
  // the kept partitions largest first, each in subset order; with the fp16 helper's full
  // delegation, the whole execution plan in plan order.
  std::vector<int32_t> nodes_to_replace;
  // The delegate subsets of the preview partitioning, in plan order (upstream's partitions_).
  std::vector<NodeSubset> candidate_partitions;
  // Supported planned nodes (upstream's num_supported_nodes()); fp16 DEQUANTIZE nodes excluded.
  int supported_node_count = 0;
  // fp16 helper: the constant fp16 DEQUANTIZE nodes found, in plan order.
  std::vector<int32_t> constant_dequantize_nodes;
  // fp16 helper: every planned node is supported or such a DEQUANTIZE (upstream's "Scenario 1").
  bool full_delegation = false;
  // fp16 helper: inputs of the selected nodes that upstream rewires from a DEQUANTIZE output to
  // its fp16 constant. Upstream leaves them rewired, so apply them (ApplyInputRemaps) before
  // ReplaceNodeSubsetsWithDelegateKernels.
  std::vector<InputRemap> input_remaps;
  // The partitioning of `nodes_to_replace` on this graph (PartitionOptions{.greedy =
  // options.greedy}) when the preview's is that one: every candidate kept and no input remapped.
  // The delegate kernels are then built from it, not from a second partitioning of a large graph.
  std::optional<std::vector<NodeSubset>> partitioning;
};

// Chooses the nodes a delegate replaces. `supported[i]` is the delegate's verdict on node i
// (indexed by node index, one entry per node; only planned nodes are asked). With the fp16
// helper, upstream shows the delegate's predicate each node with inputs already rewired to the
// fp16 constants of DEQUANTIZE nodes met earlier in the plan: compute `supported` that way.
//
// As upstream: the preview partitioning is taken with the DEQUANTIZE nodes still in the graph
// (on the CPU), so the partitions counted and ranked are not those of the rewired graph; the
// ranking is std::sort by node count, descending, which leaves ties in libstdc++'s introsort
// order (plan order up to 16 partitions; upstream built with libc++ may order ties otherwise).
Result<NodeSelection> SelectNodesToReplace(const Subgraph& subgraph,
                                           const std::vector<bool>& supported,
                                           const NodeSelectionOptions& options);
// The same on a subgraph already checked (ValidSubgraph), as one delegation passes it along.
Result<NodeSelection> SelectNodesToReplace(const ValidSubgraph& subgraph,
                                           const std::vector<bool>& supported,
                                           const NodeSelectionOptions& options);

// A copy of `subgraph` with the remapped inputs pointed at their new tensors.
Subgraph ApplyInputRemaps(const Subgraph& subgraph, const std::vector<InputRemap>& remaps);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_NODE_SELECTION_H_
