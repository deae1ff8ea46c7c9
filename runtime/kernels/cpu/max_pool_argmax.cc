#include "runtime/kernels/cpu/max_pool_argmax.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// TfLitePoolParams as the custom options hold it.
struct PoolParams {
  int32_t padding;  // TfLitePadding: 1 SAME, 2 VALID
  int32_t stride_w, stride_h, filter_w, filter_h;
  int32_t activation;  // TfLiteFusedActivation
};

Result<PoolParams> ReadParams(const KernelContext& context) {
  const auto options =
      context.node_data ? context.node_data->custom_options : std::span<const uint8_t>();
  PoolParams p{};
  if (options.size() < sizeof(p))
    return Status::Error("custom options hold fewer than 24 bytes (TfLitePoolParams)");
  std::memcpy(&p, options.data(), sizeof(p));
  if (p.stride_w <= 0 || p.stride_h <= 0 || p.filter_w <= 0 || p.filter_h <= 0)
    return Status::Error("strides and filter sizes must be positive");
  if (p.activation < 0 || p.activation > static_cast<int32_t>(Activation::kSignBit))
    return Status::Error("unknown fused activation " + std::to_string(p.activation));
  return p;
}

// tflite/kernels/padding.h ComputePadding: half the padding the window needs, none if negative.
int32_t PaddingBefore(int32_t stride, int32_t in, int32_t filter, int32_t out) {
  return std::max(0, ((out - 1) * stride + filter - in) / 2);
}

// The four float tensors' common checks; `rank4` the ones that must be [b, h, w, c].
Status CheckFloat4D(std::initializer_list<const RuntimeTensor*> tensors) {
  for (const RuntimeTensor* t : tensors) {
    TFA_RETURN_IF_ERROR(CheckType(*t, TensorType::kFloat32, "tensors"));
    TFA_RETURN_IF_ERROR(CheckRank(*t, 4, "tensors"));
  }
  return Status::Ok();
}

struct ArgmaxGeometry {
  PoolParams params;
  int32_t batches, in_h, in_w, channels, out_h, out_w, pad_top, pad_left;
};

Result<ArgmaxGeometry> PoolGeometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 2));
  auto params = ReadParams(context);
  if (!params.ok()) return params.status();
  const RuntimeTensor& input = context.input(0);
  TFA_RETURN_IF_ERROR(CheckFloat4D({&input, &context.output(0), &context.output(1)}));
  ArgmaxGeometry g{*params, input.Dim(0), input.Dim(1), input.Dim(2), input.Dim(3), 0, 0, 0, 0};
  // GetWindowedOutputSize as the MediaPipe kernel computes it.
  const auto out_size = [&](int32_t in, int32_t filter, int32_t stride) {
    return g.params.padding == 1 ? (in + stride - 1) / stride : (in - filter + stride) / stride;
  };
  g.out_h = out_size(g.in_h, g.params.filter_h, g.params.stride_h);
  g.out_w = out_size(g.in_w, g.params.filter_w, g.params.stride_w);
  g.pad_top = PaddingBefore(g.params.stride_h, g.in_h, g.params.filter_h, g.out_h);
  g.pad_left = PaddingBefore(g.params.stride_w, g.in_w, g.params.filter_w, g.out_w);
  const std::vector<int32_t> shape = {g.batches, g.out_h, g.out_w, g.channels};
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(1), shape));
  return g;
}

Result<ArgmaxGeometry> UnpoolGeometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  auto params = ReadParams(context);
  if (!params.ok()) return params.status();
  const RuntimeTensor& input = context.input(0);
  TFA_RETURN_IF_ERROR(CheckFloat4D({&input, &context.input(1), &context.output(0)}));
  if (context.input(1).shape != input.shape)
    return Status::Error("indices' shape differs from the input's");
  ArgmaxGeometry g{*params, input.Dim(0), input.Dim(1), input.Dim(2), input.Dim(3), 0, 0, 0, 0};
  g.out_h = g.in_h * g.params.filter_h;
  g.out_w = g.in_w * g.params.filter_w;
  g.pad_top = PaddingBefore(g.params.stride_h, g.out_h, g.params.filter_h, g.in_h);
  g.pad_left = PaddingBefore(g.params.stride_w, g.out_w, g.params.filter_w, g.in_w);
  TFA_RETURN_IF_ERROR(
      CheckOutputShape(context.output(0), {g.batches, g.out_h, g.out_w, g.channels}));
  return g;
}

}  // namespace

Status PrepareMaxPoolingWithArgmax(KernelContext& context) {
  return PoolGeometry(context).status();
}

Status EvalMaxPoolingWithArgmax(KernelContext& context) {
  auto geometry = PoolGeometry(context);
  if (!geometry.ok()) return geometry.status();
  const ArgmaxGeometry& g = *geometry;
  auto range = GetActivationRange(static_cast<Activation>(g.params.activation));
  if (!range.ok()) return range.status();
  const float* in = context.input(0).Data<const float>();
  float* out = context.output(0).Data<float>();
  float* indices = context.output(1).Data<float>();
  int64_t o = 0;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const int32_t y0 = oy * g.params.stride_h - g.pad_top;
        const int32_t x0 = ox * g.params.stride_w - g.pad_left;
        const int32_t fy_begin = std::max(0, -y0),
                      fy_end = std::min(g.params.filter_h, g.in_h - y0);
        const int32_t fx_begin = std::max(0, -x0),
                      fx_end = std::min(g.params.filter_w, g.in_w - x0);
        for (int32_t c = 0; c < g.channels; ++c, ++o) {
          float best = std::numeric_limits<float>::lowest();
          int32_t best_y = 0, best_x = 0;
          // Strictly greater: the first maximum in row-major window order wins.
          for (int32_t fy = fy_begin; fy < fy_end; ++fy) {
            for (int32_t fx = fx_begin; fx < fx_end; ++fx) {
              const float v =
                  in[((int64_t{b} * g.in_h + y0 + fy) * g.in_w + x0 + fx) * g.channels + c];
              if (v > best) {
                best = v;
                best_y = fy;
                best_x = fx;
              }
            }
          }
          out[o] = range->Apply(best);
          indices[o] = static_cast<float>(best_y * g.params.filter_w + best_x) + 0.1f;
        }
      }
    }
  }
  return Status::Ok();
}

Status PrepareMaxUnpooling(KernelContext& context) { return UnpoolGeometry(context).status(); }

Status EvalMaxUnpooling(KernelContext& context) {
  auto geometry = UnpoolGeometry(context);
  if (!geometry.ok()) return geometry.status();
  const ArgmaxGeometry& g = *geometry;
  const float* in = context.input(0).Data<const float>();
  const float* indices = context.input(1).Data<const float>();
  RuntimeTensor& output = context.output(0);
  float* out = output.Data<float>();
  std::fill(out, out + output.NumElements(), 0.0f);
  int64_t i = 0;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t iy = 0; iy < g.in_h; ++iy) {
      for (int32_t ix = 0; ix < g.in_w; ++ix) {
        for (int32_t c = 0; c < g.channels; ++c, ++i) {
          // The index is data: one outside the window's output is skipped, as upstream does.
          const float index = indices[i];
          if (!(index >= 0.0f && index < static_cast<float>(INT32_MAX))) continue;
          const auto idx = static_cast<int32_t>(index);
          const int32_t oy = iy * g.params.stride_h - g.pad_top + idx / g.params.filter_w;
          const int32_t ox = ix * g.params.stride_w - g.pad_left + idx % g.params.filter_w;
          if (oy < 0 || oy >= g.out_h || ox < 0 || ox >= g.out_w) continue;
          out[((int64_t{b} * g.out_h + oy) * g.out_w + ox) * g.channels + c] = in[i];
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
