// TOPK_V2 (tflite/kernels/topk_v2.cc): the k largest values of each row (the last dimension) of
// input 0, largest first, ties by the lower index first, and their indices. k is input 1 (int32
// or int16, one value); a k of 0 or less gives rows of length 0, a k past the row length is an
// error. Inputs float32, uint8, int8, int16, int32, int64; the values output has the input's type,
// the indices output int32 or int16.
//
// The rows are collected with the same pushes and heap operations as upstream's TopContainer, so
// the order matches even where the comparison is not a strict order (NaN values).
//
// k is read at Prepare when constant. Upstream makes both outputs dynamic otherwise (a graph
// input k); this runtime cannot resize an output, so Prepare checks all but the last dimension
// and Eval requires the planned last dimension to be the k it reads.
#ifndef RUNTIME_KERNELS_CPU_TOPK_H_
#define RUNTIME_KERNELS_CPU_TOPK_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareTopKV2(KernelContext& context);
[[nodiscard]] Status EvalTopKV2(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TOPK_H_
