// ARG_MAX and ARG_MIN (tflite/kernels/arg_min_max.cc): the index of the largest (smallest) value
// along the axis that input 1 holds (int32 or int64, one value, possibly negative), the axis
// removed from the shape. Inputs float32, uint8, int8, int32 and bool; the output's type (int32
// or int64, upstream's ArgMaxOptions output_type) is the index type. Ties give the first index.
//
// NaN follows upstream's two paths: for float32 when the dimensions after the axis hold one
// element (optimized_ops.h's ArgMinMaxLastAxis) the scan is a plain strict comparison seeded with
// the first element, so a leading NaN wins and later NaNs never do; otherwise reference_ops'
// NaN-aware comparator never picks a NaN over a number. (Upstream's NEON path, which x86 builds may
// take through NEON_2_SSE, is not reproduced for NaN; without NaN all paths agree.)
//
// The axis is read at Prepare when constant. Upstream makes the output dynamic otherwise; this
// runtime cannot resize an output, so Eval requires the planned shape to be the computed one.
#ifndef RUNTIME_KERNELS_CPU_ARG_MIN_MAX_H_
#define RUNTIME_KERNELS_CPU_ARG_MIN_MAX_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareArgMinMax(KernelContext& context);
[[nodiscard]] Status EvalArgMax(KernelContext& context);
[[nodiscard]] Status EvalArgMin(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_ARG_MIN_MAX_H_
