#include "libanalysis/prepare/random_kernel_prepare.h"

#include "libanalysis/prepare/added_tensors.h"

namespace tfa {

using prepare_internal::IsConstantOrPersistent;
using prepare_internal::NodeError;
using prepare_internal::Operand;

Result<KernelPrepareEffect> PrepareRandom(const Subgraph& subgraph, const Node& node) {
  const Tensor* shape = Operand(subgraph, node.inputs, 0);
  if (node.inputs.size() != 1 || node.outputs.size() != 1 || shape == nullptr) {
    return NodeError(node, "expects one input and one output");
  }
  if (shape->type != TensorType::kInt32 || shape->shape.size() != 1) {
    return NodeError(node, "the shape input is not a 1-D int32 tensor");
  }
  return KernelPrepareEffect{};
}

Result<KernelPrepareEffect> PrepareMultinomial(const Subgraph& subgraph, const Node& node) {
  const Tensor* logits = Operand(subgraph, node.inputs, 0);
  const Tensor* num_samples = Operand(subgraph, node.inputs, 1);
  if (node.inputs.size() != 2 || node.outputs.size() != 1 || logits == nullptr ||
      num_samples == nullptr || node.outputs[0] < 0) {
    return NodeError(node, "expects logits, num_samples and one output");
  }
  if (logits->type != TensorType::kFloat32) return NodeError(node, "logits are not float32");
  if (num_samples->type != TensorType::kInt32) return NodeError(node, "num_samples is not int32");
  KernelPrepareEffect effect;
  if (!IsConstantOrPersistent(*logits) || !IsConstantOrPersistent(*num_samples)) {
    effect.reallocated.emplace_back(node.outputs[0], AllocationType::kDynamic);
  }
  return effect;
}

}  // namespace tfa
