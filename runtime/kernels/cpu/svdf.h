// SVDF (a fully connected layer factored into a feature and a time filter over a memory of past
// activations), as upstream's tflite/kernels/svdf.cc with reference/svdf.h: float32, and full
// integer (int8 input and feature weights, int16 time weights and state, int32 bias, int8 output,
// rescaled with TFLite's double-rounding MultiplyByQuantizedMultiplier, bit-exact). Each Eval
// shifts the variable state input (4) left by one in place and writes the new activations into
// each filter's last memory slot. The hybrid kernel (float input, 8-bit weights) is not here.
#ifndef RUNTIME_KERNELS_CPU_SVDF_H_
#define RUNTIME_KERNELS_CPU_SVDF_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSvdf(KernelContext& context);
[[nodiscard]] Status EvalSvdf(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SVDF_H_
