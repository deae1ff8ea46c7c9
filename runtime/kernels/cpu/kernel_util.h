// Checks and arithmetic shared by the CPU kernels: arity, types, shapes, fused activations,
// convolution padding as upstream computes it (tflite/kernels/padding.h), broadcasting.
#ifndef RUNTIME_KERNELS_CPU_KERNEL_UTIL_H_
#define RUNTIME_KERNELS_CPU_KERNEL_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

std::string ShapeString(const std::vector<int32_t>& shape);

// Errors unless the node has between `min_inputs` and `max_inputs` inputs (absent optional ones
// count) of which the first `min_inputs` are present, and exactly `outputs` outputs.
[[nodiscard]] Status CheckArity(const KernelContext& context, size_t min_inputs, size_t max_inputs,
                                size_t outputs);
[[nodiscard]] Status CheckType(const RuntimeTensor& tensor, TensorType type, const char* role);
[[nodiscard]] Status CheckRank(const RuntimeTensor& tensor, int rank, const char* role);
// The planned output shape must be what the kernel computes: the arena was sized from it.
[[nodiscard]] Status CheckOutputShape(const RuntimeTensor& output,
                                      const std::vector<int32_t>& computed);

// Clamp bounds of a fused activation; kSignBit clamps nothing (as upstream), TANH and unknown
// ones are errors.
struct ActivationRange {
  float min;
  float max;
  float Apply(float x) const { return std::min(std::max(x, min), max); }
};
[[nodiscard]] Result<ActivationRange> GetActivationRange(Activation activation);

// Output size along one spatial dimension (upstream's ComputeOutSize).
int32_t ConvOutputSize(Padding padding, int32_t in, int32_t filter, int32_t stride,
                       int32_t dilation);
// Padding before the first element along one dimension (upstream's ComputePaddingWithOffset:
// the odd pixel of SAME padding goes after).
int32_t ConvPaddingBefore(Padding padding, int32_t in, int32_t filter, int32_t stride,
                          int32_t dilation, int32_t out);

// Strides, dilations, output size and leading padding of a 2-D window op (convolutions), from its
// options and the `in_h`/`in_w`/`kh`/`kw` already in `g`: any geometry struct with those fields.
template <typename Geometry>
[[nodiscard]] Status FillConvWindow(const OpOptions& o, Geometry& g) {
  if (o.stride_h <= 0 || o.stride_w <= 0 || o.dilation_h <= 0 || o.dilation_w <= 0) {
    return Status::Error("strides and dilations must be positive");
  }
  g.stride_h = o.stride_h;
  g.stride_w = o.stride_w;
  g.dilation_h = o.dilation_h;
  g.dilation_w = o.dilation_w;
  g.out_h = ConvOutputSize(o.padding, g.in_h, g.kh, g.stride_h, g.dilation_h);
  g.out_w = ConvOutputSize(o.padding, g.in_w, g.kw, g.stride_w, g.dilation_w);
  g.pad_top = ConvPaddingBefore(o.padding, g.in_h, g.kh, g.stride_h, g.dilation_h, g.out_h);
  g.pad_left = ConvPaddingBefore(o.padding, g.in_w, g.kw, g.stride_w, g.dilation_w, g.out_w);
  return Status::Ok();
}

// The optional float32 bias (input 2) of a convolution has one element per output channel.
[[nodiscard]] Status CheckConvBias(const KernelContext& context, int32_t out_c);

// Numpy broadcasting of two shapes; nullopt status when incompatible.
[[nodiscard]] Result<std::vector<int32_t>> BroadcastShape(const std::vector<int32_t>& a,
                                                          const std::vector<int32_t>& b);

// Element strides of `shape` seen as a tensor of `out_rank` dimensions aligned to the right,
// with stride 0 on broadcast dimensions (size 1 where the output is larger).
std::vector<int64_t> BroadcastStrides(const std::vector<int32_t>& shape,
                                      const std::vector<int32_t>& out);

// A constant int32 or int64 tensor read as int64 values (axes, paddings, shapes).
[[nodiscard]] Result<std::vector<int64_t>> ReadIndexTensor(const RuntimeTensor& tensor,
                                                           const char* role);

// Resolves a possibly negative axis against `rank`.
[[nodiscard]] Result<int> ResolveAxis(int64_t axis, int rank);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_KERNEL_UTIL_H_
