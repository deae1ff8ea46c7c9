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

Status CheckFloat4D(std::initializer_list<const RuntimeTensor*> tensors) {
  for (const RuntimeTensor* t : tensors) {
    TFA_RETURN_IF_ERROR(CheckType(*t, TensorType::kFloat32, "tensors"));
    TFA_RETURN_IF_ERROR(CheckRank(*t, 4, "tensors"));
  }
  return Status::Ok();
}

ArgmaxWindow WindowOf(const PoolParams& p, const RuntimeTensor& input) {
  ArgmaxWindow w{};
  w.batches = input.Dim(0);
  w.channels = input.Dim(3);
  w.filter_h = p.filter_h;
  w.filter_w = p.filter_w;
  w.stride_h = p.stride_h;
  w.stride_w = p.stride_w;
  w.activation = static_cast<Activation>(p.activation);
  return w;
}

}  // namespace

Result<ArgmaxWindow> MaxPoolingWithArgmaxWindow(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 2));
  auto params = ReadParams(context);
  if (!params.ok()) return params.status();
  const RuntimeTensor& input = context.input(0);
  TFA_RETURN_IF_ERROR(CheckFloat4D({&input, &context.output(0), &context.output(1)}));
  ArgmaxWindow w = WindowOf(*params, input);
  w.big_h = input.Dim(1);
  w.big_w = input.Dim(2);
  // GetWindowedOutputSize as MediaPipe's Prepare computes it.
  const auto out_size = [&](int32_t in, int32_t filter, int32_t stride) {
    return params->padding == 1 ? (in + stride - 1) / stride : (in - filter + stride) / stride;
  };
  w.small_h = out_size(w.big_h, w.filter_h, w.stride_h);
  w.small_w = out_size(w.big_w, w.filter_w, w.stride_w);
  w.pad_top = PaddingBefore(w.stride_h, w.big_h, w.filter_h, w.small_h);
  w.pad_left = PaddingBefore(w.stride_w, w.big_w, w.filter_w, w.small_w);
  const std::vector<int32_t> shape = {w.batches, w.small_h, w.small_w, w.channels};
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(1), shape));
  return w;
}

Result<ArgmaxWindow> MaxUnpoolingWindow(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  auto params = ReadParams(context);
  if (!params.ok()) return params.status();
  const RuntimeTensor& input = context.input(0);
  TFA_RETURN_IF_ERROR(CheckFloat4D({&input, &context.input(1), &context.output(0)}));
  if (context.input(1).shape != input.shape)
    return Status::Error("indices' shape differs from the input's");
  ArgmaxWindow w = WindowOf(*params, input);
  w.small_h = input.Dim(1);
  w.small_w = input.Dim(2);
  w.big_h = w.small_h * w.filter_h;
  w.big_w = w.small_w * w.filter_w;
  w.pad_top = PaddingBefore(w.stride_h, w.big_h, w.filter_h, w.small_h);
  w.pad_left = PaddingBefore(w.stride_w, w.big_w, w.filter_w, w.small_w);
  TFA_RETURN_IF_ERROR(
      CheckOutputShape(context.output(0), {w.batches, w.big_h, w.big_w, w.channels}));
  return w;
}

Status PrepareMaxPoolingWithArgmax(KernelContext& context) {
  return MaxPoolingWithArgmaxWindow(context).status();
}

Status EvalMaxPoolingWithArgmax(KernelContext& context) {
  auto window = MaxPoolingWithArgmaxWindow(context);
  if (!window.ok()) return window.status();
  const ArgmaxWindow& w = *window;
  auto range = GetActivationRange(w.activation);
  if (!range.ok()) return range.status();
  const float* in = context.input(0).Data<const float>();
  float* out = context.output(0).Data<float>();
  float* indices = context.output(1).Data<float>();
  int64_t o = 0;
  for (int32_t b = 0; b < w.batches; ++b) {
    for (int32_t oy = 0; oy < w.small_h; ++oy) {
      for (int32_t ox = 0; ox < w.small_w; ++ox) {
        const int32_t y0 = oy * w.stride_h - w.pad_top;
        const int32_t x0 = ox * w.stride_w - w.pad_left;
        const int32_t fy_begin = std::max(0, -y0), fy_end = std::min(w.filter_h, w.big_h - y0);
        const int32_t fx_begin = std::max(0, -x0), fx_end = std::min(w.filter_w, w.big_w - x0);
        for (int32_t c = 0; c < w.channels; ++c, ++o) {
          float best = std::numeric_limits<float>::lowest();
          int32_t best_y = 0, best_x = 0;
          // Strictly greater: the first maximum in row-major window order wins.
          for (int32_t fy = fy_begin; fy < fy_end; ++fy) {
            for (int32_t fx = fx_begin; fx < fx_end; ++fx) {
              const float v =
                  in[((int64_t{b} * w.big_h + y0 + fy) * w.big_w + x0 + fx) * w.channels + c];
              if (v > best) {
                best = v;
                best_y = fy;
                best_x = fx;
              }
            }
          }
          out[o] = range->Apply(best);
          indices[o] = static_cast<float>(best_y * w.filter_w + best_x) + 0.1f;
        }
      }
    }
  }
  return Status::Ok();
}

Status PrepareMaxUnpooling(KernelContext& context) { return MaxUnpoolingWindow(context).status(); }

Status EvalMaxUnpooling(KernelContext& context) {
  auto window = MaxUnpoolingWindow(context);
  if (!window.ok()) return window.status();
  const ArgmaxWindow& w = *window;
  const float* in = context.input(0).Data<const float>();
  const float* indices = context.input(1).Data<const float>();
  RuntimeTensor& output = context.output(0);
  float* out = output.Data<float>();
  std::fill(out, out + output.NumElements(), 0.0f);
  int64_t i = 0;
  for (int32_t b = 0; b < w.batches; ++b) {
    for (int32_t iy = 0; iy < w.small_h; ++iy) {
      for (int32_t ix = 0; ix < w.small_w; ++ix) {
        for (int32_t c = 0; c < w.channels; ++c, ++i) {
          // The index is data: one that lands outside the output is skipped, as upstream does.
          const float index = indices[i];
          if (!(index >= 0.0f && index < static_cast<float>(INT32_MAX))) continue;
          const auto idx = static_cast<int32_t>(index);
          const int32_t oy = iy * w.stride_h - w.pad_top + idx / w.filter_w;
          const int32_t ox = ix * w.stride_w - w.pad_left + idx % w.filter_w;
          if (oy < 0 || oy >= w.big_h || ox < 0 || ox >= w.big_w) continue;
          out[((int64_t{b} * w.big_h + oy) * w.big_w + ox) * w.channels + c] = in[i];
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
