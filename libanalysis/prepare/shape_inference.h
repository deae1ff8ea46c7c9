// The output shapes builtin kernels compute in Prepare (each op's Prepare / ResizeOutput in
// upstream's tflite/kernels/*.cc) from their inputs' current shapes and, where an op reads them,
// the values of small int inputs (RESHAPE's shape, SLICE's begin and size, ...).
//
// Two users: ResizeInputTensor + AllocateTensors (`--input-shape`), which re-runs every node's
// Prepare along the execution plan, and the runtime's dynamic tensors (a WHILE body whose state
// grows), which re-runs them on every iteration.
#ifndef LIBANALYSIS_PREPARE_SHAPE_INFERENCE_H_
#define LIBANALYSIS_PREPARE_SHAPE_INFERENCE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

using Shape = std::vector<int32_t>;

// The values of an int32 / int64 tensor that is not a model constant, when the caller knows them
// (the runtime does, the analyser does not). nullopt = unknown. Model constants are read from
// Tensor::int_values without asking.
using IntValuesOf = std::function<std::optional<std::vector<int64_t>>(int32_t tensor)>;

// Shapes of `node`'s outputs, in output order, given the current shapes of `subgraph`'s tensors.
// Errors name the node and the reason: shapes its kernel's Prepare would reject, a value it needs
// that is unknown, or an op without a rule ("no shape rule for OP").
[[nodiscard]] Result<std::vector<Shape>> InferOutputShapes(const Subgraph& subgraph,
                                                           const Node& node,
                                                           const IntValuesOf& values = {});

// What a kernel's Prepare knows of its outputs: their shapes, or that they depend on values
// unknown at Prepare (a non-constant RESHAPE shape, PAD paddings, ...), where upstream's kernel
// calls SetTensorToDynamic and sizes them at Eval. `shapes` is empty when `dynamic`, unless its
// Prepare still sizes some outputs (NON_MAX_SUPPRESSION's count, UNIQUE's indices): `sized` then
// says which, by output position, with their shapes in `shapes` (one entry per output).
struct InferredShapes {
  std::vector<Shape> shapes;
  bool dynamic = false;
  std::vector<bool> sized;

  // Whether output `position` is sized at Eval (a dynamic tensor).
  bool IsDynamicOutput(size_t position) const {
    return dynamic && (position >= sized.size() || !sized[position]);
  }
};

// InferOutputShapes with "dynamic" as an outcome rather than an error.
[[nodiscard]] Result<InferredShapes> InferOutputShapesOrDynamic(const Subgraph& subgraph,
                                                                const Node& node,
                                                                const IntValuesOf& values = {});

// Whether some builtin rule covers `op` (the ops a resize can pass through).
bool HasShapeRule(const std::string& op);

// What AllocateTensors does to shapes after ResizeInputTensor: every node of the execution plan,
// in order, gets its outputs' shapes (and byte sizes) from InferOutputShapes. The caller has
// already given the inputs their new shapes.
[[nodiscard]] Status PropagateShapes(Subgraph& subgraph, const IntValuesOf& values = {});

// PropagateShapes where outputs may be dynamic: a node whose output shapes depend on values
// unknown at Prepare, or that reads a tensor such a node made, keeps its outputs' shapes as they
// were (its Prepare runs again at Eval). Returns those nodes, in plan order.
[[nodiscard]] Result<std::vector<int32_t>> PropagateShapesAllowingDynamic(
    Subgraph& subgraph, const IntValuesOf& values = {});

// PropagateShapesAllowingDynamic after ResizeInputTensor of `resized` only: a node none of whose
// inputs changed shape keeps its outputs without asking its rule, so an op without a rule is an
// error only where a changed shape reaches it.
[[nodiscard]] Result<std::vector<int32_t>> PropagateResizedShapes(
    Subgraph& subgraph, const std::vector<int32_t>& resized, const IntValuesOf& values = {});

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_SHAPE_INFERENCE_H_
