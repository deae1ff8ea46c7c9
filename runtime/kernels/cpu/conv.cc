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
  const int64_t transposed_filter = g->depth() * g->out_c;
  const int64_t im2col = g->pointwise() ? 0 : g->rows_per_pass() * g->depth();
  context.scratch_bytes = static_cast<uint64_t>(transposed_filter + im2col) * sizeof(float);
  return Status::Ok();
}

Status EvalConv2D(KernelContext& context) {
  auto g = Geometry(context);
  if (!g.ok()) return g.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const int64_t depth = g->depth();
  float* filter_t = reinterpret_cast<float*>(context.scratch);
  float* im2col = filter_t + depth * g->out_c;
  Transpose2D(context.input(1).Data<const float>(), g->out_c, depth, filter_t);
  const float* bias = context.has_input(2) ? context.input(2).Data<const float>() : nullptr;
  const int64_t pixels = int64_t{g->out_h} * g->out_w;
  const int64_t image_size = int64_t{g->in_h} * g->in_w * g->in_c;
  for (int32_t b = 0; b < g->batches; ++b) {
    const float* image = context.input(0).Data<const float>() + b * image_size;
    float* out = context.output(0).Data<float>() + b * pixels * g->out_c;
    if (g->pointwise()) {
      Gemm({pixels, g->out_c, depth, depth, g->out_c, g->out_c}, image, filter_t, bias, range->min,
           range->max, out);
      continue;
    }
    for (int64_t row = 0; row < pixels; row += g->rows_per_pass()) {
      const int64_t rows = std::min(g->rows_per_pass(), pixels - row);
      Im2col(*g, image, row, rows, im2col);
      Gemm({rows, g->out_c, depth, depth, g->out_c, g->out_c}, im2col, filter_t, bias, range->min,
           range->max, out + row * g->out_c);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
