// The geometry the float, quantized, hybrid and 16x8 kernels share: convolution, depthwise
// convolution, pooling and fully connected read their input, filter and options the same way
// whatever the element type, so the shapes are checked and the output size and padding derived in
// one place (upstream's ComputePaddingHeightWidth, tflite/kernels/padding.h).
#ifndef RUNTIME_KERNELS_CPU_WINDOW_GEOMETRY_H_
#define RUNTIME_KERNELS_CPU_WINDOW_GEOMETRY_H_

#include <algorithm>
#include <cstdint>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// Output pixels gathered per im2col pass: bounds the scratch for large images.
inline constexpr int64_t kIm2colRows = 512;

struct ConvGeometry {
  int32_t batches, in_h, in_w, in_c, out_h, out_w, out_c, kh, kw;
  int32_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;

  int64_t depth() const { return int64_t{kh} * kw * in_c; }
  // A 1x1 stride-1 unpadded convolution reads the input as the im2col matrix itself.
  bool pointwise() const {
    return kh == 1 && kw == 1 && stride_h == 1 && stride_w == 1 && pad_top == 0 && pad_left == 0;
  }
  int64_t rows_per_pass() const { return std::min<int64_t>(kIm2colRows, int64_t{out_h} * out_w); }
};

struct DepthwiseGeometry {
  int32_t batches, in_h, in_w, in_c, out_h, out_w, out_c, kh, kw, multiplier;
  int32_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
};

struct PoolGeometry {
  int32_t batches, in_h, in_w, channels, out_h, out_w, pad_top, pad_left;
};

// FULLY_CONNECTED: weights [units, in_dim]; the input is `batch` rows of in_dim (any shape with a
// multiple of in_dim elements).
struct FullyConnectedGeometry {
  int64_t batch = 0, in_dim = 0, units = 0;
};

// CONV_2D: input [b, h, w, c], filter [out_c, kh, kw, c], optional bias; the output shape must be
// the one the window gives. Element types are the caller's to check.
[[nodiscard]] Result<ConvGeometry> ConvGeometryOf(const KernelContext& context);

// DEPTHWISE_CONV_2D: filter [1, kh, kw, out_c] with out_c a multiple of the input channels.
[[nodiscard]] Result<DepthwiseGeometry> DepthwiseGeometryOf(const KernelContext& context);

// FULLY_CONNECTED with the default weights format: the output must be [batch, units], or with
// keep_num_dims the input's shape with units last. Element types are the caller's to check.
[[nodiscard]] Result<FullyConnectedGeometry> FullyConnectedGeometryOf(const KernelContext& context);

// Refuses FULLY_CONNECTED weights stored sparse (no DENSIFY before the node): upstream's kernel
// runs its own sparse paths on them (FullyConnectedSparseWeight, 1x4 and 1x16 blocks), which
// these kernels do not have; read as dense they would be garbage.
[[nodiscard]] Status CheckDenseWeights(const RuntimeTensor& weights);

// AVERAGE_POOL_2D / MAX_POOL_2D: input [b, h, w, c], positive strides and filter sizes.
[[nodiscard]] Result<PoolGeometry> PoolGeometryOf(const KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_WINDOW_GEOMETRY_H_
