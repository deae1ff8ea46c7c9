// WHERE (tflite/kernels/where.cc, reference_ops SelectTrueCoords): the coordinates of the true
// (nonzero) elements of the condition, in row-major order, as an int64 output of shape
// [count, rank]. Conditions bool, float32, int64, int32, int8, uint8, uint32; a float NaN counts
// as nonzero, -0.0 as zero. A scalar condition is an error at Eval, as upstream.
//
// The count is only known from the values. A constant condition is counted at Prepare; otherwise
// upstream makes the output dynamic and sizes it at Eval, which this runtime cannot do: Prepare
// checks the planned output is [n, rank] and Eval requires n to be the count it finds.
#ifndef RUNTIME_KERNELS_CPU_WHERE_H_
#define RUNTIME_KERNELS_CPU_WHERE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareWhere(KernelContext& context);
[[nodiscard]] Status EvalWhere(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_WHERE_H_
