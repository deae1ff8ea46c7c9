// FULLY_CONNECTED with float32 input and output and int8 weights (upstream's hybrid path,
// tflite/kernels/fully_connected.cc EvalHybrid): output = bias, each input row quantized to int8
// (symmetric, or asymmetric with asymmetric_quantize_inputs), int8 dot products rescaled by the
// row's and the weights' scales, then the fused activation.
#ifndef RUNTIME_KERNELS_CPU_HYBRID_FULLY_CONNECTED_H_
#define RUNTIME_KERNELS_CPU_HYBRID_FULLY_CONNECTED_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareHybridFullyConnected(KernelContext& context);
[[nodiscard]] Status EvalHybridFullyConnected(KernelContext& context);

// True when the node is a hybrid one: float32 input, int8 weights.
bool IsHybridFullyConnected(const KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_HYBRID_FULLY_CONNECTED_H_
