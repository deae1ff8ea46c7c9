// ONE_HOT (tflite/kernels/one_hot.cc): int32/int64 indices, an int32 scalar depth and scalar
// on/off values of the output's type (float32, int32, int64, int16, int8, uint8, bool); the
// depth dimension goes in at `axis` (-1: last). Element [prefix, d, suffix] is on when
// index[prefix, suffix] == d, else off. As upstream, an index outside [0, depth) is no error: its
// slice is all off; int64 indices are compared after narrowing to int. A negative depth is an
// error.
#ifndef RUNTIME_KERNELS_CPU_ONE_HOT_H_
#define RUNTIME_KERNELS_CPU_ONE_HOT_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareOneHot(KernelContext& context);
[[nodiscard]] Status EvalOneHot(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_ONE_HOT_H_
