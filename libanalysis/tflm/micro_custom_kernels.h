// The custom ops MicroMutableOpResolver registers outside the Signal library:
// CIRCULAR_BUFFER (AddCircularBuffer, kernels/circular_buffer.cc), TFLite_Detection_PostProcess
// (AddDetectionPostprocess, kernels/detection_postprocess.cc) and ethos-u (AddEthosU, which
// registers nothing outside an Ethos-U build). For each: what Init and Prepare ask MicroAllocator
// for and the checks Prepare makes.
#ifndef LIBANALYSIS_TFLM_MICRO_CUSTOM_KERNELS_H_
#define LIBANALYSIS_TFLM_MICRO_CUSTOM_KERNELS_H_

#include <optional>
#include <string>
#include <string_view>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/tflm/tflm_kernels.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

// MicroMutableOpResolver's Add method for one of these custom ops, or nullopt.
std::optional<std::string_view> MicroCustomResolverMethod(std::string_view op);

// The kernel file the op's rule follows, or nullopt.
std::optional<std::string_view> MicroCustomKernelSource(std::string_view op);

// The requests of the op's node. An error for ethos-u (the reference build has no kernel for it)
// and for detection options the kernel's Init cannot read.
Result<KernelRequests> MicroCustomRequests(const Build& build, const Subgraph& subgraph,
                                           const Node& node);

// Why the op's Prepare fails: TFLM's line, then the kernel file and why; nullopt when it passes
// (or `node` is not one of these ops).
std::optional<std::string> MicroCustomPrepareFailure(const Subgraph& subgraph, const Node& node);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_MICRO_CUSTOM_KERNELS_H_
