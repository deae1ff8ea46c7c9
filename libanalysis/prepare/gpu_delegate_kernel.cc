#include "libanalysis/prepare/gpu_delegate_kernel.h"

#include <unordered_set>

namespace tfa {
namespace {

bool NeedsFloatTwin(const Tensor& tensor) {
  return !tensor.is_constant() &&
         (tensor.type == TensorType::kInt8 || tensor.type == TensorType::kUInt8);
}

}  // namespace

KernelPrepareEffect GpuDelegateKernelTensors(const Subgraph& subgraph, const Node& kernel,
                                             bool allow_quant_ops) {
  KernelPrepareEffect effect;
  if (!allow_quant_ops) return effect;
  std::unordered_set<int32_t> twinned;
  // Adds the twin of `index` unless it has one; returns its position in `effect.added` or -1.
  auto twin = [&](int32_t index) -> int32_t {
    if (index < 0 || static_cast<size_t>(index) >= subgraph.tensors.size()) return -1;
    const Tensor& tensor = subgraph.tensors[index];
    if (!NeedsFloatTwin(tensor) || !twinned.insert(index).second) return -1;
    AddedTensor fp;
    fp.type = TensorType::kFloat32;
    fp.shape = tensor.shape;
    fp.bytes = ShapeBytes(TensorType::kFloat32, tensor.shape).value_or(0);
    effect.added.push_back(std::move(fp));
    return static_cast<int32_t>(effect.added.size()) - 1;
  };
  for (const auto* list : {&kernel.inputs, &kernel.outputs}) {
    for (int32_t index : *list) {
      const int32_t position = twin(index);
      if (position >= 0) effect.temporaries.push_back(position);
    }
  }
  for (int32_t node_index : kernel.replaces) {
    if (node_index < 0 || static_cast<size_t>(node_index) >= subgraph.nodes.size()) continue;
    const Node& node = subgraph.nodes[node_index];
    for (int32_t index : node.inputs) twin(index);
    for (int32_t index : node.outputs) twin(index);
  }
  return effect;
}

}  // namespace tfa
