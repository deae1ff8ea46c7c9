#include "runtime/kernels/cpu/depthwise_conv.h"

#include <algorithm>

#include "runtime/kernels/cpu/kernel_thread_pool.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

// The shared window geometry, for float32 tensors with a matching bias.
Result<DepthwiseGeometry> Geometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kFloat32, "filter"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto g = DepthwiseGeometryOf(context);
  if (!g.ok()) return g.status();
  TFA_RETURN_IF_ERROR(CheckConvBias(context, g->out_c));
  return g;
}

// Output row `row` (= batch * out_h + y). Each output pixel sums its taps in (ky, kx) order with
// the channel loop innermost (contiguous, vectorised), then adds the bias and clamps: the order of
// upstream's reference kernel (tflite/kernels/internal/reference/depthwiseconv_float.h).
void DepthwiseRow(const DepthwiseGeometry& g, const ActivationRange& range,
                  const float* __restrict input, const float* __restrict filter,
                  const float* __restrict bias, int64_t row, float* __restrict output) {
  const int32_t oc = g.out_c;
  const int64_t b = row / g.out_h;
  const auto oy = static_cast<int32_t>(row % g.out_h);
  for (int32_t ox = 0; ox < g.out_w; ++ox) {
    float* __restrict out = output + (row * g.out_w + ox) * oc;
    std::fill(out, out + oc, 0.0f);
    for (int32_t ky = 0; ky < g.kh; ++ky) {
      const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
      if (iy < 0 || iy >= g.in_h) continue;
      for (int32_t kx = 0; kx < g.kw; ++kx) {
        const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
        if (ix < 0 || ix >= g.in_w) continue;
        const float* __restrict in = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_c;
        const float* __restrict w = filter + (int64_t{ky} * g.kw + kx) * oc;
        if (g.multiplier == 1) {
          for (int32_t c = 0; c < oc; ++c) out[c] += in[c] * w[c];
        } else {
          for (int32_t c = 0; c < oc; ++c) out[c] += in[c / g.multiplier] * w[c];
        }
      }
    }
    for (int32_t c = 0; c < oc; ++c) out[c] = range.Apply(out[c] + (bias ? bias[c] : 0.0f));
  }
}

}  // namespace

Status PrepareDepthwiseConv2D(KernelContext& context) {
  auto g = Geometry(context);
  if (!g.ok()) return g.status();
  return GetActivationRange(context.options().fused_activation).status();
}

Status EvalDepthwiseConv2D(KernelContext& context) {
  auto geometry = Geometry(context);
  if (!geometry.ok()) return geometry.status();
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const DepthwiseGeometry& g = *geometry;
  const float* input = context.input(0).Data<const float>();
  const float* filter = context.input(1).Data<const float>();
  const float* bias = context.has_input(2) ? context.input(2).Data<const float>() : nullptr;
  float* output = context.output(0).Data<float>();
  // Output rows (batch, y) are split over the threads; each writes its own rows only.
  ParallelFor(context.thread_pool, int64_t{g.batches} * g.out_h, 1,
              [&](int, int64_t row_begin, int64_t row_end) {
                for (int64_t row = row_begin; row < row_end; ++row) {
                  DepthwiseRow(g, *range, input, filter, bias, row, output);
                }
              });
  return Status::Ok();
}

}  // namespace tfa::runtime
