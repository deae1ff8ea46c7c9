#include "libanalysis/prepare/constant_folding.h"

#include <string_view>

#include "libanalysis/prepare/added_tensors.h"

namespace tfa {
namespace {

using prepare_internal::IsConstantOrPersistent;
using prepare_internal::Operand;

// Whether inputs [0, count) all exist and are known at Prepare; count -1 means every input.
bool InputsKnown(const Subgraph& subgraph, const Node& node, int count) {
  const size_t n = count < 0 ? node.inputs.size() : static_cast<size_t>(count);
  if (n > node.inputs.size()) return false;
  for (size_t i = 0; i < n; ++i) {
    const Tensor* input = Operand(subgraph, node.inputs, i);
    if (!input || !IsConstantOrPersistent(*input)) return false;
  }
  return true;
}

KernelPrepareEffect OutputBecomes(const Node& node, AllocationType allocation) {
  KernelPrepareEffect effect;
  if (!node.outputs.empty() && node.outputs[0] >= 0) {
    effect.reallocated.emplace_back(node.outputs[0], allocation);
  }
  return effect;
}

}  // namespace

std::optional<KernelPrepareEffect> PrepareConstantFolding(const Subgraph& subgraph,
                                                          const Node& node) {
  const std::string_view op = node.op;
  bool folds = false;
  if (op == "SHAPE" || op == "RANK" || op == "SIZE") {
    folds = true;  // shape.cc, rank.cc, size.cc: the input's shape is known at Prepare
  } else if (op == "GATHER" || op == "MUL" || op == "BROADCAST_ARGS") {
    folds = InputsKnown(subgraph, node, 2);  // gather.cc, mul.cc, broadcast_args.cc
  } else if (op == "STRIDED_SLICE") {
    // strided_slice.cc folds when input, begin and end are known; its shape rule already needs
    // the strides (else the output is sized at Eval).
    folds = InputsKnown(subgraph, node, 4);
  } else if (op == "CONCATENATION") {
    folds = InputsKnown(subgraph, node, -1);  // concatenation.cc
  } else if (op == "RESHAPE") {
    // reshape.cc: the new shape from the options (one input) or a known shape tensor.
    const Tensor* shape = Operand(subgraph, node.inputs, 1);
    const bool shape_known = node.inputs.size() == 1 || (shape && IsConstantOrPersistent(*shape));
    folds = shape_known && InputsKnown(subgraph, node, 1);
  } else if (op == "RANGE") {
    // range.cc: known bounds fold; otherwise the output is sized at Eval.
    return OutputBecomes(node, InputsKnown(subgraph, node, 3) ? AllocationType::kPersistentRo
                                                              : AllocationType::kDynamic);
  } else {
    return std::nullopt;
  }
  if (!folds) return KernelPrepareEffect{};
  return OutputBecomes(node, AllocationType::kPersistentRo);
}

}  // namespace tfa
