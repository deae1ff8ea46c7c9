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

// The window of either op, from its custom options and tensors (checked): the pooled side's and
// the unpooled side's sizes, and the padding MediaPipe's Prepare computes (padding.h
// ComputePadding). `activation` is MaxPoolingWithArgmax2D's fused one.
struct ArgmaxWindow {
  int32_t batches, channels;
  int32_t big_h, big_w;      // the pooling's input, the unpooling's output
  int32_t small_h, small_w;  // the pooling's outputs, the unpooling's inputs
  int32_t filter_h, filter_w, stride_h, stride_w, pad_top, pad_left;
  Activation activation;
};
[[nodiscard]] Result<ArgmaxWindow> MaxPoolingWithArgmaxWindow(const KernelContext& context);
[[nodiscard]] Result<ArgmaxWindow> MaxUnpoolingWindow(const KernelContext& context);

[[nodiscard]] Status PrepareMaxPoolingWithArgmax(KernelContext& context);
[[nodiscard]] Status EvalMaxPoolingWithArgmax(KernelContext& context);

[[nodiscard]] Status PrepareMaxUnpooling(KernelContext& context);
[[nodiscard]] Status EvalMaxUnpooling(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_MAX_POOL_ARGMAX_H_
