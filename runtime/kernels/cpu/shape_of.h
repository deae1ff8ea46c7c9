// SHAPE (tflite/kernels/shape.cc): the input's dimensions as an int32 or int64 vector (the
// output's type, upstream's out_type). Upstream computes it in Prepare; the runtime evaluates it
// where the plan left it (after a dynamic node, the input's shape is known only at Eval).
// RANK (rank.cc): the input's rank as an int32 scalar, likewise.
#ifndef RUNTIME_KERNELS_CPU_SHAPE_OF_H_
#define RUNTIME_KERNELS_CPU_SHAPE_OF_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareShapeOf(KernelContext& context);
[[nodiscard]] Status EvalShapeOf(KernelContext& context);
[[nodiscard]] Status PrepareRank(KernelContext& context);
[[nodiscard]] Status EvalRank(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SHAPE_OF_H_
