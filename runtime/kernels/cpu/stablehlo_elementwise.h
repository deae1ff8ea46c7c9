// The StableHLO element-wise ops upstream's builtin resolver runs (tflite/kernels/
// stablehlo_elementwise.h, stablehlo_shift_left.cc): STABLEHLO_ADD, MULTIPLY, MAXIMUM, MINIMUM and
// AND on two inputs of one shape (no broadcasting), and SHIFT_LEFT on int8, int16 or int32.
//
// What upstream computes, kept here: integers wrap (the sum or product is narrowed back to the
// type), bool ADD is OR and MULTIPLY is AND, float16 rounds each result to half, and MAXIMUM /
// MINIMUM are std::max / std::min (a NaN in the first input wins MAXIMUM, one in the second loses
// it). AND takes no floating type. SHIFT_LEFT shifts the value promoted to int and narrows it
// back; a shift outside [0, 31] is undefined in upstream's C++ and is refused at Eval.
#ifndef RUNTIME_KERNELS_CPU_STABLEHLO_ELEMENTWISE_H_
#define RUNTIME_KERNELS_CPU_STABLEHLO_ELEMENTWISE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareStablehloElementwise(KernelContext& context);
[[nodiscard]] Status EvalStablehloAdd(KernelContext& context);
[[nodiscard]] Status EvalStablehloMultiply(KernelContext& context);
[[nodiscard]] Status EvalStablehloMaximum(KernelContext& context);
[[nodiscard]] Status EvalStablehloMinimum(KernelContext& context);
[[nodiscard]] Status PrepareStablehloAnd(KernelContext& context);
[[nodiscard]] Status EvalStablehloAnd(KernelContext& context);
[[nodiscard]] Status PrepareStablehloShiftLeft(KernelContext& context);
[[nodiscard]] Status EvalStablehloShiftLeft(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_STABLEHLO_ELEMENTWISE_H_
