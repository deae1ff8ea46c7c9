// What TFLite Micro's reference kernels ask MicroAllocator for, per node: the builtin options
// struct the op's parser allocates, the user data (OpData) Init allocates, the persistent
// buffers and the scratch buffers Prepare asks for. Each rule cites its kernel file under
// tensorflow/lite/micro/kernels/ of tflite-micro; docs/tflm.md has the table.
#ifndef LIBANALYSIS_TFLM_TFLM_KERNELS_H_
#define LIBANALYSIS_TFLM_TFLM_KERNELS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

struct KernelRequests {
  // Parse<Op>'s builtin options struct (BuiltinDataAllocator, aligned to the struct); size 0
  // when the parser allocates none.
  Layout builtin_options;
  // Init's AllocatePersistentBuffer(sizeof(OpData)); 0 when Init keeps no user data.
  uint64_t op_data = 0;
  // Init's further AllocatePersistentBuffer calls after the OpData, in order (the Signal ops'
  // FFT and filter-bank state).
  std::vector<uint64_t> init_buffers;
  // Prepare's AllocatePersistentBuffer calls, in order.
  std::vector<uint64_t> persistent_buffers;
  // Prepare's RequestScratchBufferInArena calls, in order.
  std::vector<uint64_t> scratch_buffers;
};

// The requests of `node`'s TFLM kernel, or an error naming the op when TFLM has no kernel for
// it or its kernel is not modelled here.
Result<KernelRequests> RequestsOfNode(const Build& build, const Subgraph& subgraph,
                                      const Node& node);

// MicroMutableOpResolver's Add method for a builtin op ("AddConv2D"), or nullopt when TFLM
// registers no kernel for it.
std::optional<std::string_view> ResolverMethod(std::string_view op);

// The kernel file a modelled op's rule follows ("conv.cc, conv_common.cc"), or nullopt.
std::optional<std::string_view> KernelSource(std::string_view op);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_TFLM_KERNELS_H_
