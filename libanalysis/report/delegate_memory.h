// Memory a delegate owns outside the tensor arena, which no arena figure shows: estimated from
// the delegated subgraph (the plan after ReplaceNodeSubsetsWithDelegateKernels, whose delegate
// kernel nodes list the model nodes they replace) and the delegate's profile.
//
// Estimates, each part saying how it was made:
//   xnnpack  unpacked static weights: the outputs of the fp16 / int8 DEQUANTIZE and DENSIFY nodes
//            the delegate unpacks in PrepareOpsToDelegate (static_unpacked_data_, each start
//            aligned to XNN_EXTRA_BYTES = 16), except fp16 weights fed straight to
//            CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED, which it skips and packs itself;
//            packed weights and indirection buffers: what XNNPACK's operators keep on the heap,
//            tiles and all (xnnpack_operator_memory.h); no weight cache is set by default, so
//            they are per delegate instance;
//            workspace: the partitions' internal values, as XNNPACK plans them
//            (xnnpack_workspace.h).
//   gpu      per partition, as upstream's OpenCL inference context allocates it
//            (gpu_device_memory.h): the runtime tensors in one shared buffer, a staging buffer
//            per boundary tensor, the uploaded weights; float32, as
//            TfLiteGpuDelegateOptionsV2Default keeps full precision. The float twins of
//            quantized boundary tensors on the host live in the CPU arena (the delegate kernel's
//            temporaries), not here.
//   nnapi, flex  one part of unknown size: the vendor driver's, or TensorFlow's kernels'.
// Other delegates (the samples): no parts; they own nothing outside the arena.
//
// Every part says how its figure is known: exact (a count of what upstream allocates),
// predicted (upstream's rules, transcribed, with the gaps the method names) or unknown.
#ifndef LIBANALYSIS_REPORT_DELEGATE_MEMORY_H_
#define LIBANALYSIS_REPORT_DELEGATE_MEMORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/report/gpu_device_memory.h"

namespace tfa {

enum class MemoryBasis : uint8_t { kExact, kPredicted, kUnknown };

// "exact", "predicted", "unknown".
const char* MemoryBasisName(MemoryBasis basis);

struct DelegateMemoryPart {
  std::string kind;    // "unpacked_static_weights", "packed_weights", "shared_tensors", ...
  uint64_t bytes = 0;  // 0 when unknown
  std::string method;  // how the figure was estimated
  MemoryBasis basis = MemoryBasis::kPredicted;
};

struct DelegateMemory {
  std::string delegate;
  std::vector<DelegateMemoryPart> parts;
  uint64_t total_bytes = 0;  // of the known parts

  // Some part's size is unknown: total_bytes is a lower bound.
  bool has_unknown() const;
};

// The memory `profile`'s delegate kernels in `delegated` own; `gpu` sets the GPU device's
// precision and base address alignment. Errors name the subgraph and the tensor whose size
// overflows or is unknown.
Result<DelegateMemory> EstimateDelegateMemory(const Subgraph& delegated,
                                              const DelegateProfile& profile,
                                              const GpuMemoryOptions& gpu = {});

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_DELEGATE_MEMORY_H_
