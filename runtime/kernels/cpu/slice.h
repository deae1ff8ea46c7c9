// SLICE (begin, size with -1 = to the end) and STRIDED_SLICE (begin, end, strides with
// begin/end/shrink-axis masks and `offset`, clamped as tflite/kernels/internal/
// strided_slice_logic.h does), any element type. Ellipsis and new-axis masks are refused.
#ifndef RUNTIME_KERNELS_CPU_SLICE_H_
#define RUNTIME_KERNELS_CPU_SLICE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSlice(KernelContext& context);
[[nodiscard]] Status EvalSlice(KernelContext& context);
[[nodiscard]] Status PrepareStridedSlice(KernelContext& context);
[[nodiscard]] Status EvalStridedSlice(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SLICE_H_
