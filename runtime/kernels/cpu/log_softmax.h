// LOG_SOFTMAX over the last dimension, as upstream's default kernel (kGenericOptimized in
// tflite/kernels/activations.cc, LogSoftmaxEval) computes it:
//   float32: x - max - log(sum(exp(x - max))) with Eigen's exp and sum, as
//     optimized_ops::LogSoftmax (same formula and order of operations; Eigen's packet width, and
//     so its summation order, may differ from upstream's build by an ulp or so);
//   int8/uint8: optimized_ops::LogSoftmax<T>, a float computation on the stored values: the
//     softmax exp table (SoftmaxExpTable, beta 1) summed left to right in float, then
//     rint(x * s_in / s_out - (s_in * max + log(sum)) / s_out) + zero_point, clamped. Bit-exact
//     with upstream's x86-64 build.
// Upstream's LogSoftmaxPrepare fixes the 8-bit output: scale 16/256 exactly and zero point 255
// (uint8) or 127 (int8), so that the output spans [-16, 0] (log-probabilities are <= 0).
// Input and output types must match.
// Read from LiteRT tflite/kernels/activations.cc @ 049cdbcf and
// tflite/kernels/internal/optimized/optimized_ops.h @ 007168de.
#ifndef RUNTIME_KERNELS_CPU_LOG_SOFTMAX_H_
#define RUNTIME_KERNELS_CPU_LOG_SOFTMAX_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

// float32 only.
[[nodiscard]] Status PrepareLogSoftmax(KernelContext& context);
[[nodiscard]] Status EvalLogSoftmax(KernelContext& context);

// int8 and uint8.
[[nodiscard]] Status PrepareQuantizedLogSoftmax(KernelContext& context);
[[nodiscard]] Status EvalQuantizedLogSoftmax(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_LOG_SOFTMAX_H_
