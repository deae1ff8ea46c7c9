// The precision the OpenCL delegate computes at, chosen as upstream's GPU delegate chooses it
// from TfLiteGpuDelegateOptionsV2 (tflite/delegates/gpu/delegate.cc, api.cc, cl/api.cc):
//
// - is_precision_loss_allowed 0 (the default) puts MAX_PRECISION first, 1 puts MIN_LATENCY
//   first; -1 takes inference_priority1..3 as given (default MAX_PRECISION, AUTO, AUTO).
// - AUTO priorities are resolved (ResolveAutoPriority); invalid combinations (priority1 AUTO, a
//   priority twice, priority3 set after an AUTO priority2) are an error, as upstream refuses
//   them.
// - MAX_PRECISION first gives F32, second F32_F16 (fp16 storage, fp32 arithmetic), third F16.
// - A device without cl_khr_fp16 raises F16 and F32_F16 to F32.
//
// The kernels emulate fp16 by rounding through vstore_half (op_kernels_source.h), so what an
// fp16 GPU computes is what this delegate computes on any device that reports cl_khr_fp16.
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_PRECISION_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_PRECISION_H_

#include <string>

#include "libanalysis/core/status.h"

namespace tfa::runtime {

enum class ClPrecision { kF32, kF32F16, kF16 };

// "F32", "F32_F16", "F16" (upstream's CalculationsPrecision names).
const char* ClPrecisionName(ClPrecision precision);

// The OpenCL build options that make the op program compute at `precision`.
std::string ClPrecisionBuildOptions(ClPrecision precision);

// TfLiteGpuDelegateOptionsV2's precision fields, as --delegate-option sets them.
struct GpuPrecisionOptions {
  int is_precision_loss_allowed = 0;
  // TfLiteGpuInferencePriority names: AUTO, MAX_PRECISION, MIN_LATENCY, MIN_MEMORY_USAGE.
  std::string inference_priority1 = "MAX_PRECISION";
  std::string inference_priority2 = "AUTO";
  std::string inference_priority3 = "AUTO";

  // Takes `key` if it is one of the fields above (or inference_preference, checked and
  // otherwise without effect here: it picks kernels, not precision); false for other keys.
  [[nodiscard]] Result<bool> Set(const std::string& key, const std::string& value);
};

// The output tolerance `run --validate` allows at `precision`, relative to max(1, |cpu|): 0 at
// F32 (the user's tolerance stands); at F32_F16 ten times fp16's epsilon (2^-10), as every
// stored tensor and weight is rounded to 11 significant bits and the roundings compound over
// the layers; at F16 fifty times, as every accumulation step is rounded too.
double Fp16ValidationTolerance(ClPrecision precision);

// The precision upstream computes at with `options` on a device with or without fp16.
[[nodiscard]] Result<ClPrecision> ResolvePrecision(const GpuPrecisionOptions& options,
                                                   bool device_supports_fp16);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_PRECISION_H_
