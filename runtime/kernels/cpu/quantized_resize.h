// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on int8/uint8/int16 tensors (same quantization in
// and out). Upstream's default kernel interpolates int8 and int16 in 10-bit fixed point
// (reference_ops::ResizeBilinearInteger: positions as value * scale_10, weights (1 << 10) - frac,
// the 20-bit sum rounded half away from zero) but uint8 in float
// (optimized_ops::ResizeBilinearGenericSmallChannel: weighted sum + 0.5, truncated).
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_RESIZE_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_RESIZE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareQuantizedResize(KernelContext& context);
[[nodiscard]] Status EvalQuantizedResizeBilinear(KernelContext& context);
[[nodiscard]] Status EvalQuantizedResizeNearestNeighbor(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_RESIZE_H_
