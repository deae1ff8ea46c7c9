#include "runtime/kernels/cpu/int16x8_conv.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

struct Int16Requantization {
  std::vector<QuantizedMultiplier> multipliers;  // one per output channel
  int32_t min = -32768, max = 32767;
};

// The bias of output channel c, int64 or int32 (0 without a bias).
int64_t BiasAt(const KernelContext& context, int64_t c) {
  if (!context.has_input(2)) return 0;
  const RuntimeTensor& bias = context.input(2);
  return bias.type == TensorType::kInt64 ? bias.Data<const int64_t>()[c]
                                         : bias.Data<const int32_t>()[c];
}

Result<Int16Requantization> GetRequantization(const KernelContext& context, int32_t channels,
                                              int channel_dim) {
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& weights = context.input(1);
  const RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(input, TensorType::kInt16, "input"));
  TFA_RETURN_IF_ERROR(CheckType(weights, TensorType::kInt8, "weights"));
  TFA_RETURN_IF_ERROR(CheckType(output, TensorType::kInt16, "output"));
  if (context.has_input(2)) {
    const RuntimeTensor& bias = context.input(2);
    if (bias.type != TensorType::kInt64 && bias.type != TensorType::kInt32)
      return Status::Error("bias must be int64 or int32");
    if (bias.NumElements() != channels)
      return Status::Error("bias has " + ShapeString(bias.shape) + " elements");
  }
  auto in = PerTensorParams(input, "input");
  if (!in.ok()) return in.status();
  auto out = PerTensorParams(output, "output");
  if (!out.ok()) return out.status();
  if (in->zero_point != 0 || out->zero_point != 0)
    return Status::Error("int16 activations must have zero point 0");
  if (!weights.quantization || weights.quantization->scale.empty())
    return Status::Error("weights have no quantization scale");
  const Quantization& wq = *weights.quantization;
  const size_t scales = wq.scale.size();
  if (scales != 1 &&
      (scales != static_cast<size_t>(channels) || wq.quantized_dimension != channel_dim)) {
    return Status::Error("weights have " + std::to_string(scales) +
                         " scales, expected 1 or one per output channel");
  }
  for (int64_t zp : wq.zero_point) {
    if (zp != 0) return Status::Error("int8 weights must be symmetric (zero point 0)");
  }
  Int16Requantization r;
  r.multipliers.resize(static_cast<size_t>(channels));
  for (size_t c = 0; c < r.multipliers.size(); ++c) {
    const float weight_scale = wq.scale[scales == 1 ? 0 : c];
    if (!(weight_scale > 0.0f)) return Status::Error("weights have a non-positive scale");
    // As for int8 (kernel_util.cc): per-tensor FULLY_CONNECTED multiplies the float scales
    // first, the convolutions take the product in double.
    const bool float_product = context.node->op == "FULLY_CONNECTED" && scales == 1;
    const double product = float_product ? static_cast<double>(in->scale * weight_scale)
                                         : static_cast<double>(in->scale) * weight_scale;
    r.multipliers[c] = QuantizeMultiplier(product / static_cast<double>(out->scale));
  }
  // int16 activations have zero point 0 (the 16x8 scheme is symmetric).
  auto range = QuantizedActivationRange(context.options().fused_activation, TensorType::kInt16,
                                        QuantParams{out->scale, 0});
  if (!range.ok()) return Status::Error("fused activation is not supported on int16");
  r.min = range->min;
  r.max = range->max;
  return r;
}

int16_t Requantize(const Int16Requantization& r, int64_t acc, int64_t channel) {
  const int32_t scaled =
      MultiplyByQuantizedMultiplierInt64(acc, r.multipliers[static_cast<size_t>(channel)]);
  return static_cast<int16_t>(std::clamp(scaled, r.min, r.max));
}

// The sum over the window of output pixel (oy, ox) of `tap(iy, ix, ky, kx)`, taps outside the
// input skipped (zero padding): the loop conv and depthwise share.
template <typename Geometry, typename Tap>
int64_t WindowSum(const Geometry& g, int32_t oy, int32_t ox, Tap tap) {
  int64_t acc = 0;
  for (int32_t ky = 0; ky < g.kh; ++ky) {
    const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
    if (iy < 0 || iy >= g.in_h) continue;
    for (int32_t kx = 0; kx < g.kw; ++kx) {
      const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
      if (ix < 0 || ix >= g.in_w) continue;
      acc += tap(iy, ix, ky, kx);
    }
  }
  return acc;
}

// Every output element [b, oy, ox, oc] as `sum(b, oy, ox, oc)` plus its bias, requantized to int16.
template <typename Geometry, typename Sum>
void RequantizeEachOutput(KernelContext& context, const Geometry& g, const Int16Requantization& r,
                          Sum sum) {
  int16_t* out = context.output(0).Data<int16_t>();
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        for (int32_t oc = 0; oc < g.out_c; ++oc) {
          const int64_t acc = sum(b, oy, ox, oc) + BiasAt(context, oc);
          out[((int64_t{b} * g.out_h + oy) * g.out_w + ox) * g.out_c + oc] = Requantize(r, acc, oc);
        }
      }
    }
  }
}

}  // namespace

int32_t MultiplyByQuantizedMultiplierInt64(int64_t x, QuantizedMultiplier m) {
  const int32_t reduced = m.multiplier < 0x7FFF0000 ? ((m.multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int total_shift = 15 - m.shift;
  const int64_t result = (x * reduced + (int64_t{1} << (total_shift - 1))) >> total_shift;
  return static_cast<int32_t>(result);
}

bool HasInt16Input(const KernelContext& context) {
  return !context.inputs.empty() && context.inputs[0] &&
         context.inputs[0]->type == TensorType::kInt16;
}

Status PrepareInt16x8Conv2D(KernelContext& context) {
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  return GetRequantization(context, g->out_c, 0).status();
}

Status EvalInt16x8Conv2D(KernelContext& context) {
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 0);
  if (!r.ok()) return r.status();
  const int16_t* in = context.input(0).Data<const int16_t>();
  const int8_t* filter = context.input(1).Data<const int8_t>();
  RequantizeEachOutput(context, *g, *r, [&](int32_t b, int32_t oy, int32_t ox, int32_t oc) {
    return WindowSum(*g, oy, ox, [&](int32_t iy, int32_t ix, int32_t ky, int32_t kx) {
      const int16_t* x = in + ((int64_t{b} * g->in_h + iy) * g->in_w + ix) * g->in_c;
      const int8_t* w = filter + ((int64_t{oc} * g->kh + ky) * g->kw + kx) * g->in_c;
      int64_t acc = 0;
      for (int32_t ic = 0; ic < g->in_c; ++ic) acc += int64_t{w[ic]} * x[ic];
      return acc;
    });
  });
  return Status::Ok();
}

// depthwise_conv.cc Prepare takes an int16 input's bias as int64 only (TF_LITE_ENSURE_TYPES_EQ),
// unlike CONV_2D and FULLY_CONNECTED.
Status PrepareInt16x8DepthwiseConv2D(KernelContext& context) {
  if (context.has_input(2) && context.input(2).type != TensorType::kInt64) {
    return Status::Error(std::string("the bias of an int16 input must be int64, as upstream's "
                                     "requires, got ") +
                         TensorTypeName(context.input(2).type));
  }
  auto g = DepthwiseGeometryOf(context);
  if (!g.ok()) return g.status();
  return GetRequantization(context, g->out_c, 3).status();
}

Status EvalInt16x8DepthwiseConv2D(KernelContext& context) {
  auto g = DepthwiseGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 3);
  if (!r.ok()) return r.status();
  const int16_t* in = context.input(0).Data<const int16_t>();
  const int8_t* filter = context.input(1).Data<const int8_t>();
  RequantizeEachOutput(context, *g, *r, [&](int32_t b, int32_t oy, int32_t ox, int32_t oc) {
    const int32_t ic = oc / g->multiplier;
    return WindowSum(*g, oy, ox, [&](int32_t iy, int32_t ix, int32_t ky, int32_t kx) {
      return int64_t{filter[(int64_t{ky} * g->kw + kx) * g->out_c + oc]} *
             in[((int64_t{b} * g->in_h + iy) * g->in_w + ix) * g->in_c + ic];
    });
  });
  return Status::Ok();
}

Status PrepareInt16x8FullyConnected(KernelContext& context) {
  auto s = FullyConnectedGeometryOf(context);
  if (!s.ok()) return s.status();
  return GetRequantization(context, static_cast<int32_t>(s->units), 0).status();
}

Status EvalInt16x8FullyConnected(KernelContext& context) {
  auto s = FullyConnectedGeometryOf(context);
  if (!s.ok()) return s.status();
  auto r = GetRequantization(context, static_cast<int32_t>(s->units), 0);
  if (!r.ok()) return r.status();
  const int16_t* in = context.input(0).Data<const int16_t>();
  const int8_t* weights = context.input(1).Data<const int8_t>();
  int16_t* out = context.output(0).Data<int16_t>();
  for (int64_t b = 0; b < s->batch; ++b) {
    for (int64_t u = 0; u < s->units; ++u) {
      int64_t acc = 0;
      for (int64_t d = 0; d < s->in_dim; ++d)
        acc += int64_t{weights[u * s->in_dim + d]} * in[b * s->in_dim + d];
      acc += BiasAt(context, u);
      out[b * s->units + u] = Requantize(*r, acc, u);
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
