// The specification of how LiteRT's CompiledModel turns a compiler plugin's selected ops into
// dispatch partitions: a plain transcription of the default partition strategy,
// GroupPartitionsV2 (litert/compiler/plugin/algo.cc, GetPartitionsFromFlatListV2, chosen by
// PartitionSubgraph in litert/compiler/plugin/compiler_plugin.cc), followed by the outlining of
// each partition behind one dispatch op (GraphSlicer::SlicePartitionFromGraph, same file).
// Tests pin the production grouping (plugin_partition.h) to it.
#ifndef LIBANALYSIS_DELEGATION_PLUGIN_PARTITION_REFERENCE_H_
#define LIBANALYSIS_DELEGATION_PLUGIN_PARTITION_REFERENCE_H_

#include <span>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/delegation/plugin_partition.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// Splits `subgraph.execution_plan` into the plugin's partitions (kDelegate) and the ops between
// them (kCpu), in plan order, as upstream does:
//   - every op the plugin did not select gets the partition index one above the largest selected
//     index; walking the ops in order, a partition closes whenever the index changes, and only
//     selected ops are kept: a partition is a maximal run of consecutive selected ops with the
//     same partition index (an unselected op, or a selected one with another index, ends it);
//     a selected op listed twice keeps the index listed last;
//   - no partition is merged, reordered or dropped: upstream's max_partitions compiler option
//     (0, unlimited, by default) is not modelled;
//   - a partition's inputs are the non-constant tensors its ops read and do not produce (graph
//     inputs included): the dispatch op's inputs; constants are cloned into the outlined
//     subgraph instead;
//   - its outputs are the non-constant tensors its ops produce that an op outside it reads, or
//     that are graph outputs: the dispatch op's outputs;
//   - the ops between partitions are grouped the same way (runs of unselected ops), with their
//     boundary tensors found by the same rules, so that the list covers the whole plan.
// Upstream sorts the main subgraph topologically after outlining (Kahn's algorithm); since every
// partition is a run of consecutive ops, the plan order with each partition in its place is such
// an order, and it is the one kept here.
// Errors: a selected node out of range or not in the plan, or a malformed plan.
Result<std::vector<NodeSubset>> GroupCompilerPluginPartitionsReference(
    const Subgraph& subgraph, std::span<const PluginSelectedNode> selected);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_PLUGIN_PARTITION_REFERENCE_H_
