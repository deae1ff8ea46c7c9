// Transposed convolutions (float32), both with filter [out_c, kh, kw, in_c]:
//  - TRANSPOSE_CONV (tflite/kernels/transpose_conv.cc): inputs output_shape, filter, input,
//    optional bias; padding computed as for a convolution of the output back to the input;
//  - mediapipe's custom Convolution2DTransposeBias: inputs input, filter, bias; its options are
//    the raw TfLiteTransposeConvParams struct (padding enum, stride_w, stride_h as int32), and
//    SAME padding is max(0, filter - (in - 1) % stride - 1), half of it before.
// Each input pixel scatters filter taps into the output (bias first), as the reference does.
#ifndef RUNTIME_KERNELS_CPU_TRANSPOSE_CONV_H_
#define RUNTIME_KERNELS_CPU_TRANSPOSE_CONV_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareTransposeConv(KernelContext& context);
[[nodiscard]] Status EvalTransposeConv(KernelContext& context);
[[nodiscard]] Status PrepareTransposeConvBias(KernelContext& context);
[[nodiscard]] Status EvalTransposeConvBias(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_TRANSPOSE_CONV_H_
