#include "runtime/kernels/cpu/quantized_resize.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

struct ResizeShape {
  int32_t batches, in_h, in_w, depth, out_h, out_w;
};

ResizeShape Shape(const KernelContext& context) {
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  return {in.Dim(0), in.Dim(1), in.Dim(2), in.Dim(3), out.Dim(1), out.Dim(2)};
}

// Fixed-point source position (10 fractional bits) and its two neighbours.
struct FixedTaps {
  int32_t position, lower, upper;
};

FixedTaps FixedPointTaps(int32_t x, int32_t scale_10, bool half_pixel_centers, int32_t in) {
  const int32_t position =
      half_pixel_centers ? x * scale_10 + scale_10 / 2 - (1 << 9) : x * scale_10;
  return {position, std::max(position / (1 << 10), 0),
          std::min((position + (1 << 10) - 1) / (1 << 10), in - 1)};
}

int32_t FixedPointScale(int32_t in, int32_t out, bool align_corners) {
  if (align_corners && out > 1) return ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1);
  return ((1 << 10) * in + out / 2) / out;
}

template <typename T>
void BilinearInteger(const ResizeShape& s, const OpOptions& o, const T* src, T* dst) {
  const int32_t scale_h = FixedPointScale(s.in_h, s.out_h, o.align_corners);
  const int32_t scale_w = FixedPointScale(s.in_w, s.out_w, o.align_corners);
  for (int32_t b = 0; b < s.batches; ++b) {
    const T* image = src + int64_t{b} * s.in_h * s.in_w * s.depth;
    for (int32_t y = 0; y < s.out_h; ++y) {
      const FixedTaps ty = FixedPointTaps(y, scale_h, o.half_pixel_centers, s.in_h);
      const int64_t wy1 = ty.position - (1 << 10) * ty.lower, wy0 = (1 << 10) - wy1;
      for (int32_t x = 0; x < s.out_w; ++x) {
        const FixedTaps tx = FixedPointTaps(x, scale_w, o.half_pixel_centers, s.in_w);
        const int64_t wx1 = tx.position - (1 << 10) * tx.lower, wx0 = (1 << 10) - wx1;
        const T* p00 = image + (int64_t{ty.lower} * s.in_w + tx.lower) * s.depth;
        const T* p01 = image + (int64_t{ty.lower} * s.in_w + tx.upper) * s.depth;
        const T* p10 = image + (int64_t{ty.upper} * s.in_w + tx.lower) * s.depth;
        const T* p11 = image + (int64_t{ty.upper} * s.in_w + tx.upper) * s.depth;
        for (int32_t c = 0; c < s.depth; ++c) {
          const int64_t sum =
              p00[c] * wy0 * wx0 + p01[c] * wy0 * wx1 + p10[c] * wy1 * wx0 + p11[c] * wy1 * wx1;
          // Half away from zero, by truncating division (upstream's non-single-rounding build).
          const int64_t round = sum > 0 ? (1 << 19) : -(1 << 19);
          *dst++ = static_cast<T>((sum + round) / (1 << 20));
        }
      }
    }
  }
}

float FloatScale(int32_t in, int32_t out, bool align_corners) {
  if (align_corners && out > 1) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return static_cast<float>(in) / static_cast<float>(out);
}

struct FloatTaps {
  float position;
  int32_t lower, upper;
};

FloatTaps FloatPointTaps(int32_t x, float scale, bool half_pixel_centers, int32_t in) {
  const float position = half_pixel_centers ? (static_cast<float>(x) + 0.5f) * scale - 0.5f
                                            : static_cast<float>(x) * scale;
  return {position, std::max(static_cast<int32_t>(std::floor(position)), 0),
          std::min(static_cast<int32_t>(std::ceil(position)), in - 1)};
}

void BilinearUInt8(const ResizeShape& s, const OpOptions& o, const uint8_t* src, uint8_t* dst) {
  const float scale_h = FloatScale(s.in_h, s.out_h, o.align_corners);
  const float scale_w = FloatScale(s.in_w, s.out_w, o.align_corners);
  for (int32_t b = 0; b < s.batches; ++b) {
    const uint8_t* image = src + int64_t{b} * s.in_h * s.in_w * s.depth;
    for (int32_t y = 0; y < s.out_h; ++y) {
      const FloatTaps ty = FloatPointTaps(y, scale_h, o.half_pixel_centers, s.in_h);
      const float fy = ty.position - static_cast<float>(ty.lower);
      for (int32_t x = 0; x < s.out_w; ++x) {
        const FloatTaps tx = FloatPointTaps(x, scale_w, o.half_pixel_centers, s.in_w);
        const float fx = tx.position - static_cast<float>(tx.lower);
        const float w00 = (1 - fy) * (1 - fx), w01 = (1 - fy) * fx, w10 = fy * (1 - fx),
                    w11 = fy * fx;
        const uint8_t* p00 = image + (int64_t{ty.lower} * s.in_w + tx.lower) * s.depth;
        const uint8_t* p01 = image + (int64_t{ty.lower} * s.in_w + tx.upper) * s.depth;
        const uint8_t* p10 = image + (int64_t{ty.upper} * s.in_w + tx.lower) * s.depth;
        const uint8_t* p11 = image + (int64_t{ty.upper} * s.in_w + tx.upper) * s.depth;
        for (int32_t c = 0; c < s.depth; ++c) {
          *dst++ = static_cast<uint8_t>(p00[c] * w00 + p01[c] * w01 + p10[c] * w10 + p11[c] * w11 +
                                        0.5f);
        }
      }
    }
  }
}

// Upstream's nearest source index (reference_ops::ResizeNearestNeighbor).
int32_t NearestIndex(int32_t x, float scale, bool align_corners, bool half_pixel_centers,
                     int32_t in) {
  const float position = (static_cast<float>(x) + (half_pixel_centers ? 0.5f : 0.0f)) * scale;
  int32_t index = align_corners ? static_cast<int32_t>(std::round(position))
                                : static_cast<int32_t>(std::floor(position));
  index = std::min(index, in - 1);
  return half_pixel_centers ? std::max(0, index) : index;
}

}  // namespace

Status PrepareQuantizedResize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 4, "input"));
  auto pi = PerTensorParams(in, "input");
  if (!pi.ok()) return pi.status();
  auto po = PerTensorParams(out, "output");
  if (!po.ok()) return po.status();
  if (pi->scale != po->scale || pi->zero_point != po->zero_point)
    return Status::Error("input and output quantization differ");
  auto size = ReadIndexTensor(context.input(1), "size");
  if (!size.ok()) return size.status();
  if (size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
    return Status::Error("size must hold two positive values");
  if (context.options().align_corners && context.options().half_pixel_centers)
    return Status::Error("align_corners and half_pixel_centers are exclusive");
  return CheckOutputShape(out, {in.Dim(0), static_cast<int32_t>((*size)[0]),
                                static_cast<int32_t>((*size)[1]), in.Dim(3)});
}

Status EvalQuantizedResizeBilinear(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareQuantizedResize(context));
  const ResizeShape s = Shape(context);
  if (context.input(0).type == TensorType::kInt8) {
    BilinearInteger(s, context.options(), context.input(0).Data<const int8_t>(),
                    context.output(0).Data<int8_t>());
  } else if (context.input(0).type == TensorType::kInt16) {
    BilinearInteger(s, context.options(), context.input(0).Data<const int16_t>(),
                    context.output(0).Data<int16_t>());
  } else {
    BilinearUInt8(s, context.options(), context.input(0).Data<const uint8_t>(),
                  context.output(0).Data<uint8_t>());
  }
  return Status::Ok();
}

Status EvalQuantizedResizeNearestNeighbor(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareQuantizedResize(context));
  const ResizeShape s = Shape(context);
  const OpOptions& o = context.options();
  const float scale_h = FloatScale(s.in_h, s.out_h, o.align_corners);
  const float scale_w = FloatScale(s.in_w, s.out_w, o.align_corners);
  const uint8_t* src = context.input(0).data;
  uint8_t* dst = context.output(0).data;
  const size_t element = context.input(0).type == TensorType::kInt16 ? 2 : 1;
  const auto depth = static_cast<size_t>(s.depth) * element;
  for (int32_t b = 0; b < s.batches; ++b) {
    const uint8_t* image = src + int64_t{b} * s.in_h * s.in_w * static_cast<int64_t>(depth);
    for (int32_t y = 0; y < s.out_h; ++y) {
      const int32_t iy = NearestIndex(y, scale_h, o.align_corners, o.half_pixel_centers, s.in_h);
      for (int32_t x = 0; x < s.out_w; ++x) {
        const int32_t ix = NearestIndex(x, scale_w, o.align_corners, o.half_pixel_centers, s.in_w);
        std::memcpy(dst, image + (int64_t{iy} * s.in_w + ix) * static_cast<int64_t>(depth), depth);
        dst += depth;
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
