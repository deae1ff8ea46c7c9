// SCATTER_ND (tflite/kernels/scatter_nd.cc, reference_ops ScatterNd): a zero tensor of the shape
// input 2 holds, with each slice of updates (input 1) added at the coordinates its row of
// indices (input 0) gives; duplicate coordinates add up (integers wrap, bools OR). Indices and
// shape int32 only: upstream rejects other index types. Updates float32, uint8, bool, int8,
// int32, int64 (uint16 is refused: upstream scatters it dequantized). A coordinate outside its
// dimension is an error, as upstream.
//
// A constant shape is read at Prepare. Upstream makes the output dynamic otherwise; this runtime
// cannot resize an output, so Eval requires the planned shape to be the one input 2 holds.
#ifndef RUNTIME_KERNELS_CPU_SCATTER_ND_H_
#define RUNTIME_KERNELS_CPU_SCATTER_ND_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareScatterNd(KernelContext& context);
[[nodiscard]] Status EvalScatterNd(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SCATTER_ND_H_
