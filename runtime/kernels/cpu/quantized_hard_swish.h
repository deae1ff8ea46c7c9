// HARD_SWISH on int8/uint8 tensors, x * relu6(x + 3) / 6, with upstream's 16-bit fixed-point
// arithmetic (tflite/kernels/activations.cc HardSwishPrepare, internal/reference/hard_swish.h):
// the input, offset and shifted left by 7, is rescaled once to the output scale and once to a
// "reluish" scale on which 3.0 is 32768; the reluish value, saturated to [-1, 1] and mapped to
// [0, 1], multiplies the first with a truncating doubling high multiply; a rounding shift brings
// it to the output scale. Both multipliers are computed from float scales and cut to 16 bits.
// The output depends on the stored input byte alone, so the kernel evaluates that arithmetic for
// the 256 bytes once and looks each element up.
//
// Upstream refuses an output multiplier input_scale / (128 * output_scale) of 1 or more (its
// exponent > 0). This follows reference_ops::HardSwish; upstream's default registration runs
// optimized_ops::HardSwish, meant to compute the same, which has not been compared line by line.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_HARD_SWISH_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_HARD_SWISH_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedHardSwish(KernelContext& context);
[[nodiscard]] Status EvalQuantizedHardSwish(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_HARD_SWISH_H_
