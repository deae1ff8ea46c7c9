// UNIQUE (tflite/kernels/unique.cc): the distinct values of a 1-D input in order of first
// appearance, and for each element the position of its value among them (int32 or int64, the
// index output's type). Inputs int8, int16, uint16, int32, int64, float32, uint8. Values compare
// as upstream's std::map keys do: -0.0 and 0.0 are one value (the first one seen is kept); a NaN,
// which such a map cannot order, is an error at Eval.
//
// The unique values' count is known only at Eval: upstream's Prepare always makes that output
// dynamic, and UniqueOutputShapes gives the interpreter its shape then.
#ifndef RUNTIME_KERNELS_CPU_UNIQUE_H_
#define RUNTIME_KERNELS_CPU_UNIQUE_H_

#include <cstdint>
#include <vector>

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareUnique(KernelContext& context);
[[nodiscard]] Status EvalUnique(KernelContext& context);

// [distinct values] and the input's shape, from the input's values.
[[nodiscard]] Result<std::vector<std::vector<int32_t>>> UniqueOutputShapes(
    const KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_UNIQUE_H_
