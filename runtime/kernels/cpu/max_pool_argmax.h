// MediaPipe's custom pooling pair, which segmentation models ship and upstream's GPU delegate
// parses (mediapipe/util/tflite/operations/max_pool_argmax.cc, max_unpooling.cc). Both read a raw
// TfLitePoolParams from the custom options (padding, strides, filter size, activation).
// - MaxPoolingWithArgmax2D: float max pooling whose second output is, per output element, the
//   position of the maximum in its window as a float: y * filter_width + x + 0.1 (the 0.1 makes
//   the truncation back to int exact);
// - MaxUnpooling2D: the inverse: an output filter_h x filter_w times larger, zero except where the
//   indices put each input value.
#ifndef RUNTIME_KERNELS_CPU_MAX_POOL_ARGMAX_H_
#define RUNTIME_KERNELS_CPU_MAX_POOL_ARGMAX_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareMaxPoolingWithArgmax(KernelContext& context);
[[nodiscard]] Status EvalMaxPoolingWithArgmax(KernelContext& context);

[[nodiscard]] Status PrepareMaxUnpooling(KernelContext& context);
[[nodiscard]] Status EvalMaxUnpooling(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_MAX_POOL_ARGMAX_H_
