// TILE (tflite/kernels/tile.cc): the input repeated `multiples[d]` times along each dimension d;
// multiples is an int32 or int64 tensor of one value per input dimension. Any fixed-size type is
// copied element by element (upstream's float, int8, uint8, int16, int32, int64 and bool).
#ifndef RUNTIME_KERNELS_CPU_TILE_H_
#define RUNTIME_KERNELS_CPU_TILE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareTile(KernelContext& context);
[[nodiscard]] Status EvalTile(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TILE_H_
