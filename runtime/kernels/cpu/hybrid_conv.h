// CONV_2D with float32 input and output and int8 filter: upstream's hybrid ("dynamic range")
// kernel, tflite/kernels/conv.cc EvalHybrid and EvalHybridPerChannel with
// optimized_ops::HybridConv / HybridConvPerChannel. It works in the temporaries upstream's Prepare
// adds, which the arena plans: [im2col int8 when the window is not 1x1 stride 1 undilated],
// input_quantized int8 (input shape), scaling_factors float32, accum_scratch int32 [out_c, pixels],
// then for per-channel filters input_offsets int32 and row_sums int32 (persistent). A node with no
// planned temporaries (one a delegate partition runs on these kernels) lays them out in scratch.
//   per-tensor filter (or per-channel scales all equal): each image is quantized symmetrically,
//     its scale times the filter's scale is the row factor; out = float(dot) * factor + bias;
//   per-channel filter: each image is quantized asymmetrically (zero point zp, im2col pads with
//     it); out = float(dot - row_sum * zp) * (channel scale * image scale) + bias.
// Then the fused activation. Grouped, uint8- and int4-filter hybrid convolutions are refused.
#ifndef RUNTIME_KERNELS_CPU_HYBRID_CONV_H_
#define RUNTIME_KERNELS_CPU_HYBRID_CONV_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareHybridConv2D(KernelContext& context);
[[nodiscard]] Status EvalHybridConv2D(KernelContext& context);

// True when the node is a hybrid one: float32 input, integer filter.
bool IsHybridConv2D(const KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_HYBRID_CONV_H_
