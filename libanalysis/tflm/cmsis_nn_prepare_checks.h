// The checks the Prepare of TFLite Micro's CMSIS-NN kernels (tensorflow/lite/micro/kernels/
// cmsis_nn/) makes where it differs from the reference kernel's (kernel_prepare_checks.h): types
// the port refuses in Prepare that the reference refuses only in Eval or not at all, the ranks
// CMSIS-NN's batch matmul takes, the constant weights CMSIS-NN's LSTM precomputes sums of. A
// model that fails one is refused with the port's own error line.
#ifndef LIBANALYSIS_TFLM_CMSIS_NN_PREPARE_CHECKS_H_
#define LIBANALYSIS_TFLM_CMSIS_NN_PREPARE_CHECKS_H_

#include <optional>
#include <string>

#include "libanalysis/model/graph.h"

namespace tfa::tflm {

// Why the kernel a CMSIS-NN build runs for `node` fails Prepare: the port's checks for the ops it
// replaces, the reference kernel's (PrepareFailure) for the others; nullopt when it passes.
std::optional<std::string> CmsisNnPrepareFailure(const Subgraph& subgraph, const Node& node);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_CMSIS_NN_PREPARE_CHECKS_H_
