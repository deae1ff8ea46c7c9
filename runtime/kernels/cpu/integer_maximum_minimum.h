// MAXIMUM and MINIMUM on int8, uint8, int16, int32 and int64 tensors, with numpy broadcasting
// (tflite/kernels/maximum_minimum.cc, reference_ops::MaximumMinimumBroadcastSlow). Upstream
// compares the stored values as they are: it requires both inputs to have the output's type and
// nothing of their quantization (the converter gives quantized inputs the output's scale and zero
// point), so a model whose inputs differ in scale gets upstream's stored-value answer here too.
#ifndef RUNTIME_KERNELS_CPU_INTEGER_MAXIMUM_MINIMUM_H_
#define RUNTIME_KERNELS_CPU_INTEGER_MAXIMUM_MINIMUM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareIntegerMaximumMinimum(KernelContext& context);
[[nodiscard]] Status EvalIntegerMaximum(KernelContext& context);
[[nodiscard]] Status EvalIntegerMinimum(KernelContext& context);

// True when input 0 is one of the integer types above.
bool HasIntegerInput(const KernelContext& context);

// Runs the integer kernel when input 0 is an integer type, else the other (float) one, so that one
// op name maps to both in the kernel table.
template <KernelFunction kOther, KernelFunction kInteger>
Status ByIntegerInput(KernelContext& context) {
  return HasIntegerInput(context) ? kInteger(context) : kOther(context);
}

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INTEGER_MAXIMUM_MINIMUM_H_
