// Select TensorFlow ops ("Flex ops"): custom ops whose code starts with "Flex", run by the Flex
// delegate with TensorFlow's own kernels. Upstream tells them apart by name alone (IsFlexOp,
// tflite/util.cc); InterpreterBuilder records whether a model has one (has_flex_op_) to apply the
// Flex delegate, and an interpreter without it fails AllocateTensors on them as unresolved ops.
#ifndef LIBANALYSIS_PROFILES_FLEX_OPS_H_
#define LIBANALYSIS_PROFILES_FLEX_OPS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa {

inline constexpr std::string_view kFlexCustomCodePrefix = "Flex";

// Whether `node` is a custom op whose code starts with "Flex".
bool IsFlexOp(const Node& node);

// One node of a model: its subgraph and its index there.
struct ModelNodeRef {
  int32_t subgraph = 0;
  int32_t node = 0;
};

// Every Flex op of `model`, subgraph by subgraph, in node order.
std::vector<ModelNodeRef> FlexNodesOf(const Model& model);

// The Flex ops left in `graph`'s execution plan (no delegate took them), in plan order: without
// the Flex delegate, no kernel resolves them.
std::vector<int32_t> UnresolvedFlexNodes(const Subgraph& graph);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_FLEX_OPS_H_
