// The checks TFLite Micro's reference kernels make in Prepare that fail AllocateTensors: type
// combinations a kernel refuses (hybrid weights, int4 weights with a float input, float16
// inputs), quantization it needs, and shapes it rejects. A model that fails one is refused with
// the kernel's own error line, never given an arena size it could not use. Each check cites its
// kernel file under tensorflow/lite/micro/kernels/ (tflite-micro 90b983c2b3f1).
#ifndef LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_H_
#define LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_H_

#include <optional>
#include <string>

#include "libanalysis/model/graph.h"

namespace tfa::tflm {

// Why the TFLM kernel of `node` fails Prepare: TFLM's error line, then the kernel file and the
// values that failed it ("Hybrid models are not supported on TFLite Micro. (conv_common.cc:
// input UINT8, filter UINT8)"); nullopt when it passes the checks modelled here, or the op has
// none modelled.
std::optional<std::string> PrepareFailure(const Subgraph& subgraph, const Node& node);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_KERNEL_PREPARE_CHECKS_H_
