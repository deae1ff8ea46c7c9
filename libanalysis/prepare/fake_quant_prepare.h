// FAKE_QUANT (tflite/kernels/fake_quant.cc): one input, one output of its shape and type, no
// temporaries. Its Prepare refuses narrow_range ("narrow_range is only meant to be applied to
// weights, not activations"), so upstream's AllocateTensors fails on such a node.
#ifndef LIBANALYSIS_PREPARE_FAKE_QUANT_PREPARE_H_
#define LIBANALYSIS_PREPARE_FAKE_QUANT_PREPARE_H_

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {

[[nodiscard]] Result<KernelPrepareEffect> PrepareFakeQuant(const Subgraph& subgraph,
                                                           const Node& node);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_FAKE_QUANT_PREPARE_H_
