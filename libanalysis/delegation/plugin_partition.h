// The production grouping of a LiteRT compiler plugin's selected ops into dispatch partitions: the
// same subsets, in the same order, with the same boundary tensors as
// GroupCompilerPluginPartitionsReference (plugin_partition_reference.h, upstream's algorithm), in
// one pass over the plan instead of one scan of the plan per partition.
#ifndef LIBANALYSIS_DELEGATION_PLUGIN_PARTITION_H_
#define LIBANALYSIS_DELEGATION_PLUGIN_PARTITION_H_

#include <cstdint>
#include <span>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/node_subset.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// One op a compiler plugin pushed onto its selected-op list (LiteRtPushOp), with the partition
// index the plugin gave it.
struct PluginSelectedNode {
  int32_t node = 0;  // original node index
  uint32_t partition_index = 0;

  bool operator==(const PluginSelectedNode&) const = default;
};

// Groups `selected` into dispatch partitions of `subgraph.execution_plan`. Same contract, result
// and errors as GroupCompilerPluginPartitionsReference, which documents the rules.
Result<std::vector<NodeSubset>> GroupCompilerPluginPartitions(
    const Subgraph& subgraph, std::span<const PluginSelectedNode> selected);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_PLUGIN_PARTITION_H_
