// REAL, IMAG and COMPLEX_ABS (tflite/kernels/complex_support.cc): each element's real part,
// imaginary part or magnitude, complex64 to float32 and complex128 to float64; any other input
// type, or an output of the other width, is refused at Prepare as upstream refuses it.
#ifndef RUNTIME_KERNELS_CPU_COMPLEX_PARTS_H_
#define RUNTIME_KERNELS_CPU_COMPLEX_PARTS_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

// One Prepare for the three ops: upstream's complex::Prepare.
[[nodiscard]] Status PrepareComplexPart(KernelContext& context);
[[nodiscard]] Status EvalReal(KernelContext& context);
[[nodiscard]] Status EvalImag(KernelContext& context);
[[nodiscard]] Status EvalComplexAbs(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_COMPLEX_PARTS_H_
