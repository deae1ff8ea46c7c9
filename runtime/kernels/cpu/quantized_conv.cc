#include "runtime/kernels/cpu/quantized_conv.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/kernels/cpu/kernel_thread_pool.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_gemm.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {

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

namespace {

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

uint64_t AlignedBytes(uint64_t bytes) { return (bytes + 63) / 64 * 64; }

uint64_t AlignedInt32Bytes(int64_t count) {
  return AlignedBytes(static_cast<uint64_t>(count) * sizeof(int32_t));
}

// gemmlowp takes uint8 operands: int8 data is shifted by +128 (quantized_gemm.h), and the shift
// joins the zero point in the offset it adds back.
template <typename T>
constexpr int32_t kUint8Shift = std::is_same_v<T, int8_t> ? 128 : 0;

// The working memory of the GEMM path, carved from the kernel's scratch: the weights as uint8
// (int8 only), then per thread a pass of activation rows as uint8 and their int32 accumulators.
struct GemmScratch {
  uint64_t weight_bytes = 0;
  uint64_t rows_bytes = 0;
  uint64_t acc_bytes = 0;

  GemmScratch(bool int8, int64_t channels, int64_t depth, int64_t pass_rows)
      : weight_bytes(int8 ? AlignedBytes(static_cast<uint64_t>(channels * depth)) : 0),
        rows_bytes(AlignedBytes(static_cast<uint64_t>(pass_rows * depth))),
        acc_bytes(AlignedInt32Bytes(pass_rows * channels)) {}
  uint64_t Bytes(int threads) const {
    return weight_bytes + static_cast<uint64_t>(threads) * (rows_bytes + acc_bytes);
  }
  uint8_t* Weights(uint8_t* scratch) const { return scratch; }
  uint8_t* Rows(uint8_t* scratch, int part) const {
    return scratch + weight_bytes + static_cast<uint64_t>(part) * (rows_bytes + acc_bytes);
  }
  int32_t* Acc(uint8_t* scratch, int part) const {
    return reinterpret_cast<int32_t*>(Rows(scratch, part) + rows_bytes);
  }
};

// The weights as gemmlowp's operand: uint8 ones as they are, int8 ones shifted into `buffer`.
template <typename T>
const uint8_t* WeightsAsUint8(const T* weights, int64_t count, uint8_t* buffer) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return weights;
  } else {
    ShiftInt8ToUint8(weights, count, buffer);
    return buffer;
  }
}

// Stores the accumulators of `rows` rows: bias, the per-channel multiplier (RescaleGemmOutput),
// the output zero point and the activation clamp.
template <typename T>
void Requantize(const Requantization& r, const int32_t* acc, int64_t rows, int64_t channels,
                const int32_t* bias, T* out) {
  const QuantizedMultiplier* multipliers = r.multipliers.data();
  for (int64_t m = 0; m < rows; ++m) {
    const int32_t* row = acc + m * channels;
    T* dst = out + m * channels;
    for (int64_t c = 0; c < channels; ++c) {
      const int32_t v =
          RescaleGemmOutput<T>(row[c] + (bias ? bias[c] : 0), multipliers[c]) + r.output.zero_point;
      dst[c] = static_cast<T>(r.range.Clamp(v));
    }
  }
}

// Output rows [begin, end) of a product whose activation rows `fill(row, rows, buffer)` returns as
// uint8 (writing them into `buffer` when it must): a pass of kIm2colRows at a time through
// gemmlowp, then requantised.
template <typename T, typename FillRows>
void GemmRows(const Requantization& r, const GemmScratch& layout, uint8_t* scratch, int part,
              int64_t begin, int64_t end, int64_t depth, const uint8_t* weights,
              const int32_t* bias, int64_t channels, T* out, FillRows fill) {
  uint8_t* buffer = layout.Rows(scratch, part);
  int32_t* acc = layout.Acc(scratch, part);
  const int32_t a_offset = -(r.input.zero_point + kUint8Shift<T>);
  const int32_t b_offset = -(r.weight_zero_point + kUint8Shift<T>);
  for (int64_t row = begin; row < end; row += kIm2colRows) {
    const int64_t rows = std::min(kIm2colRows, end - row);
    const uint8_t* a = fill(row, rows, buffer);
    QuantizedGemm({rows, channels, depth}, a, a_offset, weights, b_offset, acc);
    Requantize(r, acc, rows, channels, bias, out + row * channels);
  }
}

// `rows` activation rows of T from `src` as uint8: in place for uint8, shifted into `buffer` for
// int8.
template <typename T>
const uint8_t* RowsAsUint8(const T* src, int64_t rows, int64_t depth, uint8_t* buffer) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return src;
  } else {
    ShiftInt8ToUint8(src, rows * depth, buffer);
    return buffer;
  }
}

// Output pixels per thread part: a few passes, so that small images stay on one thread.
int64_t MinRowsPerPart() { return kIm2colRows / 4; }

template <typename T>
void RunConv(KernelContext& context, const ConvGeometry& g, const Requantization& r) {
  const int64_t depth = g.depth();
  const T* filter = context.input(1).Data<const T>();
  const int32_t* bias = context.has_input(2) ? context.input(2).Data<const int32_t>() : nullptr;
  const int64_t pixels = int64_t{g.out_h} * g.out_w;
  const int64_t image_size = int64_t{g.in_h} * g.in_w * g.in_c;
  const auto pad = static_cast<T>(r.input.zero_point);
  if (pixels < kMinQuantizedGemmRows) {
    // A few output pixels: the plain loop (gemmlowp's packing would cost more).
    auto* weight_sums = reinterpret_cast<int32_t*>(context.scratch);
    T* im2col = reinterpret_cast<T*>(context.scratch + AlignedInt32Bytes(g.out_c));
    WeightSums(filter, g.out_c, depth, weight_sums);
    for (int32_t b = 0; b < g.batches; ++b) {
      const T* image = context.input(0).Data<const T>() + b * image_size;
      Im2col(g, image, 0, pixels, pad, im2col);
      QuantizedMatMul<T, RescaleGemmOutput<T>>(r, im2col, pixels, depth, filter, weight_sums, bias,
                                               g.out_c,
                                               context.output(0).Data<T>() + b * pixels * g.out_c);
    }
    return;
  }
  const GemmScratch layout(std::is_same_v<T, int8_t>, g.out_c, depth, g.rows_per_pass());
  const uint8_t* weights = WeightsAsUint8(filter, g.out_c * depth, layout.Weights(context.scratch));
  for (int32_t b = 0; b < g.batches; ++b) {
    const T* image = context.input(0).Data<const T>() + b * image_size;
    T* out = context.output(0).Data<T>() + b * pixels * g.out_c;
    ParallelFor(
        context.thread_pool, pixels, MinRowsPerPart(), [&](int part, int64_t begin, int64_t end) {
          GemmRows(r, layout, context.scratch, part, begin, end, depth, weights, bias, g.out_c, out,
                   [&](int64_t row, int64_t rows, uint8_t* buffer) {
                     if (g.pointwise())
                       return RowsAsUint8(image + row * depth, rows, depth, buffer);
                     Im2col(g, image, row, rows, pad, reinterpret_cast<T*>(buffer));
                     return RowsAsUint8(reinterpret_cast<const T*>(buffer), rows, depth, buffer);
                   });
        });
  }
}

// The scratch RunConv asks for.
uint64_t ConvScratchBytes(const KernelContext& context, const ConvGeometry& g) {
  const int64_t pixels = int64_t{g.out_h} * g.out_w;
  if (pixels < kMinQuantizedGemmRows) {
    return AlignedInt32Bytes(g.out_c) + static_cast<uint64_t>(pixels * g.depth());
  }
  const GemmScratch layout(context.input(0).type == TensorType::kInt8, g.out_c, g.depth(),
                           g.rows_per_pass());
  return layout.Bytes(ThreadCount(context.thread_pool));
}

template <typename T>
void RunFullyConnected(KernelContext& context, const FullyConnectedGeometry& s,
                       const Requantization& r) {
  const T* weights = context.input(1).Data<const T>();
  const T* input = context.input(0).Data<const T>();
  const int32_t* bias = context.has_input(2) ? context.input(2).Data<const int32_t>() : nullptr;
  T* out = context.output(0).Data<T>();
  if (s.batch < kMinQuantizedGemmRows) {
    // Matrix-vector products: the plain loop (gemmlowp's packing would cost more).
    auto* weight_sums = reinterpret_cast<int32_t*>(context.scratch);
    WeightSums(weights, s.units, s.in_dim, weight_sums);
    QuantizedMatMul<T, RescaleGemmOutput<T>>(r, input, s.batch, s.in_dim, weights, weight_sums,
                                             bias, s.units, out);
    return;
  }
  const GemmScratch layout(std::is_same_v<T, int8_t>, s.units, s.in_dim,
                           std::min(kIm2colRows, s.batch));
  const uint8_t* w = WeightsAsUint8(weights, s.units * s.in_dim, layout.Weights(context.scratch));
  GemmRows(r, layout, context.scratch, 0, 0, s.batch, s.in_dim, w, bias, s.units, out,
           [&](int64_t row, int64_t rows, uint8_t* buffer) {
             return RowsAsUint8(input + row * s.in_dim, rows, s.in_dim, buffer);
           });
}

// The per-channel multipliers as separate arrays, the form RequantizeDoubleRounding vectorises.
struct SplitMultipliers {
  std::vector<int32_t> multiplier, left_shift, right_shift;

  explicit SplitMultipliers(const std::vector<QuantizedMultiplier>& multipliers) {
    for (const QuantizedMultiplier& m : multipliers) {
      multiplier.push_back(m.multiplier);
      left_shift.push_back(m.shift > 0 ? m.shift : 0);
      right_shift.push_back(m.shift > 0 ? 0 : -m.shift);
    }
  }
};

// MultiplyByQuantizedMultiplier (quantized_arithmetic.h) over a row of channels, plus the output
// zero point and the clamp, written so that it vectorises: no branch per lane and no 64-bit
// arithmetic shift (AVX2 has none). Equal to it for every multiplier QuantizeMultiplier makes:
// those are non-negative, so the doubling high multiply never saturates (the property test holds
// the two together).
template <typename T>
void RequantizeDoubleRounding(const Requantization& r, const SplitMultipliers& m,
                              const int32_t* __restrict acc, int64_t count, T* __restrict out) {
  const int32_t* __restrict multiplier = m.multiplier.data();
  const int32_t* __restrict left = m.left_shift.data();
  const int32_t* __restrict right = m.right_shift.data();
  const int32_t zero_point = r.output.zero_point;
  const int32_t lo = r.range.min, hi = r.range.max;
  for (int64_t c = 0; c < count; ++c) {
    const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(acc[c]) << left[c]);
    const int64_t product = int64_t{shifted} * multiplier[c];
    const int64_t nudged = product + (product >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30));
    // Division by 2^31 truncating toward zero: negative values are raised by 2^31 - 1 first;
    // bits 31..62 are then the quotient, and a logical shift yields the same low 32 bits as an
    // arithmetic one.
    const int64_t biased = nudged + (nudged < 0 ? (int64_t{1} << 31) - 1 : 0);
    const auto high = static_cast<int32_t>(static_cast<uint64_t>(biased) >> 31);
    // RoundingDivideByPOT: ties away from zero.
    const auto mask = static_cast<int32_t>((uint32_t{1} << right[c]) - 1u);
    const int32_t remainder = high & mask;
    const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
    int32_t v = (high >> right[c]) + (remainder > threshold ? 1 : 0) + zero_point;
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    out[c] = static_cast<T>(v);
  }
}

// The depthwise filter with its zero point taken out, as int16 (uint8 weights less their zero
// point span [-255, 255]): the inner loop then multiplies two int16 values into int32, which
// vectorises without a per-element subtraction of the weights' zero point.
template <typename T>
void CenteredFilter(const T* filter, int64_t count, int32_t zero_point, int16_t* out) {
  for (int64_t i = 0; i < count; ++i)
    out[i] = static_cast<int16_t>(int32_t{filter[i]} - zero_point);
}

// Output row `row` (= batch * out_h + y) of a quantized DEPTHWISE_CONV_2D: each pixel sums its taps
// in (ky, kx) order with the channel loop innermost and branch-free, into int32 accumulators
// (exact: the order does not matter), then requantises with TFLite's double rounding
// (tflite/kernels/internal/reference/integer_ops/depthwise_conv.h). Taps outside the image add
// nothing, as upstream skips them.
template <typename T>
void DepthwiseRow(const DepthwiseGeometry& g, const Requantization& r, const SplitMultipliers& m,
                  const T* __restrict input, const int16_t* __restrict filter,
                  const int32_t* __restrict bias, int64_t row, int32_t* __restrict acc,
                  T* __restrict output) {
  const int64_t oc_count = g.out_c;
  const int32_t in_zp = r.input.zero_point;
  const int64_t b = row / g.out_h;
  const auto oy = static_cast<int32_t>(row % g.out_h);
  for (int32_t ox = 0; ox < g.out_w; ++ox) {
    for (int64_t c = 0; c < oc_count; ++c) acc[c] = bias ? bias[c] : 0;
    for (int32_t ky = 0; ky < g.kh; ++ky) {
      const int32_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
      if (iy < 0 || iy >= g.in_h) continue;
      for (int32_t kx = 0; kx < g.kw; ++kx) {
        const int32_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
        if (ix < 0 || ix >= g.in_w) continue;
        const T* __restrict x = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_c;
        const int16_t* __restrict w = filter + (int64_t{ky} * g.kw + kx) * oc_count;
        if (g.multiplier == 1) {
          for (int64_t c = 0; c < oc_count; ++c)
            acc[c] += int32_t{w[c]} * static_cast<int16_t>(int32_t{x[c]} - in_zp);
        } else {
          for (int64_t c = 0; c < oc_count; ++c)
            acc[c] += int32_t{w[c]} * (int32_t{x[c / g.multiplier]} - in_zp);
        }
      }
    }
    RequantizeDoubleRounding(r, m, acc, oc_count, output + (row * g.out_w + ox) * oc_count);
  }
}

// Scratch of the depthwise kernel: the centred filter, then an accumulator row per thread.
struct DepthwiseScratch {
  uint64_t filter_bytes = 0;
  uint64_t acc_bytes = 0;

  explicit DepthwiseScratch(const DepthwiseGeometry& g)
      : filter_bytes(
            AlignedBytes(static_cast<uint64_t>(int64_t{g.kh} * g.kw * g.out_c) * sizeof(int16_t))),
        acc_bytes(AlignedInt32Bytes(g.out_c)) {}
  uint64_t Bytes(int threads) const {
    return filter_bytes + static_cast<uint64_t>(threads) * acc_bytes;
  }
};

template <typename T>
void RunDepthwise(KernelContext& context, const DepthwiseGeometry& g, const Requantization& r) {
  const T* input = context.input(0).Data<const T>();
  const int32_t* bias = context.has_input(2) ? context.input(2).Data<const int32_t>() : nullptr;
  T* output = context.output(0).Data<T>();
  const DepthwiseScratch layout(g);
  const SplitMultipliers multipliers(r.multipliers);
  auto* filter = reinterpret_cast<int16_t*>(context.scratch);
  CenteredFilter(context.input(1).Data<const T>(), int64_t{g.kh} * g.kw * g.out_c,
                 r.weight_zero_point, filter);
  // Output rows (batch, y) are split over the threads; each writes its own rows only.
  ParallelFor(context.thread_pool, int64_t{g.batches} * g.out_h, 1,
              [&](int part, int64_t row_begin, int64_t row_end) {
                auto* acc =
                    reinterpret_cast<int32_t*>(context.scratch + layout.filter_bytes +
                                               static_cast<uint64_t>(part) * layout.acc_bytes);
                for (int64_t row = row_begin; row < row_end; ++row)
                  DepthwiseRow(g, r, multipliers, input, filter, bias, row, acc, output);
              });
}

}  // namespace

Status PrepareQuantizedConv2D(KernelContext& context) {
  auto g = ConvGeometryOf(context);
  if (!g.ok()) return g.status();
  auto r = GetRequantization(context, g->out_c, 0);
  if (!r.ok()) return r.status();
  context.scratch_bytes = ConvScratchBytes(context, *g);
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
  context.scratch_bytes = DepthwiseScratch(*g).Bytes(ThreadCount(context.thread_pool));
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
  context.scratch_bytes = s->batch < kMinQuantizedGemmRows
                              ? AlignedInt32Bytes(s->units)
                              : GemmScratch(context.input(0).type == TensorType::kInt8, s->units,
                                            s->in_dim, std::min(kIm2colRows, s->batch))
                                    .Bytes(1);
  return Status::Ok();
}

Status EvalQuantizedFullyConnected(KernelContext& context) {
  auto s = FullyConnectedGeometryOf(context);
  if (!s.ok()) return s.status();
  auto r = GetRequantization(context, static_cast<int32_t>(s->units), 0);
  if (!r.ok()) return r.status();
  if (context.input(0).type == TensorType::kInt8) {
    RunFullyConnected<int8_t>(context, *s, *r);
  } else {
    RunFullyConnected<uint8_t>(context, *s, *r);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
