// SIN and COS of float32 tensors, element by element with the C library's sinf/cosf, as upstream
// (tflite/kernels/elementwise.cc: SinEval and CosEval pass std::sin / std::cos on float). Both
// use PrepareUnaryFloat (activations.h): one float32 input, a float32 output of its shape.
// ATAN2 (tflite/kernels/atan2.cc): std::atan2(y, x) element by element, float32 or float64 (not
// upstream's float16, bfloat16 and uint16). Upstream's Prepare compares only the two inputs'
// ranks and then reads as many x as y has elements; here their shapes must be equal.
#ifndef RUNTIME_KERNELS_CPU_TRIGONOMETRY_H_
#define RUNTIME_KERNELS_CPU_TRIGONOMETRY_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status EvalSin(KernelContext& context);
[[nodiscard]] Status EvalCos(KernelContext& context);
[[nodiscard]] Status PrepareAtan2(KernelContext& context);
[[nodiscard]] Status EvalAtan2(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TRIGONOMETRY_H_
