#include "runtime/kernels/cpu/quantized_conv_reference.h"

#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_conv.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

// gemm: CONV_2D and FULLY_CONNECTED, rescaled as upstream's GEMM does; otherwise
// DEPTHWISE_CONV_2D, rounded twice.
template <typename T>
T Store(const Requantization& r, int32_t acc, int64_t channel, bool gemm) {
  const QuantizedMultiplier m = r.multipliers[static_cast<size_t>(channel)];
  const int32_t scaled =
      gemm ? RescaleGemmOutput<T>(acc, m) : MultiplyByQuantizedMultiplier(acc, m);
  return static_cast<T>(r.range.Clamp(scaled + r.output.zero_point));
}

int32_t Bias(const KernelContext& context, int64_t channel) {
  return context.has_input(2) ? context.input(2).Data<const int32_t>()[channel] : 0;
}

template <typename T>
void Conv(const KernelContext& context, const ConvGeometry& g, const Requantization& r) {
  const T* input = context.input(0).Data<const T>();
  const T* filter = context.input(1).Data<const T>();
  T* output = context.output(0).Data<T>();
  for (int64_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        for (int64_t oc = 0; oc < g.out_c; ++oc) {
          int32_t acc = Bias(context, oc);
          for (int32_t ky = 0; ky < g.kh; ++ky) {
            for (int32_t kx = 0; kx < g.kw; ++kx) {
              const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
              const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
              // Padding holds the input zero point: it adds nothing.
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
              for (int32_t ic = 0; ic < g.in_c; ++ic) {
                const int32_t x = input[((b * g.in_h + iy) * g.in_w + ix) * g.in_c + ic];
                const int32_t w = filter[((oc * g.kh + ky) * g.kw + kx) * g.in_c + ic];
                acc += (w - r.weight_zero_point) * (x - r.input.zero_point);
              }
            }
          }
          output[((b * g.out_h + oy) * g.out_w + ox) * g.out_c + oc] =
              Store<T>(r, acc, oc, /*gemm=*/true);
        }
      }
    }
  }
}

template <typename T>
void Depthwise(const KernelContext& context, const DepthwiseGeometry& g, const Requantization& r) {
  const T* input = context.input(0).Data<const T>();
  const T* filter = context.input(1).Data<const T>();
  T* output = context.output(0).Data<T>();
  for (int64_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        for (int64_t oc = 0; oc < g.out_c; ++oc) {
          int32_t acc = Bias(context, oc);
          for (int32_t ky = 0; ky < g.kh; ++ky) {
            for (int32_t kx = 0; kx < g.kw; ++kx) {
              const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
              const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
              const int32_t x =
                  input[((b * g.in_h + iy) * g.in_w + ix) * g.in_c + oc / g.multiplier];
              const int32_t w = filter[(int64_t{ky} * g.kw + kx) * g.out_c + oc];
              acc += (w - r.weight_zero_point) * (x - r.input.zero_point);
            }
          }
          output[((b * g.out_h + oy) * g.out_w + ox) * g.out_c + oc] =
              Store<T>(r, acc, oc, /*gemm=*/false);
        }
      }
    }
  }
}

template <typename T>
void FullyConnected(const KernelContext& context, const FullyConnectedGeometry& s,
                    const Requantization& r) {
  const T* input = context.input(0).Data<const T>();
  const T* weights = context.input(1).Data<const T>();
  T* output = context.output(0).Data<T>();
  for (int64_t b = 0; b < s.batch; ++b) {
    for (int64_t u = 0; u < s.units; ++u) {
      int32_t acc = Bias(context, u);
      for (int64_t i = 0; i < s.in_dim; ++i) {
        acc += (int32_t{weights[u * s.in_dim + i]} - r.weight_zero_point) *
               (int32_t{input[b * s.in_dim + i]} - r.input.zero_point);
      }
      output[b * s.units + u] = Store<T>(r, acc, u, /*gemm=*/true);
    }
  }
}

bool IsInt8(const KernelContext& context) { return context.input(0).type == TensorType::kInt8; }

}  // namespace

Status EvalQuantizedConv2DReference(KernelContext& context) {
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 0);
  if (!r.ok()) return r.status();
  IsInt8(context) ? Conv<int8_t>(context, *g, *r) : Conv<uint8_t>(context, *g, *r);
  return Status::Ok();
}

Status EvalQuantizedDepthwiseConv2DReference(KernelContext& context) {
  auto g = DepthwiseGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 3);
  if (!r.ok()) return r.status();
  IsInt8(context) ? Depthwise<int8_t>(context, *g, *r) : Depthwise<uint8_t>(context, *g, *r);
  return Status::Ok();
}

Status EvalQuantizedFullyConnectedReference(KernelContext& context) {
  auto s = FullyConnectedGeometryOf(context);
  if (!s.ok()) return s.status();
  auto r = GetRequantization(context, static_cast<int32_t>(s->units), 0);
  if (!r.ok()) return r.status();
  IsInt8(context) ? FullyConnected<int8_t>(context, *s, *r)
                  : FullyConnected<uint8_t>(context, *s, *r);
  return Status::Ok();
}

}  // namespace tfa::runtime
