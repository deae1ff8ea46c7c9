#include "runtime/kernels/cpu/depthwise_conv.h"

#include <algorithm>

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
  const int32_t oc = g.out_c;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        float* out = output + ((int64_t{b} * g.out_h + oy) * g.out_w + ox) * oc;
        std::fill(out, out + oc, 0.0f);
        for (int32_t ky = 0; ky < g.kh; ++ky) {
          const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
          if (iy < 0 || iy >= g.in_h) continue;
          for (int32_t kx = 0; kx < g.kw; ++kx) {
            const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
            if (ix < 0 || ix >= g.in_w) continue;
            const float* in = input + ((int64_t{b} * g.in_h + iy) * g.in_w + ix) * g.in_c;
            const float* w = filter + (int64_t{ky} * g.kw + kx) * oc;
            if (g.multiplier == 1) {
              for (int32_t c = 0; c < oc; ++c) out[c] += in[c] * w[c];
            } else {
              for (int32_t c = 0; c < oc; ++c) out[c] += in[c / g.multiplier] * w[c];
            }
          }
        }
        for (int32_t c = 0; c < oc; ++c) out[c] = range->Apply(out[c] + (bias ? bias[c] : 0.0f));
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
