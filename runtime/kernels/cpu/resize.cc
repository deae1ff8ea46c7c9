#include "runtime/kernels/cpu/resize.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

float Scale(int32_t in, int32_t out, bool align_corners) {
  if (align_corners && out > 1) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return static_cast<float>(in) / static_cast<float>(out);
}

struct Taps {
  int32_t lower, upper;
  float weight;  // of the upper tap
};

Taps BilinearTaps(int32_t x, float scale, bool half_pixel_centers, int32_t in) {
  const float position = half_pixel_centers ? (static_cast<float>(x) + 0.5f) * scale - 0.5f
                                            : static_cast<float>(x) * scale;
  const int32_t lower = std::max(static_cast<int32_t>(std::floor(position)), 0);
  const int32_t upper = std::min(static_cast<int32_t>(std::ceil(position)), in - 1);
  return {lower, upper, position - static_cast<float>(lower)};
}

int32_t NearestTap(int32_t x, float scale, bool align_corners, bool half_pixel_centers,
                   int32_t in) {
  const float position = (static_cast<float>(x) + (half_pixel_centers ? 0.5f : 0.0f)) * scale;
  int32_t tap = std::min(
      static_cast<int32_t>(align_corners ? std::round(position) : std::floor(position)), in - 1);
  if (half_pixel_centers) tap = std::max(tap, 0);
  return tap;
}

}  // namespace

Status PrepareResize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 4, "input"));
  auto size = ReadIndexTensor(context.input(1), "size");
  if (!size.ok()) return size.status();
  if (size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
    return Status::Error("size must hold two positive values");
  if (context.options().align_corners && context.options().half_pixel_centers) {
    return Status::Error("align_corners and half_pixel_centers are exclusive");
  }
  return CheckOutputShape(context.output(0), {in.Dim(0), static_cast<int32_t>((*size)[0]),
                                              static_cast<int32_t>((*size)[1]), in.Dim(3)});
}

Status EvalResizeBilinear(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareResize(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const OpOptions& o = context.options();
  const int32_t in_h = in.Dim(1), in_w = in.Dim(2), depth = in.Dim(3);
  const int32_t out_h = out.Dim(1), out_w = out.Dim(2);
  const float scale_h = Scale(in_h, out_h, o.align_corners);
  const float scale_w = Scale(in_w, out_w, o.align_corners);
  const float* src = in.Data<const float>();
  float* dst = out.Data<float>();
  for (int32_t b = 0; b < in.Dim(0); ++b) {
    const float* image = src + int64_t{b} * in_h * in_w * depth;
    for (int32_t y = 0; y < out_h; ++y) {
      const Taps ty = BilinearTaps(y, scale_h, o.half_pixel_centers, in_h);
      for (int32_t x = 0; x < out_w; ++x) {
        const Taps tx = BilinearTaps(x, scale_w, o.half_pixel_centers, in_w);
        const float* p00 = image + (int64_t{ty.lower} * in_w + tx.lower) * depth;
        const float* p10 = image + (int64_t{ty.upper} * in_w + tx.lower) * depth;
        const float* p01 = image + (int64_t{ty.lower} * in_w + tx.upper) * depth;
        const float* p11 = image + (int64_t{ty.upper} * in_w + tx.upper) * depth;
        const float w00 = (1 - ty.weight) * (1 - tx.weight), w10 = ty.weight * (1 - tx.weight);
        const float w01 = (1 - ty.weight) * tx.weight, w11 = ty.weight * tx.weight;
        for (int32_t c = 0; c < depth; ++c) {
          dst[c] = p00[c] * w00 + p10[c] * w10 + p01[c] * w01 + p11[c] * w11;
        }
        dst += depth;
      }
    }
  }
  return Status::Ok();
}

Status EvalResizeNearestNeighbor(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareResize(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  const OpOptions& o = context.options();
  const int32_t in_h = in.Dim(1), in_w = in.Dim(2), depth = in.Dim(3);
  const int32_t out_h = out.Dim(1), out_w = out.Dim(2);
  const float scale_h = Scale(in_h, out_h, o.align_corners);
  const float scale_w = Scale(in_w, out_w, o.align_corners);
  const float* src = in.Data<const float>();
  float* dst = out.Data<float>();
  for (int32_t b = 0; b < in.Dim(0); ++b) {
    const float* image = src + int64_t{b} * in_h * in_w * depth;
    for (int32_t y = 0; y < out_h; ++y) {
      const int32_t iy = NearestTap(y, scale_h, o.align_corners, o.half_pixel_centers, in_h);
      for (int32_t x = 0; x < out_w; ++x) {
        const int32_t ix = NearestTap(x, scale_w, o.align_corners, o.half_pixel_centers, in_w);
        std::memcpy(dst, image + (int64_t{iy} * in_w + ix) * depth,
                    sizeof(float) * static_cast<size_t>(depth));
        dst += depth;
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
