// BATCH_MATMUL in every type pair upstream's kernel takes (float32, float32 x int8 hybrid, int8,
// int8 -> int32, int16, int16 x int8): lhs [..., n, k] (or [..., k, n] with adj_x) times rhs
// [..., k, m] (or [..., m, k] with adj_y), batch dimensions broadcast as numpy does
// (tflite/kernels/batch_matmul.cc, reference_ops::BatchMatMul).
#ifndef RUNTIME_KERNELS_CPU_BATCH_MATMUL_H_
#define RUNTIME_KERNELS_CPU_BATCH_MATMUL_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareBatchMatMul(KernelContext& context);
[[nodiscard]] Status EvalBatchMatMul(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_BATCH_MATMUL_H_
