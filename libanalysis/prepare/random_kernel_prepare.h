// RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL (tflite/kernels/random_ops.cc): their
// Prepare seeds the generator and adds no tensors. The random ops take a 1-D int32 shape and size
// their output from its values, dynamic when it is not a constant (the shape rule says so).
// MULTINOMIAL takes float32 logits [batch, classes] and an int32 num_samples, and makes its output
// dynamic unless both are constant or persistent, although only the logits' shape is read.
#ifndef LIBANALYSIS_PREPARE_RANDOM_KERNEL_PREPARE_H_
#define LIBANALYSIS_PREPARE_RANDOM_KERNEL_PREPARE_H_

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {

[[nodiscard]] Result<KernelPrepareEffect> PrepareRandom(const Subgraph& subgraph, const Node& node);
[[nodiscard]] Result<KernelPrepareEffect> PrepareMultinomial(const Subgraph& subgraph,
                                                             const Node& node);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_RANDOM_KERNEL_PREPARE_H_
