#include "runtime/kernels/cpu/quantized_transpose_conv.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/kernels/cpu/int16x8_conv.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

constexpr size_t kOutputShape = 0, kWeights = 1, kInput = 2, kBias = 3;

struct TransposeGeometry {
  int32_t batches = 0, in_h = 0, in_w = 0, in_c = 0;
  int32_t out_h = 0, out_w = 0, out_c = 0, kh = 0, kw = 0;
  int32_t stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;

  int64_t taps() const { return int64_t{kh} * kw * in_c; }
};

// What turns the accumulator of output channel c into a stored value.
struct Requantization {
  int32_t input_offset = 0;   // minus the input zero point
  int32_t weight_offset = 0;  // minus the weights' zero point (uint8 only)
  int32_t output_zero_point = 0;
  bool int64_accumulator = false;
  std::vector<QuantizedMultiplier> multipliers;  // one per output channel
  int32_t min = 0, max = 0;                      // the fused activation's stored-value bounds
};

struct TransposeConvPlan {
  TransposeGeometry geometry;
  Requantization requantization;
};

const RuntimeTensor* OptionalBias(const KernelContext& context) {
  return context.has_input(kBias) ? context.inputs[kBias] : nullptr;
}

Status CheckTypes(const RuntimeTensor& input, const RuntimeTensor& weights,
                  const RuntimeTensor* bias, const RuntimeTensor& output) {
  const TensorType type = input.type;
  TFA_RETURN_IF_ERROR(CheckType(output, type, "output"));
  TFA_RETURN_IF_ERROR(CheckType(
      weights, type == TensorType::kUInt8 ? TensorType::kUInt8 : TensorType::kInt8, "weights"));
  if (!bias) return Status::Ok();
  if (type == TensorType::kInt16) {
    if (bias->type != TensorType::kInt64 && bias->type != TensorType::kInt32)
      return Status::Error("bias of a 16x8 TRANSPOSE_CONV must be int64 or int32");
  } else {
    TFA_RETURN_IF_ERROR(CheckType(*bias, TensorType::kInt32, "bias"));
  }
  // Upstream's Prepare: int8 and int16 take a bias with zero point 0.
  if (type != TensorType::kUInt8 && bias->quantization && !bias->quantization->zero_point.empty() &&
      bias->quantization->zero_point[0] != 0) {
    return Status::Error("bias has a nonzero zero point");
  }
  return Status::Ok();
}

Result<TransposeGeometry> GeometryOf(const KernelContext& context) {
  const RuntimeTensor& weights = context.input(kWeights);
  const RuntimeTensor& input = context.input(kInput);
  const RuntimeTensor& output = context.output(0);
  // Upstream resizes the output from an int32 shape tensor only (transpose_conv.cc ResizeTensor).
  TFA_RETURN_IF_ERROR(CheckType(context.input(kOutputShape), TensorType::kInt32, "output_shape"));
  auto shape = ReadIndexTensor(context.input(kOutputShape), "output_shape");
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, std::vector<int32_t>(shape->begin(), shape->end())));
  TFA_RETURN_IF_ERROR(CheckRank(input, 4, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(weights, 4, "weights"));
  TFA_RETURN_IF_ERROR(CheckRank(output, 4, "output"));
  TransposeGeometry g;
  g.batches = input.Dim(0);
  g.in_h = input.Dim(1);
  g.in_w = input.Dim(2);
  g.in_c = input.Dim(3);
  g.out_h = output.Dim(1);
  g.out_w = output.Dim(2);
  g.out_c = output.Dim(3);
  g.kh = weights.Dim(1);
  g.kw = weights.Dim(2);
  if (weights.Dim(3) != g.in_c) return Status::Error("weights and input channels differ");
  if (weights.Dim(0) != g.out_c) return Status::Error("weights and output channels differ");
  if (output.Dim(0) != g.batches) return Status::Error("input and output batches differ");
  const RuntimeTensor* bias = OptionalBias(context);
  if (bias && bias->NumElements() != g.out_c) {
    return Status::Error("bias has " + std::to_string(bias->NumElements()) +
                         " elements, expected " + std::to_string(g.out_c));
  }
  const OpOptions& o = context.options();
  if (o.stride_h <= 0 || o.stride_w <= 0) return Status::Error("strides must be positive");
  g.stride_h = o.stride_h;
  g.stride_w = o.stride_w;
  // The padding of a convolution from the output back to the input, as the float kernel and
  // upstream's ComputePaddingHeightWidth(stride, 1, out_h, out_w, kh, kw) have it.
  g.pad_top = ConvPaddingBefore(o.padding, g.out_h, g.kh, g.stride_h, 1,
                                ConvOutputSize(o.padding, g.out_h, g.kh, g.stride_h, 1));
  g.pad_left = ConvPaddingBefore(o.padding, g.out_w, g.kw, g.stride_w, 1,
                                 ConvOutputSize(o.padding, g.out_w, g.kw, g.stride_w, 1));
  return g;
}

// CalculateActivationRangeQuantized (tflite/kernels/kernel_util.cc): the RELU family clamps at
// zero_point + round(bound / scale) within the type; any other activation clamps to the type.
void SetActivationRange(Activation activation, TensorType type, QuantParams out,
                        Requantization& r) {
  auto range = QuantizedActivationRange(activation, type, out);
  const QuantizedRange bounds = range.ok() ? *range : TypeRange(type);
  r.min = bounds.min;
  r.max = bounds.max;
}

// PopulateConvolutionQuantizationParams as transpose_conv.cc calls it, with channels_out =
// weights dimension 0.
Result<Requantization> RequantizationOf(const KernelContext& context, int32_t out_c) {
  const RuntimeTensor& weights = context.input(kWeights);
  const RuntimeTensor& input = context.input(kInput);
  const RuntimeTensor& output = context.output(0);
  const RuntimeTensor* bias = OptionalBias(context);
  TFA_RETURN_IF_ERROR(CheckTypes(input, weights, bias, output));
  auto in = PerTensorParams(input, "input");
  if (!in.ok()) return in.status();
  auto out = PerTensorParams(output, "output");
  if (!out.ok()) return out.status();
  const bool int16 = input.type == TensorType::kInt16;
  const bool uint8 = input.type == TensorType::kUInt8;
  if (int16 && (in->zero_point != 0 || out->zero_point != 0))
    return Status::Error("int16 activations must have zero point 0");
  if (!weights.quantization || weights.quantization->scale.empty())
    return Status::Error("weights have no quantization scale");
  const Quantization& wq = *weights.quantization;
  const size_t scales = wq.scale.size();
  if (scales > 1) {
    if (uint8) return Status::Error("uint8 weights must be quantized per tensor");
    const int dim = wq.quantized_dimension;
    if (scales != static_cast<size_t>(out_c) || dim < 0 || dim >= 4 || weights.Dim(dim) != out_c) {
      return Status::Error("weights have " + std::to_string(scales) +
                           " scales, expected 1 or one per output channel");
    }
  }
  for (float s : wq.scale) {
    if (!(s >= 0.0f) || !std::isfinite(s))
      return Status::Error("weights have a negative or non-finite scale");
  }
  Requantization r;
  r.input_offset = -in->zero_point;
  r.output_zero_point = out->zero_point;
  r.int64_accumulator = int16 && (!bias || bias->type == TensorType::kInt64);
  r.multipliers.resize(static_cast<size_t>(out_c));
  if (uint8) {
    r.weight_offset = wq.zero_point.empty() ? 0 : -static_cast<int32_t>(wq.zero_point[0]);
    // GetQuantizedConvolutionMultipler: the bias scale must be input_scale * weight_scale
    // (within 2% of an output step); the multiplier takes the product of the float scales.
    const float weight_scale = wq.scale[0];
    if (bias) {
      const double bias_scale = bias->quantization && !bias->quantization->scale.empty()
                                    ? bias->quantization->scale[0]
                                    : 0.0;
      const double product = static_cast<double>(in->scale) * static_cast<double>(weight_scale);
      if (std::abs(product - bias_scale) / static_cast<double>(out->scale) > 0.02)
        return Status::Error("bias scale differs from input_scale * weight_scale");
    }
    const QuantizedMultiplier m = QuantizeMultiplier(static_cast<double>(in->scale * weight_scale) /
                                                     static_cast<double>(out->scale));
    std::fill(r.multipliers.begin(), r.multipliers.end(), m);
  } else {
    for (size_t c = 0; c < r.multipliers.size(); ++c) {
      const double weight_scale = wq.scale[scales == 1 ? 0 : c];
      r.multipliers[c] = QuantizeMultiplier(static_cast<double>(in->scale) * weight_scale /
                                            static_cast<double>(out->scale));
    }
  }
  SetActivationRange(context.options().fused_activation, output.type, *out, r);
  return r;
}

Result<TransposeConvPlan> PlanOf(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 4, 1));
  auto g = GeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = RequantizationOf(context, g->out_c);
  if (!r.ok()) return r.status();
  return TransposeConvPlan{*g, std::move(*r)};
}

uint64_t AccumulatorBytes(const TransposeGeometry& g) {
  return (static_cast<uint64_t>(g.out_c) * sizeof(int64_t) + 63) / 64 * 64;
}

uint64_t ScratchBytes(const TransposeGeometry& g) {
  return AccumulatorBytes(g) +
         static_cast<uint64_t>(g.taps()) * static_cast<uint64_t>(g.out_c) * sizeof(int16_t);
}

// Weights [out_c][kh][kw][in_c] as [kh][kw][in_c][out_c] int16 with the zero-point offset added,
// so that each tap is one contiguous multiply-add over the output channels.
template <typename W>
void TransposeWeights(const W* weights, const TransposeGeometry& g, int32_t offset, int16_t* out) {
  const int64_t taps = g.taps();
  for (int64_t o = 0; o < g.out_c; ++o) {
    for (int64_t t = 0; t < taps; ++t)
      out[t * g.out_c + o] = static_cast<int16_t>(int32_t{weights[o * taps + t]} + offset);
  }
}

// Output channel o's accumulator plus its bias, rescaled, offset and clamped. `Acc` uint32_t is
// upstream's int32 accumulator (wrapping), int64_t its 16x8 int64 one.
template <typename Acc>
int32_t RequantizeChannel(const Requantization& r, const RuntimeTensor* bias, int64_t o, Acc acc) {
  int32_t scaled = 0;
  const QuantizedMultiplier m = r.multipliers[static_cast<size_t>(o)];
  if constexpr (std::is_same_v<Acc, int64_t>) {
    const int64_t total = acc + (bias ? bias->Data<const int64_t>()[o] : 0);
    scaled = MultiplyByQuantizedMultiplierInt64(total, m);
  } else {
    const uint32_t total =
        acc + (bias ? static_cast<uint32_t>(bias->Data<const int32_t>()[o]) : 0u);
    scaled = MultiplyByQuantizedMultiplier(static_cast<int32_t>(total), m);
  }
  return std::clamp(scaled + r.output_zero_point, r.min, r.max);
}

template <typename T, typename Acc>
void Run(KernelContext& context, const TransposeGeometry& g, const Requantization& r,
         const int16_t* weights, Acc* acc) {
  const T* input = context.input(kInput).Data<const T>();
  T* output = context.output(0).Data<T>();
  const RuntimeTensor* bias = OptionalBias(context);
  const int64_t out_c = g.out_c;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        std::fill(acc, acc + out_c, Acc{0});
        // Input pixel (iy, ix) reaches output (iy * stride - pad + ky, ix * stride - pad + kx).
        for (int32_t ky = 0; ky < g.kh; ++ky) {
          const int32_t ty = oy + g.pad_top - ky;
          if (ty < 0) break;
          if (ty % g.stride_h != 0 || ty / g.stride_h >= g.in_h) continue;
          const int32_t iy = ty / g.stride_h;
          for (int32_t kx = 0; kx < g.kw; ++kx) {
            const int32_t tx = ox + g.pad_left - kx;
            if (tx < 0) break;
            if (tx % g.stride_w != 0 || tx / g.stride_w >= g.in_w) continue;
            const int32_t ix = tx / g.stride_w;
            const T* x = input + ((int64_t{b} * g.in_h + iy) * g.in_w + ix) * g.in_c;
            const int16_t* w = weights + (int64_t{ky} * g.kw + kx) * g.in_c * out_c;
            for (int32_t ic = 0; ic < g.in_c; ++ic) {
              const int32_t xv = int32_t{x[ic]} + r.input_offset;
              const int16_t* wc = w + int64_t{ic} * out_c;
              // |xv * w| < 2^31: the product is exact in int32 before it joins the accumulator.
              for (int64_t o = 0; o < out_c; ++o) acc[o] += static_cast<Acc>(xv * int32_t{wc[o]});
            }
          }
        }
        T* dst = output + ((int64_t{b} * g.out_h + oy) * g.out_w + ox) * out_c;
        for (int64_t o = 0; o < out_c; ++o)
          dst[o] = static_cast<T>(RequantizeChannel(r, bias, o, acc[o]));
      }
    }
  }
}

}  // namespace

bool HasQuantizedTransposeConvInput(const KernelContext& context) {
  if (!context.has_input(kInput)) return false;
  const TensorType type = context.inputs[kInput]->type;
  return IsQuantizedType(type) || type == TensorType::kInt16;
}

Status PrepareQuantizedTransposeConv(KernelContext& context) {
  auto plan = PlanOf(context);
  if (!plan.ok()) return plan.status();
  context.scratch_bytes = ScratchBytes(plan->geometry);
  return Status::Ok();
}

Status EvalQuantizedTransposeConv(KernelContext& context) {
  auto plan = PlanOf(context);
  if (!plan.ok()) return plan.status();
  const TransposeGeometry& g = plan->geometry;
  const Requantization& r = plan->requantization;
  auto* weights = reinterpret_cast<int16_t*>(context.scratch + AccumulatorBytes(g));
  const RuntimeTensor& w = context.input(kWeights);
  if (w.type == TensorType::kUInt8) {
    TransposeWeights(w.Data<const uint8_t>(), g, r.weight_offset, weights);
  } else {
    TransposeWeights(w.Data<const int8_t>(), g, 0, weights);
  }
  switch (context.input(kInput).type) {
    case TensorType::kInt8:
      Run<int8_t>(context, g, r, weights, reinterpret_cast<uint32_t*>(context.scratch));
      break;
    case TensorType::kUInt8:
      Run<uint8_t>(context, g, r, weights, reinterpret_cast<uint32_t*>(context.scratch));
      break;
    default:
      if (r.int64_accumulator) {
        Run<int16_t>(context, g, r, weights, reinterpret_cast<int64_t*>(context.scratch));
      } else {
        Run<int16_t>(context, g, r, weights, reinterpret_cast<uint32_t*>(context.scratch));
      }
      break;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
