// What TFLite Micro's CMSIS-NN kernels (tensorflow/lite/micro/kernels/cmsis_nn/, the
// OPTIMIZED_KERNEL_DIR=cmsis_nn build) ask MicroAllocator for where they differ from the
// reference kernels: their own OpData, and the buffers CMSIS-NN's get_buffer_size functions size
// for the core the build targets (cmsis_nn_buffer_sizes.h). Ops the port does not replace keep
// the reference kernel's requests. Predicted: no reference here runs a CMSIS-NN build.
#ifndef LIBANALYSIS_TFLM_CMSIS_NN_KERNELS_H_
#define LIBANALYSIS_TFLM_CMSIS_NN_KERNELS_H_

#include <optional>
#include <string_view>

#include "libanalysis/model/graph.h"
#include "libanalysis/tflm/tflm_kernels.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

// Rewrites `requests` (the reference kernel's, for a 32-bit build) into what the CMSIS-NN kernel
// for `node` asks for when `build.cmsis_nn` is set and the port replaces the op. The port's
// Prepare refusals are cmsis_nn_prepare_checks.h's.
void ApplyCmsisNnKernel(const Build& build, const Subgraph& subgraph, const Node& node,
                        KernelRequests& requests);

// The port's file for an op it replaces ("conv.cc"), nullopt for an op that keeps the reference
// kernel.
std::optional<std::string_view> CmsisNnKernelSource(std::string_view op);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_CMSIS_NN_KERNELS_H_
