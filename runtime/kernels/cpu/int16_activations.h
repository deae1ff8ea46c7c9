// Activations on int16 tensors (16x8 models), as upstream's default kernels compute them
// (tflite/kernels/activations.cc, kGenericOptimized):
//   RELU, RELU6: zero points 0; the input rescaled to the output scale (double-rounding fixed
//     point), clamped to round(bound / scale);
//   LEAKY_RELU: zero points 0; x >= 0 rescaled by s_in / s_out, else by s_in * alpha / s_out;
//   LOGISTIC, TANH: zero points 0, output scale 2^-15 (LOGISTIC: exactly 1/32768). An input
//     scale of 2^-12 (TANH also 2^-11) takes gemmlowp's 16-bit fixed point
//     (optimized_ops::Logistic/Tanh); any other takes reference_integer_ops' interpolated
//     256-entry sigmoid table, the input first rescaled to 1/(3 * 4096) by an integer
//     multiplier and a rounding right shift.
// Every multiplier comes from float scales divided in float, then widened, as upstream's
// Prepare computes them.
#ifndef RUNTIME_KERNELS_CPU_INT16_ACTIVATIONS_H_
#define RUNTIME_KERNELS_CPU_INT16_ACTIVATIONS_H_

#include <cstdint>

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareInt16Relu(KernelContext& context);
[[nodiscard]] Status EvalInt16Relu(KernelContext& context);
[[nodiscard]] Status EvalInt16Relu6(KernelContext& context);
[[nodiscard]] Status PrepareInt16LeakyRelu(KernelContext& context);
[[nodiscard]] Status EvalInt16LeakyRelu(KernelContext& context);
[[nodiscard]] Status PrepareInt16Logistic(KernelContext& context);
[[nodiscard]] Status EvalInt16Logistic(KernelContext& context);
[[nodiscard]] Status PrepareInt16Tanh(KernelContext& context);
[[nodiscard]] Status EvalInt16Tanh(KernelContext& context);

// reference_integer_ops' table kernels for an input already rescaled by `multiplier` and
// `left_shift` (the non power-of-two input scales): exposed for the tests.
int16_t SigmoidTableLogistic(int16_t x, int32_t multiplier, int left_shift);
int16_t SigmoidTableTanh(int16_t x, int32_t multiplier, int left_shift);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_INT16_ACTIVATIONS_H_
