// REDUCE_MAX, REDUCE_MIN, REDUCE_PROD, REDUCE_ANY and REDUCE_ALL over the axes of an int32 axis
// tensor (negative axes count from the end, repeats ignored), keep_dims or not
// (tflite/kernels/reduce.cc EvalGeneric): an init value folded with a reducer in input order.
// Types as upstream's:
//   MAX, MIN float32, int32, int64, and int8, uint8, int16 on stored values, which upstream
//            allows only when input and output share scale and zero point;
//   PROD     float32, int32, int64 (integers wrap), and quantized int8 / int16 (int16 with zero
//            points 0):
//            every factor after the first multiplied in and rescaled by s_in / s_out^(1/n) with
//            upstream's int64 fixed-point multiply, the product rescaled once more
//            (optimized_ops::QuantizedReduceProd);
//   ANY, ALL bool.
// An empty reduction gives the init value (lowest for MAX, highest for MIN, 1, false, true).
// Like upstream's default (optimized) kernel it writes the resolved axes to temporary 1 and the
// normalized dims to temporary 3 when the plan gave them
// (libanalysis/prepare/builtin_kernel_prepare.cc PrepareReduce).
#ifndef RUNTIME_KERNELS_CPU_REDUCE_GENERIC_H_
#define RUNTIME_KERNELS_CPU_REDUCE_GENERIC_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareReduceExtremum(KernelContext& context);
[[nodiscard]] Status EvalReduceMax(KernelContext& context);
[[nodiscard]] Status EvalReduceMin(KernelContext& context);
[[nodiscard]] Status PrepareReduceProd(KernelContext& context);
[[nodiscard]] Status EvalReduceProd(KernelContext& context);
[[nodiscard]] Status PrepareReduceLogical(KernelContext& context);
[[nodiscard]] Status EvalReduceAny(KernelContext& context);
[[nodiscard]] Status EvalReduceAll(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_REDUCE_GENERIC_H_
