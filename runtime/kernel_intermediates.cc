#include "runtime/kernel_intermediates.h"

namespace tfa::runtime {

std::vector<int32_t> KernelIntermediates(const Subgraph& graph, const Node& node) {
  std::vector<int32_t> tensors(node.intermediates.begin(), node.intermediates.end());
  const auto valid = [&](int32_t t) {
    return t >= 0 && static_cast<size_t>(t) < graph.tensors.size();
  };
  for (int32_t t : node.inputs) {
    if (!valid(t)) continue;
    const Quantization& q = graph.tensors[static_cast<size_t>(t)].quantization;
    if (q.blockwise && valid(q.block_scales)) tensors.push_back(q.block_scales);
  }
  return tensors;
}

}  // namespace tfa::runtime
