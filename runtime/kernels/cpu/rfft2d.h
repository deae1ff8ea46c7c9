// RFFT2D: the 2-D discrete Fourier transform of the real float32 input's two innermost
// dimensions, zero-padded or cropped to the constant `fft_length` [h, w]; the output is complex64
// [..., h, w / 2 + 1] (tflite/kernels/rfft2d.cc, which runs Ooura's rdft2d in double and keeps the
// non-redundant half). Computed here as two passes of direct DFTs in double.
#ifndef RUNTIME_KERNELS_CPU_RFFT2D_H_
#define RUNTIME_KERNELS_CPU_RFFT2D_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareRfft2D(KernelContext& context);
[[nodiscard]] Status EvalRfft2D(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_RFFT2D_H_
