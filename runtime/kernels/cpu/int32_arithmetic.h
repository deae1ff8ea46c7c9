// ADD, SUB and MUL on int32 or int64 tensors with numpy broadcasting and the fused activation's
// integer bounds (upstream's CalculateActivationRange<T>: RELU [0, max], RELU6 [0, 6],
// RELU_N1_TO_1 [-1, 1], others unbounded). Overflow wraps, as the two's-complement arithmetic of
// upstream's reference kernels does in practice.
#ifndef RUNTIME_KERNELS_CPU_INT32_ARITHMETIC_H_
#define RUNTIME_KERNELS_CPU_INT32_ARITHMETIC_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareInt32Or64Binary(KernelContext& context);
[[nodiscard]] Status EvalInt32Or64Add(KernelContext& context);
[[nodiscard]] Status EvalInt32Or64Sub(KernelContext& context);
[[nodiscard]] Status EvalInt32Or64Mul(KernelContext& context);
// DIV and SQUARED_DIFFERENCE take int32, not int64. DIV truncates toward zero and a zero
// divisor is an error at Eval; SQUARED_DIFFERENCE has no fused activation.
[[nodiscard]] Status PrepareInt32Binary(KernelContext& context);
[[nodiscard]] Status EvalInt32Div(KernelContext& context);
[[nodiscard]] Status EvalInt32SquaredDifference(KernelContext& context);

// Runs the integer kernel when input 0 is int32 or int64, else the other one, so that one op
// name maps to both in the kernel table.
template <KernelFunction kOther, KernelFunction kInteger>
Status ByInt32Or64Input(KernelContext& context) {
  const bool integer = !context.inputs.empty() && context.inputs[0] &&
                       (context.inputs[0]->type == TensorType::kInt32 ||
                        context.inputs[0]->type == TensorType::kInt64);
  return integer ? kInteger(context) : kOther(context);
}

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT32_ARITHMETIC_H_
