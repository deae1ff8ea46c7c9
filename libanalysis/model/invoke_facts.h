// The input-dependent facts of one Invoke of a model with control flow (which branch an IF takes,
// how often a WHILE loops, the shapes a dynamic body ends with), and the fact a replay of that
// Invoke needed and was not given. Plain data: the Invoke replay (prepare/control_flow_invoke.h)
// reads them, the plan and the report carry them.
#ifndef LIBANALYSIS_MODEL_INVOKE_FACTS_H_
#define LIBANALYSIS_MODEL_INVOKE_FACTS_H_

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tfa {

// A node of a subgraph, both by their model indices.
struct NodeRef {
  int32_t subgraph = 0;
  int32_t node = 0;

  auto operator<=>(const NodeRef&) const = default;
};

// The input-dependent facts of one Invoke.
struct InvokeFacts {
  // IF nodes: the condition's value (true runs then_subgraph). An IF run several times (inside a
  // loop) takes the value of its last run.
  std::map<NodeRef, bool> if_conditions;
  // WHILE nodes: how many times the body runs.
  std::map<NodeRef, int64_t> while_iterations;
  // Shapes tensors have at the end of the run where they differ from the model's: a dynamic
  // WHILE body's tensors in its last iteration, and the parent's tensors computed after a dynamic
  // node. By subgraph, then tensor.
  std::map<int32_t, std::map<int32_t, std::vector<int32_t>>> run_shapes;
};

// A fact the run needed and was not given, by kind and place so a caller can say how to give it.
struct MissingFact {
  enum class Kind { kIfCondition, kWhileIterations, kRunShapes };
  Kind kind = Kind::kIfCondition;
  // The IF or WHILE node; kRunShapes: the subgraph whose tensors' shapes are needed (node -1).
  NodeRef where;
  // E.g. "IF node 1 of subgraph 0: its condition's value (input-dependent)".
  std::string description;
};

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_INVOKE_FACTS_H_
