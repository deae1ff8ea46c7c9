// FAKE_QUANT (tflite/kernels/fake_quant.cc): float32 values clamped to the nudged [min, max]
// range of `num_bits` levels and rounded to the nearest level, as TensorFlow's
// FakeQuantWithMinMaxArgs (quantization_util.cc NudgeQuantizationRange, FakeQuantizeArray).
// narrow_range is refused, as upstream's Prepare refuses it. A bit width the uint16 zero point
// cannot hold, or a range that is not finite with min < max (upstream DCHECKs it and computes
// NaNs), is refused instead of giving such numbers.
#ifndef RUNTIME_KERNELS_CPU_FAKE_QUANT_H_
#define RUNTIME_KERNELS_CPU_FAKE_QUANT_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareFakeQuant(KernelContext& context);
[[nodiscard]] Status EvalFakeQuant(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_FAKE_QUANT_H_
