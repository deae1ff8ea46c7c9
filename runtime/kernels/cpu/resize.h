// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (float32, NHWC) with upstream's coordinate math
// (tflite/kernels/internal/reference/resize_*.h): scale = in / out, or (in - 1) / (out - 1)
// with align_corners; half_pixel_centers samples at (x + 0.5) * scale - 0.5 (bilinear) or
// (x + 0.5) * scale (nearest); bilinear clamps the two taps to the image and weighs them by the
// distance to the unclamped lower tap; nearest rounds with align_corners, floors otherwise.
#ifndef RUNTIME_KERNELS_CPU_RESIZE_H_
#define RUNTIME_KERNELS_CPU_RESIZE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareResize(KernelContext& context);
[[nodiscard]] Status EvalResizeBilinear(KernelContext& context);
[[nodiscard]] Status EvalResizeNearestNeighbor(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_RESIZE_H_
