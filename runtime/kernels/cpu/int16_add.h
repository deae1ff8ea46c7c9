// ADD and SUB on int16 tensors, as tflite/kernels/add.cc runs them:
//   quantized (16x8 models), general scales: the int8 path's arithmetic with a 15-bit headroom
//     (both inputs shifted left 15, rescaled to twice the larger input scale, summed, rescaled to
//     the output), zero points all 0;
//   quantized, power-of-two scales (AddOptions.pot_scale_int16, the schema's default, and every
//     scale a power of two): the input whose scale differs from the output's is divided by a
//     power of two with rounding and the two are added saturating, as LSTM cells quantize;
//   not quantized: a plain int16 sum that wraps, clamped to the activation's integer bounds.
// SUB (tflite/kernels/sub.cc) takes the same quantized paths, its power-of-two one broadcasting
// and its general one taking any zero points; it has no plain path.
#ifndef RUNTIME_KERNELS_CPU_INT16_ADD_H_
#define RUNTIME_KERNELS_CPU_INT16_ADD_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareInt16Add(KernelContext& context);
[[nodiscard]] Status EvalInt16Add(KernelContext& context);
[[nodiscard]] Status PrepareInt16Sub(KernelContext& context);
[[nodiscard]] Status EvalInt16Sub(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT16_ADD_H_
