// FLOOR_DIV, FLOOR_MOD and POW with numpy broadcasting, on the types upstream's kernels take:
//   FLOOR_DIV float32, int32, int16, int8: floor(a / b) computed in double (floor_div.cc,
//             reference_ops::FloorDiv); any zero divisor is an error, a float one too;
//   FLOOR_MOD float32, int64, int32, int16, int8: the truncated remainder moved to the divisor's
//             sign (reference_ops::FloorMod); a zero divisor is an error for integers only;
//   POW       float32 (std::pow), int32 by repeated squaring, a negative exponent an error
//             (pow.cc).
#ifndef RUNTIME_KERNELS_CPU_BINARY_MATH_H_
#define RUNTIME_KERNELS_CPU_BINARY_MATH_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareFloorDiv(KernelContext& context);
[[nodiscard]] Status EvalFloorDiv(KernelContext& context);
[[nodiscard]] Status PrepareFloorMod(KernelContext& context);
[[nodiscard]] Status EvalFloorMod(KernelContext& context);
[[nodiscard]] Status PreparePow(KernelContext& context);
[[nodiscard]] Status EvalPow(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BINARY_MATH_H_
