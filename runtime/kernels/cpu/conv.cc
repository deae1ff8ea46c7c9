#include "runtime/kernels/cpu/conv.h"

#include <algorithm>
#include <cstring>

#include "runtime/kernels/cpu/gemm.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

// The shared window geometry, for float32 tensors with a matching bias.
Result<ConvGeometry> Geometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kFloat32, "filter"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  TFA_RETURN_IF_ERROR(CheckConvBias(context, g->out_c));
  return g;
}

// Rows [row_begin, row_begin + rows) of the im2col matrix of one image: one row per output
// pixel, (ky, kx, c) along it, zeros where the window leaves the image.
void Im2col(const ConvGeometry& g, const float* image, int64_t row_begin, int64_t rows,
            float* out) {
  const int64_t depth = g.depth();
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t pixel = row_begin + r;
    const int32_t oy = static_cast<int32_t>(pixel / g.out_w);
    const int32_t ox = static_cast<int32_t>(pixel % g.out_w);
    float* dst = out + r * depth;
    for (int32_t ky = 0; ky < g.kh; ++ky) {
      const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
      for (int32_t kx = 0; kx < g.kw; ++kx) {
        const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
          std::fill(dst, dst + g.in_c, 0.0f);
        } else {
          std::memcpy(dst, image + (int64_t{iy} * g.in_w + ix) * g.in_c,
                      sizeof(float) * static_cast<size_t>(g.in_c));
        }
        dst += g.in_c;
      }
    }
  }
}

}  // namespace

Status PrepareConv2D(KernelContext& context) {
  auto g = Geometry(context);
  if (!g.ok()) return g.status();
  TFA_RETURN_IF_ERROR(GetActivationRange(context.options().fused_activation).status());
  // One im2col slice per thread.
  const int64_t im2col = g->pointwise() ? 0 : g->rows_per_pass() * g->depth();
  context.scratch_bytes =
      static_cast<uint64_t>(im2col * ThreadCount(context.thread_pool)) * sizeof(float);
  return Status::Ok();
}

Status EvalConv2D(KernelContext& context) {
  auto g = Geometry(context);
  if (!g.ok()) return g.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const int64_t depth = g->depth();
  const float* filter = context.input(1).Data<const float>();
  const float* bias = context.has_input(2) ? context.input(2).Data<const float>() : nullptr;
  const int64_t pixels = int64_t{g->out_h} * g->out_w;
  const int64_t image_size = int64_t{g->in_h} * g->in_w * g->in_c;
  const GemmShape shape{0, g->out_c, depth, depth, depth, g->out_c};
  for (int32_t b = 0; b < g->batches; ++b) {
    const float* image = context.input(0).Data<const float>() + b * image_size;
    float* out = context.output(0).Data<float>() + b * pixels * g->out_c;
    if (g->pointwise()) {
      GemmShape whole = shape;
      whole.m = pixels;
      GemmTransposedB(whole, image, filter, bias, range->min, range->max, out, context.thread_pool);
      continue;
    }
    // Each thread gathers and multiplies its own run of output pixels, a pass at a time.
    const int64_t pass = g->rows_per_pass();
    ParallelFor(context.thread_pool, pixels, pass / 4, [&](int part, int64_t begin, int64_t end) {
      float* im2col = reinterpret_cast<float*>(context.scratch) + part * pass * depth;
      for (int64_t row = begin; row < end; row += pass) {
        GemmShape slice = shape;
        slice.m = std::min(pass, end - row);
        Im2col(*g, image, row, slice.m, im2col);
        GemmTransposedB(slice, im2col, filter, bias, range->min, range->max, out + row * g->out_c,
                        nullptr);
      }
    });
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
