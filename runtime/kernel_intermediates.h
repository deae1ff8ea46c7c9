// The tensors a CPU kernel sees as its node's intermediates (KernelContext::intermediates): the
// node's own (the integer LSTMs read their quantization), then the scale tensor of each
// blockwise-quantized input, which upstream's kernel reads as context->tensors[scale]
// (FULLY_CONNECTED's blockwise 4-bit path).
#ifndef RUNTIME_KERNEL_INTERMEDIATES_H_
#define RUNTIME_KERNEL_INTERMEDIATES_H_

#include <cstdint>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa::runtime {

// Tensor indices, -1 where an intermediate is absent.
std::vector<int32_t> KernelIntermediates(const Subgraph& graph, const Node& node);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNEL_INTERMEDIATES_H_
