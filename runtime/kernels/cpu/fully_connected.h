// FULLY_CONNECTED (float32, default weights format): input flattened to [batch, in_dim] with
// in_dim = weights' second dimension, weights [units, in_dim], optional bias [units], fused
// activation; keep_num_dims keeps the input's leading dimensions. Eigen's GEMM (gemm.h), split over
// the threads.
#ifndef RUNTIME_KERNELS_CPU_FULLY_CONNECTED_H_
#define RUNTIME_KERNELS_CPU_FULLY_CONNECTED_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareFullyConnected(KernelContext& context);
[[nodiscard]] Status EvalFullyConnected(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_FULLY_CONNECTED_H_
