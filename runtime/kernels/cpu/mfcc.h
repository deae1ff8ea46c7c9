// The Mfcc custom op upstream's BuiltinOpResolver registers (tflite/kernels/mfcc.cc and
// tflite/kernels/internal/mfcc*.cc): a squared-magnitude spectrogram [channels, frames, bins]
// (float32) and a sample rate (int32, one element) to [channels, frames, dct_coefficient_count].
// Per frame, in double: the square roots of the bins weighted into a triangular mel filterbank
// (HTK-style, DC excluded), floored at 1e-12, logged, then a DCT-II keeping the first
// coefficients.
//
// Upstream quirks kept: the frequency limits are read with AsInt64, so a fractional limit
// truncates; a spectrogram with no bin at the upper limit leaves the filterbank unset and every
// coefficient 0. An invalid design (no channels, a sample rate <= 0, limits out of order, more
// coefficients than channels) fails at Eval, where upstream's Initialize runs.
#ifndef RUNTIME_KERNELS_CPU_MFCC_H_
#define RUNTIME_KERNELS_CPU_MFCC_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareMfcc(KernelContext& context);
[[nodiscard]] Status EvalMfcc(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_MFCC_H_
