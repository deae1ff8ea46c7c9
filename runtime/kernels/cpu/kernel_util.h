// Checks and arithmetic shared by the CPU kernels: arity, types, shapes, fused activations,
// convolution padding as upstream computes it (tflite/kernels/padding.h), broadcasting.
#ifndef RUNTIME_KERNELS_CPU_KERNEL_UTIL_H_
#define RUNTIME_KERNELS_CPU_KERNEL_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

std::string ShapeString(std::span<const int32_t> shape);

// Errors unless the node has between `min_inputs` and `max_inputs` inputs (absent optional ones
// count) of which the first `min_inputs` are present, and exactly `outputs` outputs.
[[nodiscard]] Status CheckArity(const KernelContext& context, size_t min_inputs, size_t max_inputs,
                                size_t outputs);
// A type the kernel does not take is named as the runtime's gap: "the runtime has no int8 kernel
// for this op's input (it has float32)"; the interpreter puts the node and op in front.
[[nodiscard]] Status CheckType(const RuntimeTensor& tensor, TensorType type, const char* role);
// The same for a kernel taking several types: "... (it has float32, int32)".
[[nodiscard]] Status CheckTypeIn(const RuntimeTensor& tensor, std::span<const TensorType> types,
                                 const char* role);
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

// Calls element(out_index, a_index, b_index) for every element of the numpy broadcast of inputs
// shaped `a` and `b` onto `out`. The last dimension is the inner loop, each input advancing by 0
// or 1 there, so the common cases (same shape, per-channel or scalar operand) are flat loops the
// compiler vectorises.
template <typename Element>
void ForEachBroadcastElement(const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                             const std::vector<int32_t>& out, Element element) {
  int64_t total = 1;
  for (int32_t d : out) total *= d;
  if (total == 0) return;
  if (a == b) {
    for (int64_t i = 0; i < total; ++i) element(i, i, i);
    return;
  }
  const std::vector<int64_t> sa = BroadcastStrides(a, out);
  const std::vector<int64_t> sb = BroadcastStrides(b, out);
  const int rank = static_cast<int>(out.size());
  const int64_t inner = rank == 0 ? 1 : out.back();
  const int64_t ia = rank == 0 ? 0 : sa.back(), ib = rank == 0 ? 0 : sb.back();
  std::vector<int32_t> index(out.size(), 0);
  int64_t offset_a = 0, offset_b = 0;
  for (int64_t o = 0; o < total; o += inner) {
    for (int64_t i = 0; i < inner; ++i) element(o + i, offset_a + i * ia, offset_b + i * ib);
    // Advance the outer index (all dimensions but the last) like an odometer.
    for (int d = rank - 2; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      ++index[ud];
      offset_a += sa[ud];
      offset_b += sb[ud];
      if (index[ud] < out[ud]) break;
      offset_a -= sa[ud] * out[ud];
      offset_b -= sb[ud] * out[ud];
      index[ud] = 0;
    }
  }
}

// A constant int32 or int64 tensor read as int64 values (axes, paddings, shapes).
[[nodiscard]] Result<std::vector<int64_t>> ReadIndexTensor(const RuntimeTensor& tensor,
                                                           const char* role);

// Resolves a possibly negative axis against `rank`.
[[nodiscard]] Result<int> ResolveAxis(int64_t axis, int rank);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_KERNEL_UTIL_H_
