// CONCATENATION of int8/uint8 tensors (tflite/kernels/concatenation.cc). int8 inputs must carry
// the output's scale and zero point (upstream refuses to rescale int8), so their bytes are
// copied. uint8 inputs with other parameters are rescaled as reference_ops::
// ConcatenationWithScaling does: round(q * s_in / s_out - zp_in * s_in / s_out) + zp_out in float.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_CONCATENATION_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_CONCATENATION_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedConcatenation(KernelContext& context);
[[nodiscard]] Status EvalQuantizedConcatenation(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_CONCATENATION_H_
