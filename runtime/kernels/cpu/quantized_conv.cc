#include "runtime/kernels/cpu/quantized_conv.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

// What turns an int32 accumulator of output channel c into a stored value.
struct Requantization {
  QuantParams input, output;
  int32_t weight_zero_point = 0;
  std::vector<QuantizedMultiplier> multipliers;  // one per output channel
  QuantizedRange range;
};

// The quantization of a weighted op. `channels` output channels lie along the weights'
// dimension `channel_dim`.
Result<Requantization> GetRequantization(const KernelContext& context, int32_t channels,
                                         int channel_dim) {
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& weights = context.input(1);
  const RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(output, input.type, "output"));
  const TensorType weight_type =
      input.type == TensorType::kUInt8 ? TensorType::kUInt8 : TensorType::kInt8;
  TFA_RETURN_IF_ERROR(CheckType(weights, weight_type, "weights"));
  if (context.has_input(2)) {
    const RuntimeTensor& bias = context.input(2);
    TFA_RETURN_IF_ERROR(CheckType(bias, TensorType::kInt32, "bias"));
    if (bias.NumElements() != channels)
      return Status::Error("bias has " + ShapeString(bias.shape) + " elements");
  }
  Requantization r;
  auto in = PerTensorParams(input, "input");
  if (!in.ok()) return in.status();
  auto out = PerTensorParams(output, "output");
  if (!out.ok()) return out.status();
  r.input = *in;
  r.output = *out;
  if (!weights.quantization || weights.quantization->scale.empty())
    return Status::Error("weights have no quantization scale");
  const Quantization& wq = *weights.quantization;
  const size_t scales = wq.scale.size();
  if (scales != 1 &&
      (scales != static_cast<size_t>(channels) || wq.quantized_dimension != channel_dim)) {
    return Status::Error("weights have " + std::to_string(scales) +
                         " scales, expected 1 or one per output channel along dimension " +
                         std::to_string(channel_dim));
  }
  for (int64_t zp : wq.zero_point) {
    if (input.type == TensorType::kInt8 && zp != 0)
      return Status::Error("int8 weights must be symmetric (zero point 0)");
  }
  r.weight_zero_point = wq.zero_point.empty() ? 0 : static_cast<int32_t>(wq.zero_point[0]);
  r.multipliers.resize(static_cast<size_t>(channels));
  for (size_t c = 0; c < r.multipliers.size(); ++c) {
    const float weight_scale = wq.scale[scales == 1 ? 0 : c];
    if (!(weight_scale > 0.0f)) return Status::Error("weights have a non-positive scale");
    // Upstream: int8 takes the product in double per channel; uint8 (and the per-tensor int8
    // FULLY_CONNECTED) multiply the two float scales first (GetQuantizedConvolutionMultipler).
    const bool float_product =
        input.type == TensorType::kUInt8 || (context.node->op == "FULLY_CONNECTED" && scales == 1);
    const double product = float_product ? static_cast<double>(r.input.scale * weight_scale)
                                         : static_cast<double>(r.input.scale) * weight_scale;
    r.multipliers[c] = QuantizeMultiplier(product / static_cast<double>(r.output.scale));
  }
  auto range = QuantizedActivationRange(context.options().fused_activation, output.type, r.output);
  if (!range.ok()) return range.status();
  r.range = *range;
  return r;
}

// Rows of the im2col matrix of one image; positions outside the image hold the input zero
// point, so that they contribute nothing once it is subtracted (as upstream pads).
template <typename T>
void Im2col(const ConvGeometry& g, const T* image, int64_t row_begin, int64_t rows, T pad, T* out) {
  const int64_t depth = g.depth();
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t pixel = row_begin + r;
    const int32_t oy = static_cast<int32_t>(pixel / g.out_w);
    const int32_t ox = static_cast<int32_t>(pixel % g.out_w);
    T* dst = out + r * depth;
    for (int32_t ky = 0; ky < g.kh; ++ky) {
      const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
      for (int32_t kx = 0; kx < g.kw; ++kx) {
        const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
          std::fill(dst, dst + g.in_c, pad);
        } else {
          std::memcpy(dst, image + (int64_t{iy} * g.in_w + ix) * g.in_c,
                      sizeof(T) * static_cast<size_t>(g.in_c));
        }
        dst += g.in_c;
      }
    }
  }
}

template <typename T>
int32_t Dot(const T* a, const T* b, int64_t n) {
  int32_t sum = 0;
  for (int64_t k = 0; k < n; ++k) sum += int32_t{a[k]} * int32_t{b[k]};
  return sum;
}

template <typename T>
int32_t Sum(const T* a, int64_t n) {
  int32_t sum = 0;
  for (int64_t k = 0; k < n; ++k) sum += a[k];
  return sum;
}

// out[m][c] for `rows` rows of `a` (each `depth` long) against weights [channels][depth]:
// sum (w - w_zp)(a - a_zp) expanded so that the inner loop is a plain int8/uint8 dot product.
template <typename T, int32_t (*Multiply)(int32_t, QuantizedMultiplier)>
void QuantizedMatMul(const Requantization& r, const T* a, int64_t rows, int64_t depth,
                     const T* weights, const int32_t* weight_sums, const int32_t* bias,
                     int64_t channels, T* out) {
  const int32_t a_zp = r.input.zero_point, w_zp = r.weight_zero_point;
  const int32_t constant = static_cast<int32_t>(depth) * a_zp * w_zp;
  for (int64_t m = 0; m < rows; ++m) {
    const T* row = a + m * depth;
    const int32_t row_sum = w_zp != 0 ? Sum(row, depth) : 0;
    T* dst = out + m * channels;
    for (int64_t c = 0; c < channels; ++c) {
      int32_t acc =
          Dot(row, weights + c * depth, depth) - a_zp * weight_sums[c] - w_zp * row_sum + constant;
      if (bias) acc += bias[c];
      const int32_t v = Multiply(acc, r.multipliers[static_cast<size_t>(c)]) + r.output.zero_point;
      dst[c] = static_cast<T>(r.range.Clamp(v));
    }
  }
}

template <typename T>
void WeightSums(const T* weights, int64_t channels, int64_t depth, int32_t* sums) {
  for (int64_t c = 0; c < channels; ++c) sums[c] = Sum(weights + c * depth, depth);
}

uint64_t AlignedInt32Bytes(int64_t count) {
  return (static_cast<uint64_t>(count) * sizeof(int32_t) + 63) / 64 * 64;
}

template <typename T>
void RunConv(KernelContext& context, const ConvGeometry& g, const Requantization& r) {
  const int64_t depth = g.depth();
  const T* filter = context.input(1).Data<const T>();
  const int32_t* bias = context.has_input(2) ? context.input(2).Data<const int32_t>() : nullptr;
  auto* weight_sums = reinterpret_cast<int32_t*>(context.scratch);
  T* im2col = reinterpret_cast<T*>(context.scratch + AlignedInt32Bytes(g.out_c));
  WeightSums(filter, g.out_c, depth, weight_sums);
  const int64_t pixels = int64_t{g.out_h} * g.out_w;
  const int64_t image_size = int64_t{g.in_h} * g.in_w * g.in_c;
  const auto pad = static_cast<T>(r.input.zero_point);
  for (int32_t b = 0; b < g.batches; ++b) {
    const T* image = context.input(0).Data<const T>() + b * image_size;
    T* out = context.output(0).Data<T>() + b * pixels * g.out_c;
    if (g.pointwise()) {
      QuantizedMatMul<T, MultiplyByQuantizedMultiplierSingleRounding>(
          r, image, pixels, depth, filter, weight_sums, bias, g.out_c, out);
      continue;
    }
    for (int64_t row = 0; row < pixels; row += g.rows_per_pass()) {
      const int64_t rows = std::min(g.rows_per_pass(), pixels - row);
      Im2col(g, image, row, rows, pad, im2col);
      QuantizedMatMul<T, MultiplyByQuantizedMultiplierSingleRounding>(
          r, im2col, rows, depth, filter, weight_sums, bias, g.out_c, out + row * g.out_c);
    }
  }
}

template <typename T>
void RunDepthwise(KernelContext& context, const DepthwiseGeometry& g, const Requantization& r) {
  const T* input = context.input(0).Data<const T>();
  const T* filter = context.input(1).Data<const T>();
  const int32_t* bias = context.has_input(2) ? context.input(2).Data<const int32_t>() : nullptr;
  T* output = context.output(0).Data<T>();
  auto* acc = reinterpret_cast<int32_t*>(context.scratch);
  const int32_t in_zp = r.input.zero_point, w_zp = r.weight_zero_point;
  const int64_t oc_count = g.out_c;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        for (int64_t oc = 0; oc < oc_count; ++oc) acc[oc] = bias ? bias[oc] : 0;
        // Taps outside the image add nothing, as upstream skips them.
        for (int32_t ky = 0; ky < g.kh; ++ky) {
          const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
          if (iy < 0 || iy >= g.in_h) continue;
          for (int32_t kx = 0; kx < g.kw; ++kx) {
            const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
            if (ix < 0 || ix >= g.in_w) continue;
            const T* x = input + ((int64_t{b} * g.in_h + iy) * g.in_w + ix) * g.in_c;
            const T* w = filter + (int64_t{ky} * g.kw + kx) * oc_count;
            if (g.multiplier == 1) {
              for (int64_t c = 0; c < oc_count; ++c)
                acc[c] += (int32_t{w[c]} - w_zp) * (int32_t{x[c]} - in_zp);
            } else {
              for (int64_t c = 0; c < oc_count; ++c)
                acc[c] += (int32_t{w[c]} - w_zp) * (int32_t{x[c / g.multiplier]} - in_zp);
            }
          }
        }
        T* out = output + ((int64_t{b} * g.out_h + oy) * g.out_w + ox) * oc_count;
        for (int64_t c = 0; c < oc_count; ++c) {
          const int32_t v =
              MultiplyByQuantizedMultiplier(acc[c], r.multipliers[static_cast<size_t>(c)]) +
              r.output.zero_point;
          out[c] = static_cast<T>(r.range.Clamp(v));
        }
      }
    }
  }
}

}  // namespace

Status PrepareQuantizedConv2D(KernelContext& context) {
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 0);
  if (!r.ok()) return r.status();
  const int64_t im2col = g->pointwise() ? 0 : g->rows_per_pass() * g->depth();
  context.scratch_bytes = AlignedInt32Bytes(g->out_c) + static_cast<uint64_t>(im2col);
  return Status::Ok();
}

Status EvalQuantizedConv2D(KernelContext& context) {
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 0);
  if (!r.ok()) return r.status();
  if (context.input(0).type == TensorType::kInt8) {
    RunConv<int8_t>(context, *g, *r);
  } else {
    RunConv<uint8_t>(context, *g, *r);
  }
  return Status::Ok();
}

Status PrepareQuantizedDepthwiseConv2D(KernelContext& context) {
  auto g = DepthwiseGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 3);
  if (!r.ok()) return r.status();
  context.scratch_bytes = AlignedInt32Bytes(g->out_c);
  return Status::Ok();
}

Status EvalQuantizedDepthwiseConv2D(KernelContext& context) {
  auto g = DepthwiseGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 3);
  if (!r.ok()) return r.status();
  if (context.input(0).type == TensorType::kInt8) {
    RunDepthwise<int8_t>(context, *g, *r);
  } else {
    RunDepthwise<uint8_t>(context, *g, *r);
  }
  return Status::Ok();
}

Status PrepareQuantizedFullyConnected(KernelContext& context) {
  auto s = FullyConnectedGeometryOf(context);
  if (!s.ok()) return s.status();
  auto r = GetRequantization(context, static_cast<int32_t>(s->units), 0);
  if (!r.ok()) return r.status();
  context.scratch_bytes = AlignedInt32Bytes(s->units);
  return Status::Ok();
}

Status EvalQuantizedFullyConnected(KernelContext& context) {
  auto s = FullyConnectedGeometryOf(context);
  if (!s.ok()) return s.status();
  auto r = GetRequantization(context, static_cast<int32_t>(s->units), 0);
  if (!r.ok()) return r.status();
  const int32_t* bias = context.has_input(2) ? context.input(2).Data<const int32_t>() : nullptr;
  auto* weight_sums = reinterpret_cast<int32_t*>(context.scratch);
  if (context.input(0).type == TensorType::kInt8) {
    const auto* w = context.input(1).Data<const int8_t>();
    WeightSums(w, s->units, s->in_dim, weight_sums);
    QuantizedMatMul<int8_t, MultiplyByQuantizedMultiplierSingleRounding>(
        *r, context.input(0).Data<const int8_t>(), s->batch, s->in_dim, w, weight_sums, bias,
        s->units, context.output(0).Data<int8_t>());
  } else {
    const auto* w = context.input(1).Data<const uint8_t>();
    WeightSums(w, s->units, s->in_dim, weight_sums);
    QuantizedMatMul<uint8_t, MultiplyByQuantizedMultiplierSingleRounding>(
        *r, context.input(0).Data<const uint8_t>(), s->batch, s->in_dim, w, weight_sums, bias,
        s->units, context.output(0).Data<uint8_t>());
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
