// Memory a delegate owns outside the tensor arena, which no arena figure shows: estimated from
// the delegated subgraph (the plan after ReplaceNodeSubsetsWithDelegateKernels, whose delegate
// kernel nodes list the model nodes they replace) and the delegate's profile.
//
// Estimates, each part saying how it was made:
//   xnnpack  unpacked static weights: the outputs of the fp16 / int8 DEQUANTIZE and DENSIFY nodes
//            the delegate unpacks in PrepareOpsToDelegate (static_unpacked_data_, each start
//            aligned to XNN_EXTRA_BYTES = 16), except fp16 weights fed straight to
//            CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED, which it skips and packs itself;
//            packed weights: the filter and bias of every delegated convolution,
//            FULLY_CONNECTED and BATCH_MATMUL with a static right-hand side, repacked by
//            XNNPACK into its own heap buffer in the compute type (float32, or int8 weights with
//            int32 biases), channels not rounded up to XNNPACK's tiles (a lower bound); no
//            weight cache is set by default, so the packed weights are per delegate instance.
//   gpu      device tensors: every non-constant tensor a delegated node reads or writes, as
//            float32 (TfLiteGpuDelegateOptionsV2Default keeps full precision), without the
//            GPU memory manager's sharing between intermediates (an upper bound);
//            uploaded constants: the constants delegated nodes read, converted to float32.
//            The float twins of quantized tensors live in the CPU arena (the delegate kernel's
//            temporaries), not here.
// Other delegates: no parts (nothing known about their memory).
#ifndef LIBANALYSIS_REPORT_DELEGATE_MEMORY_H_
#define LIBANALYSIS_REPORT_DELEGATE_MEMORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {

struct DelegateMemoryPart {
  std::string kind;  // "unpacked_static_weights", "packed_weights", "device_tensors", ...
  uint64_t bytes = 0;
  std::string method;  // how the figure was estimated
};

struct DelegateMemory {
  std::string delegate;
  std::vector<DelegateMemoryPart> parts;
  uint64_t total_bytes = 0;
};

// The memory `profile`'s delegate kernels in `delegated` own. Errors name the subgraph and the
// tensor whose size overflows or is unknown.
Result<DelegateMemory> EstimateDelegateMemory(const Subgraph& delegated,
                                              const DelegateProfile& profile);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_DELEGATE_MEMORY_H_
