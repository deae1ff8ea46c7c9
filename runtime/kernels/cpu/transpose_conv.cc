#include "runtime/kernels/cpu/transpose_conv.h"

#include <algorithm>
#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct TransposeGeometry {
  const RuntimeTensor* input = nullptr;
  const RuntimeTensor* filter = nullptr;
  const RuntimeTensor* bias = nullptr;
  int32_t stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;
  ActivationRange range{};
};

Status CheckTensors(const KernelContext& context, const TransposeGeometry& g) {
  for (const RuntimeTensor* t :
       {g.input, g.filter, g.bias, static_cast<const RuntimeTensor*>(context.outputs[0])}) {
    if (t) TFA_RETURN_IF_ERROR(CheckType(*t, TensorType::kFloat32, "tensor"));
  }
  TFA_RETURN_IF_ERROR(CheckRank(*g.input, 4, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(*g.filter, 4, "filter"));
  TFA_RETURN_IF_ERROR(CheckRank(context.output(0), 4, "output"));
  if (g.filter->Dim(3) != g.input->Dim(3)) return Status::Error("filter and input channels differ");
  if (context.output(0).Dim(3) != g.filter->Dim(0))
    return Status::Error("filter and output channels differ");
  if (g.bias && g.bias->NumElements() != g.filter->Dim(0))
    return Status::Error("bias size differs from out_c");
  if (g.stride_h <= 0 || g.stride_w <= 0) return Status::Error("strides must be positive");
  return Status::Ok();
}

Result<TransposeGeometry> BuiltinGeometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 4, 1));
  TransposeGeometry g;
  g.filter = context.inputs[1];
  g.input = context.inputs[2];
  g.bias = context.has_input(3) ? context.inputs[3] : nullptr;
  const OpOptions& o = context.options();
  g.stride_h = o.stride_h;
  g.stride_w = o.stride_w;
  TFA_RETURN_IF_ERROR(CheckTensors(context, g));
  auto out_shape = ReadIndexTensor(context.input(0), "output_shape");
  if (!out_shape.ok()) return out_shape.status();
  std::vector<int32_t> shape(out_shape->begin(), out_shape->end());
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  const RuntimeTensor& out = context.output(0);
  const int32_t kh = g.filter->Dim(1), kw = g.filter->Dim(2);
  g.pad_top = ConvPaddingBefore(o.padding, out.Dim(1), kh, g.stride_h, 1,
                                ConvOutputSize(o.padding, out.Dim(1), kh, g.stride_h, 1));
  g.pad_left = ConvPaddingBefore(o.padding, out.Dim(2), kw, g.stride_w, 1,
                                 ConvOutputSize(o.padding, out.Dim(2), kw, g.stride_w, 1));
  auto range = GetActivationRange(o.fused_activation);
  if (!range.ok()) return range.status();
  g.range = *range;
  return g;
}

Result<TransposeGeometry> BiasGeometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  TransposeGeometry g;
  g.input = context.inputs[0];
  g.filter = context.inputs[1];
  g.bias = context.inputs[2];
  const auto options =
      context.node_data ? context.node_data->custom_options : std::span<const uint8_t>();
  int32_t params[3];  // TfLiteTransposeConvParams: padding, stride_width, stride_height
  if (options.size() < sizeof(params))
    return Status::Error("custom options hold fewer than 12 bytes");
  std::memcpy(params, options.data(), sizeof(params));
  constexpr int32_t kTfLitePaddingSame = 1;
  g.stride_w = params[1];
  g.stride_h = params[2];
  TFA_RETURN_IF_ERROR(CheckTensors(context, g));
  const int32_t kh = g.filter->Dim(1), kw = g.filter->Dim(2);
  const int32_t in_h = g.input->Dim(1), in_w = g.input->Dim(2);
  int32_t pad_h = 0, pad_w = 0;
  if (params[0] == kTfLitePaddingSame) {
    pad_h = std::max(0, kh - (in_h - 1) % g.stride_h - 1);
    pad_w = std::max(0, kw - (in_w - 1) % g.stride_w - 1);
  }
  g.pad_top = pad_h / 2;
  g.pad_left = pad_w / 2;
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0),
                                       {g.input->Dim(0), g.stride_h * (in_h - 1) + kh - pad_h,
                                        g.stride_w * (in_w - 1) + kw - pad_w, g.filter->Dim(0)}));
  g.range = GetActivationRange(Activation::kNone).value();
  return g;
}

uint64_t ScratchBytes(const TransposeGeometry& g) {
  return static_cast<uint64_t>(g.filter->NumElements()) * sizeof(float);
}

void Run(const TransposeGeometry& g, float* filter_t, RuntimeTensor& output) {
  const int32_t in_c = g.input->Dim(3), out_c = g.filter->Dim(0);
  const int32_t kh = g.filter->Dim(1), kw = g.filter->Dim(2);
  const int32_t in_h = g.input->Dim(1), in_w = g.input->Dim(2);
  const int32_t out_h = output.Dim(1), out_w = output.Dim(2);
  // Filter as [kh][kw][in_c][out_c] so each tap is a contiguous axpy over output channels.
  const float* filter = g.filter->Data<const float>();
  for (int32_t o = 0; o < out_c; ++o) {
    for (int64_t tap = 0; tap < int64_t{kh} * kw * in_c; ++tap) {
      filter_t[tap * out_c + o] = filter[int64_t{o} * kh * kw * in_c + tap];
    }
  }
  const float* bias = g.bias ? g.bias->Data<const float>() : nullptr;
  float* out = output.Data<float>();
  for (int32_t b = 0; b < output.Dim(0); ++b) {
    float* image_out = out + int64_t{b} * out_h * out_w * out_c;
    for (int64_t p = 0; p < int64_t{out_h} * out_w; ++p) {
      for (int32_t o = 0; o < out_c; ++o) image_out[p * out_c + o] = bias ? bias[o] : 0.0f;
    }
    const float* image_in = g.input->Data<const float>() + int64_t{b} * in_h * in_w * in_c;
    for (int32_t iy = 0; iy < in_h; ++iy) {
      for (int32_t ix = 0; ix < in_w; ++ix) {
        const float* in = image_in + (int64_t{iy} * in_w + ix) * in_c;
        for (int32_t ky = 0; ky < kh; ++ky) {
          const int32_t oy = iy * g.stride_h - g.pad_top + ky;
          if (oy < 0 || oy >= out_h) continue;
          for (int32_t kx = 0; kx < kw; ++kx) {
            const int32_t ox = ix * g.stride_w - g.pad_left + kx;
            if (ox < 0 || ox >= out_w) continue;
            float* dst = image_out + (int64_t{oy} * out_w + ox) * out_c;
            const float* w = filter_t + (int64_t{ky} * kw + kx) * in_c * out_c;
            for (int32_t c = 0; c < in_c; ++c) {
              const float v = in[c];
              const float* wc = w + int64_t{c} * out_c;
              for (int32_t o = 0; o < out_c; ++o) dst[o] += v * wc[o];
            }
          }
        }
      }
    }
  }
  const int64_t n = output.NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = g.range.Apply(out[i]);
}

}  // namespace

Status PrepareTransposeConv(KernelContext& context) {
  auto g = BuiltinGeometry(context);
  if (!g.ok()) return g.status();
  context.scratch_bytes = ScratchBytes(*g);
  return Status::Ok();
}

Status EvalTransposeConv(KernelContext& context) {
  auto g = BuiltinGeometry(context);
  if (!g.ok()) return g.status();
  Run(*g, reinterpret_cast<float*>(context.scratch), context.output(0));
  return Status::Ok();
}

Status PrepareTransposeConvBias(KernelContext& context) {
  auto g = BiasGeometry(context);
  if (!g.ok()) return g.status();
  context.scratch_bytes = ScratchBytes(*g);
  return Status::Ok();
}

Status EvalTransposeConvBias(KernelContext& context) {
  auto g = BiasGeometry(context);
  if (!g.ok()) return g.status();
  Run(*g, reinterpret_cast<float*>(context.scratch), context.output(0));
  return Status::Ok();
}

}  // namespace tfa::runtime
