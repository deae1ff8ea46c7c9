// DEQUANTIZE to float32 from float16 (IEEE half bits), int8, uint8, int16 and the packed int4,
// uint4 and int2 (per-tensor or per-channel along quantized_dimension: (q - zero_point) * scale).
#ifndef RUNTIME_KERNELS_CPU_DEQUANTIZE_H_
#define RUNTIME_KERNELS_CPU_DEQUANTIZE_H_

#include <cstdint>

#include "runtime/kernel.h"

namespace tfa::runtime {

// IEEE 754 binary16 to binary32, exact for every input (subnormals, infinities, NaN).
float HalfToFloat(uint16_t half);

[[nodiscard]] Status PrepareDequantize(KernelContext& context);
[[nodiscard]] Status EvalDequantize(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_DEQUANTIZE_H_
