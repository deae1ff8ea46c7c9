// SIN and COS of float32 tensors, element by element with the C library's sinf/cosf, as upstream
// (tflite/kernels/elementwise.cc: SinEval and CosEval pass std::sin / std::cos on float). Both
// use PrepareUnaryFloat (activations.h): one float32 input, a float32 output of its shape.
#ifndef RUNTIME_KERNELS_CPU_TRIGONOMETRY_H_
#define RUNTIME_KERNELS_CPU_TRIGONOMETRY_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status EvalSin(KernelContext& context);
[[nodiscard]] Status EvalCos(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TRIGONOMETRY_H_
