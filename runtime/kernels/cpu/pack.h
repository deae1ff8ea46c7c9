// PACK and UNPACK (tflite/kernels/pack.cc, unpack.cc): PACK stacks its inputs (all of one shape
// and type; values_count is the input count) along a new dimension `axis` of the output; UNPACK
// cuts its input along `axis` into one output per entry, the dimension removed. Both copy bytes,
// so any element type of whole bytes would do; they accept the types upstream's Prepare does:
// PACK float32, int8, uint8, int16, uint16, int32, uint32, int64 (not bool); UNPACK float32,
// float16, bfloat16, int8, uint8, int16, int32, bool (not int64). The inputs' and outputs'
// quantization (first scale and zero point) must agree, as upstream requires.
#ifndef RUNTIME_KERNELS_CPU_PACK_H_
#define RUNTIME_KERNELS_CPU_PACK_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PreparePack(KernelContext& context);
[[nodiscard]] Status EvalPack(KernelContext& context);
[[nodiscard]] Status PrepareUnpack(KernelContext& context);
[[nodiscard]] Status EvalUnpack(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_PACK_H_
