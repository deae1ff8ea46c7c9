// CAST between float32, float16, float64, int32, uint32, int64, int16, uint16, int8, uint8 and
// bool, element by element as upstream's copyCast (tflite/kernels/cast.cc): a C++ conversion, to
// bool `x != 0`, float16 through float (to it rounded to nearest even, as FP16's
// fp16_ieee_from_fp32_value).
// Float to integer truncates toward zero; where C++ leaves it undefined (NaN, out of range) the
// result is what x86's truncating conversion gives upstream: the lowest int32 or int64, narrowed
// to the target type.
#ifndef RUNTIME_KERNELS_CPU_CAST_H_
#define RUNTIME_KERNELS_CPU_CAST_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareCast(KernelContext& context);
[[nodiscard]] Status EvalCast(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_CAST_H_
