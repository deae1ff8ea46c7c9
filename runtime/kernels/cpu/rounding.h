// FLOOR, CEIL and ROUND (float32). ROUND rounds halves to the even neighbour, as upstream's
// RoundToNearest (tflite/kernels/internal/reference/round.h), not std::round's away from zero.
#ifndef RUNTIME_KERNELS_CPU_ROUNDING_H_
#define RUNTIME_KERNELS_CPU_ROUNDING_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

float RoundHalfToEven(float x);

[[nodiscard]] Status EvalFloor(KernelContext& context);
[[nodiscard]] Status EvalCeil(KernelContext& context);
[[nodiscard]] Status EvalRound(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_ROUNDING_H_
