// What one delegate takes from a subgraph: every planned node's verdict under a profile, then
// the delegate-side choice of nodes (upstream's GraphPartitionHelper, or FP16GraphPartitionHelper
// for profiles that ask for it) and, on request, the delegated plan.
//
// This is the sequence upstream's delegates run in their Prepare: ask the support predicate for
// every node of the current execution plan (with the FP16 helper: inputs read from constant fp16
// DEQUANTIZE nodes met earlier point at the fp16 constants, and those DEQUANTIZE nodes are held
// back with an empty reason), preview the partitioning, keep the N largest partitions with at
// least M nodes, and hand them to ReplaceNodeSubsetsWithDelegateKernels. Several delegates apply
// one after another by selecting on the previous DelegatedSubgraph's subgraph.
#ifndef LIBANALYSIS_PROFILES_DELEGATE_SELECTION_H_
#define LIBANALYSIS_PROFILES_DELEGATE_SELECTION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/delegation/delegated_plan.h"
#include "libanalysis/delegation/node_selection.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/node_support.h"

namespace tfa {

struct DelegateSelection {
  std::string delegate;  // the profile's name
  // One verdict per planned node, in plan order.
  std::vector<NodeSupport> verdicts;
  // The node choice (nodes_to_replace, candidate partitions, fp16 remaps).
  NodeSelection selection;
  // Upstream's unsupported-nodes log lines, "OP: reason", sorted and unique as upstream's
  // std::set keeps them (the GPU delegate prints them when some node stays on the CPU).
  std::vector<std::string> unsupported_ops;
};

// Evaluates `profile` on every planned node of `subgraph` and chooses the nodes to replace.
// Errors name the subgraph and node (malformed plan, node index out of range in `nodes=`).
Result<DelegateSelection> SelectDelegateNodes(const Subgraph& subgraph,
                                              const DelegateProfile& profile);
// The same on a subgraph already checked (ValidSubgraph), as one delegation passes it along.
Result<DelegateSelection> SelectDelegateNodes(const ValidSubgraph& subgraph,
                                              const DelegateProfile& profile);

// CompiledModel's node choice for a compiler plugin (litert/compiler/plugin/compiler_plugin.cc
// PartitionModel): every planned node marked in `supported` (indexed by node), grouped by
// GroupPartitionsV2 with the partition index of the profile's rule, and outlined as a whole; no
// keep-N-largest, no minimum size. SelectDelegateNodes calls it for a profile with a
// compiler_plugin; the advisor calls it with verdicts forced to supported.
Result<NodeSelection> SelectPluginPartitions(const Subgraph& subgraph,
                                             const DelegateProfile& profile,
                                             const std::vector<bool>& supported);

// Replaces the selected nodes with delegate kernels named after the profile, after pointing the
// fp16 helper's remapped inputs at their constants, as upstream leaves them.
Result<DelegatedSubgraph> ApplyDelegateSelection(const Subgraph& subgraph,
                                                 const DelegateProfile& profile,
                                                 const DelegateSelection& selection);
// The same on the subgraph the selection was made on, already checked: the kernels are built from
// the selection's preview partitioning when it kept one (NodeSelection::partitioning).
Result<DelegatedSubgraph> ApplyDelegateSelection(const ValidSubgraph& subgraph,
                                                 const DelegateProfile& profile,
                                                 const DelegateSelection& selection);
// The same, taking the selection's preview partitioning instead of a copy of it (a million
// subsets when every other node is claimed).
Result<DelegatedSubgraph> ApplyDelegateSelection(const ValidSubgraph& subgraph,
                                                 const DelegateProfile& profile,
                                                 DelegateSelection&& selection);

// "CONV_2D #12: fused activation TANH not supported", one line per unsupported planned node, in
// plan order (fp16 DEQUANTIZE nodes held back by the helper read "held back ...").
std::vector<std::string> DescribeUnsupportedNodes(const Subgraph& subgraph,
                                                  const DelegateSelection& selection);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_DELEGATE_SELECTION_H_
