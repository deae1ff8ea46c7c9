// Structural checks every loaded subgraph passes before any analysis sees it, so that the
// analyses can index tensors and nodes without further checks.
#ifndef LIBANALYSIS_MODEL_GRAPH_VALIDATION_H_
#define LIBANALYSIS_MODEL_GRAPH_VALIDATION_H_

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// Checks that every tensor index is in range (-1 allowed for optional node inputs and outputs),
// no node reads its own output (unless the subgraph carries an allocation_error), no tensor has two
// producers, and every node reads only tensors produced earlier in the plan (a later producer means
// a cycle). Messages name the subgraph, node and tensor: "subgraph 0: node 4 (ADD): reads tensor 9
// produced by node 7 (cycle...)".
Status ValidateSubgraph(const Subgraph& subgraph, int subgraph_index);

// Upstream's Subgraph::AddNodeWithParameters refuses a builtin node that lists one tensor as both
// input and output ("Tensor 1 is both input 0 and output 0"), InterpreterBuilder carries on, and
// AllocateTensors then fails on the inconsistent subgraph (tflite/core/subgraph.cc). Returns that
// reason for the first such node, or "" when there is none. (Upstream checks only builtins whose
// options it parses; every builtin is checked here: a node reading its own output has no
// lifetime the arena replay could follow, whatever its options.)
std::string OverlappingNodeError(const Subgraph& subgraph);

// Checks that control-flow options (IF, WHILE, CALL_ONCE, CALL) name existing subgraphs and that
// no subgraph calls itself, directly or through others: "subgraph 1: node 0 (WHILE) names
// subgraph 7 of 3".
Status ValidateSubgraphCalls(const Model& model);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_GRAPH_VALIDATION_H_
