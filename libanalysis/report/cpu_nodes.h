// The nodes a subgraph's final plan leaves on the CPU and why, read from the report's partitions
// (the plan after every delegate, keep-N-largest and minimum sizes applied), not from the
// delegates' verdicts alone: with delegates applied in turn, a node one delegate rejects may be
// taken by the next, and a node a delegate supports stays on the CPU when its partition is not
// among those the delegate keeps.
#ifndef LIBANALYSIS_REPORT_CPU_NODES_H_
#define LIBANALYSIS_REPORT_CPU_NODES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa {

// A node on the CPU and what the delegates said about it: with one delegate its reason, with
// several one "delegate: reason" each, in the order they were applied, joined by "; ". A
// delegate that did not reject the node supported it and dropped its partition.
struct CpuNode {
  int32_t node = 0;
  std::string op;
  std::string reason;
};

// Nodes that share an op and a reason.
struct CpuNodeGroup {
  std::string op;
  std::string reason;
  std::vector<int32_t> nodes;  // ascending
};

// Every node of `report`'s cpu partitions, ascending. `delegates` are the report's delegate names
// in order; `subgraph` is the model's (for op names). Empty when no delegate was applied.
std::vector<CpuNode> NodesLeftOnCpu(const SubgraphReport& report, const Subgraph& subgraph,
                                    const std::vector<std::string>& delegates);

// `nodes` grouped by op and reason, the largest group first (ties by op, then reason). A reason
// that names its node or tensor ("... in ADD node #116", "... in tensor #11") groups without the
// index.
std::vector<CpuNodeGroup> GroupCpuNodes(const std::vector<CpuNode>& nodes);

// "#3..7, #9, +14 more": ascending `nodes` as runs of consecutive indices, the first `shown` runs
// and how many nodes more there are.
std::string AbbreviatedNodeList(const std::vector<int32_t>& nodes, size_t shown);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_CPU_NODES_H_
