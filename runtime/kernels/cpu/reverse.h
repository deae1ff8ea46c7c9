// REVERSE_V2 (tflite/kernels/reverse.cc): the input with the order of elements reversed along
// each axis of an int32/int64 axis tensor (negative axes count from the end, repeats ignored),
// for float32, uint8, int8, int16, int32, int64 and bool.
#ifndef RUNTIME_KERNELS_CPU_REVERSE_H_
#define RUNTIME_KERNELS_CPU_REVERSE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareReverseV2(KernelContext& context);
[[nodiscard]] Status EvalReverseV2(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_REVERSE_H_
