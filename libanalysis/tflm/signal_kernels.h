// TFLite Micro's audio front end: the Signal* custom ops of its signal library
// (tflite-micro signal/micro/kernels/, registered by MicroMutableOpResolver::AddWindow, AddRfft,
// ...). For each: what Init and Prepare ask MicroAllocator for (state sized from the op's
// custom options and shapes) and the checks Prepare makes. The options are flexbuffer maps the
// kernels read by position (FlexbufferWrapper: the values in alphabetical key order), so the
// replay reads them the same way and refuses a map it cannot read that way.
#ifndef LIBANALYSIS_TFLM_SIGNAL_KERNELS_H_
#define LIBANALYSIS_TFLM_SIGNAL_KERNELS_H_

#include <optional>
#include <string>
#include <string_view>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/tflm/tflm_kernels.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

// MicroMutableOpResolver's Add method for a Signal custom op ("AddWindow" for "SignalWindow"),
// or nullopt when `op` is not one.
std::optional<std::string_view> SignalResolverMethod(std::string_view op);

// The kernel file a Signal op's rule follows ("signal/micro/kernels/window.cc"), or nullopt.
std::optional<std::string_view> SignalKernelSource(std::string_view op);

// The requests of a Signal op's node. An error for options the kernel cannot read (not a map,
// too few values, a value that is not an integer), or values its Init or Prepare would
// misbehave on (an odd FFT length, a zero frame step).
Result<KernelRequests> SignalRequests(const Build& build, const Subgraph& subgraph,
                                      const Node& node);

// Why a Signal op's Prepare fails: TFLM's line, then the kernel file and why; nullopt when it
// passes (or `node` is not a Signal op).
std::optional<std::string> SignalPrepareFailure(const Subgraph& subgraph, const Node& node);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_SIGNAL_KERNELS_H_
