// The result of partitioning an execution plan for one delegate: a sequence of node subsets,
// each run entirely by the delegate or entirely by the CPU interpreter, in execution order
// (upstream's NodeSubset of tflite/graph_info.h).
#ifndef LIBANALYSIS_DELEGATION_NODE_SUBSET_H_
#define LIBANALYSIS_DELEGATION_NODE_SUBSET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/inline_ints.h"

namespace tfa {

enum class SubsetType : uint8_t {
  kCpu,       // upstream kTfNonPartition: nodes the delegate did not claim
  kDelegate,  // upstream kTfPartition: nodes the delegate claimed
};

// A subset's node and tensor lists. A subset holds a node or two and reads and writes a tensor or
// two in the many-partition graphs, where there are a million subsets (issue 46): kept inline,
// such lists take 16 bytes and no heap block each.
using SubsetIds = InlineInts<3>;

struct NodeSubset {
  SubsetType type = SubsetType::kCpu;
  SubsetIds nodes;    // original node indices, in the order they run
  SubsetIds inputs;   // tensors read from outside the subset; sorted, unique
  SubsetIds outputs;  // tensors read after the subset or graph outputs; sorted, unique

  bool operator==(const NodeSubset&) const = default;
};

struct PartitionOptions {
  // Upstream's default (`!DisableDelegateClustering()`): keep adding ready nodes of the subset's
  // type even when that runs them before nodes that precede them in the plan. Side-effecting
  // nodes are chained by control edges only in this mode.
  bool greedy = true;
  // Upstream disables node fusion when the interpreter preserves all tensors: every subset
  // then holds exactly one node.
  bool disable_node_fusion = false;
};

// One line per subset, e.g. "delegate nodes [2,3] inputs [1] outputs [4]": for test failure
// messages and debugging output.
std::string DescribeSubsets(const std::vector<NodeSubset>& subsets);

}  // namespace tfa

#endif  // LIBANALYSIS_DELEGATION_NODE_SUBSET_H_
