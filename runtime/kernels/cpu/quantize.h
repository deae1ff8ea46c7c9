// QUANTIZE: float32 to int8/uint8/int16, int16 symmetric only (round(x / scale) + zero_point,
// halves away from zero, the division in double as upstream's AffineQuantize takes the scale as
// double), and requantizing int8/uint8 to int8/uint8 (tflite/kernels/quantize.cc: (x - zp_in)
// rescaled by s_in / s_out with the double-rounding fixed-point multiply, plus zp_out), and
// int16 to int8, or to int16 with zero points 0, and int32 to int8 or int16 the same way
// (reference/requantize.h).
#ifndef RUNTIME_KERNELS_CPU_QUANTIZE_H_
#define RUNTIME_KERNELS_CPU_QUANTIZE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantize(KernelContext& context);
[[nodiscard]] Status EvalQuantize(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZE_H_
