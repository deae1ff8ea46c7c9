// SELECT and SELECT_V2 (tflite/kernels/select.cc, reference_ops Select / RankOneSelect /
// BroadcastSelect5DSlow): output[i] = condition[i] ? x[i] : y[i], condition bool, x and y of one
// type, any type of 1, 2, 4 or 8 bytes (the values are copied, never read).
//
// Which shapes each accepts, as upstream's Prepare:
// - condition, x, y and the output all of one element: the output keeps its planned shape;
// - condition, x and y of one shape: element by element;
// - SELECT otherwise: x and y of one shape and a scalar condition (picks all of x or y) or a
//   rank-1 condition as long as x's first dimension (picks whole rows);
// - SELECT_V2 otherwise: numpy broadcasting of all three, an output of rank 8 at most.
// uint16 x, y and output of different quantization are refused: upstream dequantizes them first.
#ifndef RUNTIME_KERNELS_CPU_SELECT_H_
#define RUNTIME_KERNELS_CPU_SELECT_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSelect(KernelContext& context);
[[nodiscard]] Status EvalSelect(KernelContext& context);
[[nodiscard]] Status PrepareSelectV2(KernelContext& context);
[[nodiscard]] Status EvalSelectV2(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SELECT_H_
