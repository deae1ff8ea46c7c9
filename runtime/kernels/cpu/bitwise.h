// BITWISE_XOR and RIGHT_SHIFT (tflite/kernels/bitwise_xor.cc, right_shift.cc): elementwise on two
// inputs of one integer type (int8, uint8, int16, uint16, int32, uint32) with numpy broadcasting,
// the output of the inputs' type. RIGHT_SHIFT clamps the shift to [0, bits - 1] and shifts signed
// values arithmetically. Upstream broadcasts through a 4-D loop whose shapes must have at most
// four dimensions (RuntimeShape::ExtendedShape checks it and aborts): such a model is refused.
#ifndef RUNTIME_KERNELS_CPU_BITWISE_H_
#define RUNTIME_KERNELS_CPU_BITWISE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBitwiseBinary(KernelContext& context);
[[nodiscard]] Status EvalBitwiseXor(KernelContext& context);
[[nodiscard]] Status EvalRightShift(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BITWISE_H_
