// ADD, SUB and MUL on int32 tensors with numpy broadcasting and the fused activation's int32
// bounds (upstream's CalculateActivationRange<int32_t>: RELU [0, max], RELU6 [0, 6],
// RELU_N1_TO_1 [-1, 1], others unbounded). Overflow wraps, as the two's-complement arithmetic of
// upstream's reference kernels does in practice.
#ifndef RUNTIME_KERNELS_CPU_INT32_ARITHMETIC_H_
#define RUNTIME_KERNELS_CPU_INT32_ARITHMETIC_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareInt32Binary(KernelContext& context);
[[nodiscard]] Status EvalInt32Add(KernelContext& context);
[[nodiscard]] Status EvalInt32Sub(KernelContext& context);
[[nodiscard]] Status EvalInt32Mul(KernelContext& context);

// Runs the int32 kernel when input 0 is int32, else the other one, so that one op name maps to
// both in the kernel table.
template <KernelFunction kOther, KernelFunction kInt32>
Status ByInt32Input(KernelContext& context) {
  const bool int32 =
      !context.inputs.empty() && context.inputs[0] && context.inputs[0]->type == TensorType::kInt32;
  return int32 ? kInt32(context) : kOther(context);
}

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT32_ARITHMETIC_H_
