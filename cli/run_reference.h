// `run --validate --reference MODEL`: a quantized model's outputs judged against the float model it
// was quantized from, not against its own CPU-only run. Upstream's GPU delegate runs a quantized
// model in float (tflite/delegates/gpu: quantized tensors are dequantized at its boundary), so its
// outputs follow the float model more closely than the int8 CPU kernels do; the float model is
// then the fairer reference. The two models meet in real values: the run's inputs are
// dequantized and written into the reference's inputs (quantized again where it is quantized),
// and each output is compared in real values.
#ifndef CLI_RUN_REFERENCE_H_
#define CLI_RUN_REFERENCE_H_

#include <string>
#include <vector>

#include "cli/run_verdict.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "runtime/kernel.h"

namespace tfa::cli {

// The real values a float32 tensor holds, or an int8, uint8 or int16 tensor with a per-tensor
// scale: (q - zero_point) * scale. Other types, and per-channel outputs, are an error naming the
// tensor.
Result<std::vector<double>> RealValues(const runtime::RuntimeTensor& tensor,
                                       const std::string& name);

// Writes `values` into `tensor` (float32, or quantized with its per-tensor scale: rounded to
// nearest and clamped, as TFLite's QUANTIZE does).
Status WriteRealValues(const std::vector<double>& values, runtime::RuntimeTensor& tensor,
                       const std::string& name);

// The reference model can stand in for the run's: the same number of inputs and outputs, each with
// the same element count. Errors name the first that differs.
Status CheckReferenceMatches(const Subgraph& run, const Subgraph& reference,
                             const std::string& reference_path);

// `got`'s real values against the reference's: a quantized output within `tolerance_steps` of its
// own scale, a float one within `tolerance` of max(1, |reference|).
OutputComparison CompareWithReference(const runtime::RuntimeTensor& got,
                                      const std::vector<double>& got_real,
                                      const std::vector<double>& want_real, int32_t tensor,
                                      const std::string& name, double tolerance,
                                      double tolerance_steps);

}  // namespace tfa::cli

#endif  // CLI_RUN_REFERENCE_H_
