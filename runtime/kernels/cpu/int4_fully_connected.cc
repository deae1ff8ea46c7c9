#include "runtime/kernels/cpu/int4_fully_connected.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "runtime/kernels/cpu/dequantize.h"
#include "runtime/kernels/cpu/hybrid_fully_connected.h"
#include "runtime/kernels/cpu/hybrid_math.h"
#include "runtime/kernels/cpu/int16x8_conv.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_conv.h"
#include "runtime/kernels/cpu/window_geometry.h"

namespace tfa::runtime {
namespace {

// optimized/4bit/fully_connected_common.h: unsigned nibbles hold w + 7, the input sums times -7
// undo it; blocks of 4 units by 32 input values.
constexpr int32_t kPackedZeroPoint = -7;
constexpr int64_t kFilterWidth = 4, kFilterDepth = 32;

bool IsBlockwise(const RuntimeTensor& weights) {
  return weights.quantization != nullptr && weights.quantization->blockwise;
}

// fully_connected.cc Prepare: int4 weights must have zero points 0.
Status CheckInt4ZeroPoints(const RuntimeTensor& weights) {
  if (weights.quantization == nullptr) return Status::Ok();
  for (int64_t zero_point : weights.quantization->zero_point) {
    if (zero_point != 0) return Status::Error("Unsupported filter quantization zero-point value.");
  }
  return Status::Ok();
}

// The packed kernel runs when PrepareImpl finds constant weights, a batch, an even input depth
// of at least FilterDepth and at least FilterWidth units.
bool TakesPackedKernel(const KernelContext& context, const FullyConnectedGeometry& g) {
  return context.input(1).is_constant && g.batch > 0 && g.in_dim % 2 == 0 &&
         g.units >= kFilterWidth && g.in_dim >= kFilterDepth;
}

Status PrepareUnpacked(KernelContext& context) {
  if (context.input(0).type == TensorType::kInt16) return PrepareInt16x8FullyConnected(context);
  if (context.input(0).type == TensorType::kFloat32) return PrepareHybridFullyConnected(context);
  return PrepareQuantizedFullyConnected(context);
}

Status EvalUnpacked(KernelContext& context) {
  if (context.input(0).type == TensorType::kInt16) return EvalInt16x8FullyConnected(context);
  if (context.input(0).type == TensorType::kFloat32) return EvalHybridFullyConnected(context);
  return EvalQuantizedFullyConnected(context);
}

// What the node runs, and why not where upstream refuses it.
enum class Int4Path : uint8_t { kUnpacked, kPacked, kBlockwise };

Result<Int4Path> PathOf(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 3, 1));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& weights = context.input(1);
  static constexpr TensorType kInputs[] = {TensorType::kFloat32, TensorType::kInt8,
                                           TensorType::kInt16};
  // A uint8 input would send the packed bytes to the uint8 kernel as if they were uint8 weights.
  TFA_RETURN_IF_ERROR(CheckTypeIn(input, kInputs, "input with int4 weights"));
  TFA_RETURN_IF_ERROR(CheckInt4ZeroPoints(weights));
  auto g = FullyConnectedGeometryOf(context);
  if (!g.ok()) return g.status();
  const auto needed = static_cast<uint64_t>(g->units * g->in_dim + 1) / 2;
  if (needed > 0 && (weights.data == nullptr || weights.bytes < needed)) {
    return Status::Error("int4 weights " + ShapeString(weights.shape) + " need " +
                         std::to_string(needed) + " bytes, have " + std::to_string(weights.bytes));
  }
  if (input.type == TensorType::kFloat32) {
    TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
    if (context.has_input(2)) {
      TFA_RETURN_IF_ERROR(CheckType(context.input(2), TensorType::kFloat32, "bias"));
      if (context.input(2).NumElements() != g->units)
        return Status::Error("bias size differs from the units");
    }
    if (TakesPackedKernel(context, *g))
      return IsBlockwise(weights) ? Int4Path::kBlockwise : Int4Path::kPacked;
  }
  if (IsBlockwise(weights)) {
    // Prepare (integer input) or EvalHybridDense (float input) ensures affine quantization.
    return Status::Error(
        "blockwise int4 weights: upstream's kernel takes them only on its packed 4-bit path "
        "(float32 input, constant weights, an even input depth >= 32, >= 4 units); elsewhere it "
        "fails TF_LITE_ENSURE_EQ(filter->quantization.type, kTfLiteAffineQuantization)");
  }
  return Int4Path::kUnpacked;
}

// One of the node's planned temporaries when it holds `count` values, else `own`.
template <typename T>
T* TemporaryOr(const KernelContext& context, size_t index, int64_t count, std::vector<T>& own) {
  const auto bytes = static_cast<uint64_t>(count) * sizeof(T);
  if (RuntimeTensor* t = context.temporary(index, bytes)) return t->Data<T>();
  own.assign(static_cast<size_t>(count), T{});
  return own.data();
}

std::vector<float> FilterScales(const RuntimeTensor& weights, int64_t units) {
  std::vector<float> scales(static_cast<size_t>(units), 0.0f);
  const Quantization* q = weights.quantization;
  if (q == nullptr || q->scale.empty()) return scales;
  if (q->scale.size() == 1) {
    std::fill(scales.begin(), scales.end(), q->scale[0]);
  } else {
    std::copy_n(q->scale.begin(), std::min<size_t>(q->scale.size(), scales.size()), scales.begin());
  }
  return scales;
}

// EvalHybridDense4Bit with the reference 4-bit routines (x86 without SSSE3): each batch row
// quantized symmetrically by 127 / max|x| (no clamp), the nibble products summed in int32, then
// bias + (offset * scale) * filter scale, plus (sum * scale) * filter scale, in that float order.
Status EvalPacked(KernelContext& context, const FullyConnectedGeometry& g) {
  const RuntimeTensor& weights = context.input(1);
  const Quantization* q = weights.quantization;
  if (q == nullptr || q->scale.empty()) return Status::Error("weights have no scale");
  if (q->scale.size() != 1 && static_cast<int64_t>(q->scale.size()) != g.units) {
    return Status::Error("weights have " + std::to_string(q->scale.size()) + " scales for " +
                         std::to_string(g.units) + " units");
  }
  auto range = GetActivationRange(context.options().fused_activation);
  if (!range.ok()) return range.status();
  const int64_t batch = g.batch, cols = g.in_dim, units = g.units;
  std::vector<int8_t> own_quantized;
  std::vector<float> own_factors;
  std::vector<int32_t> own_sums, own_offsets;
  int8_t* quantized = TemporaryOr(context, 0, batch * cols, own_quantized);
  float* factors = TemporaryOr(context, 1, batch, own_factors);
  int32_t* sums = TemporaryOr(context, 2, batch * units, own_sums);
  int32_t* offsets = TemporaryOr(context, 3, batch, own_offsets);

  const float* input = context.input(0).Data<const float>();
  for (int64_t b = 0; b < batch; ++b) {
    const float* x = input + b * cols;
    float denominator = 0;
    for (int64_t c = 0; c < cols; ++c) denominator = std::max(denominator, std::abs(x[c]));
    if (denominator == 0) denominator = 127.0f;
    const auto inverse = static_cast<float>(127.0 / static_cast<double>(denominator));
    factors[b] = static_cast<float>(static_cast<double>(denominator) / 127.0);
    int32_t total = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const auto value = static_cast<int8_t>(std::round(x[c] * inverse));
      quantized[b * cols + c] = value;
      total += value;
    }
    offsets[b] = total * kPackedZeroPoint;
  }

  const std::vector<int8_t> unpacked = UnpackInt4(weights.data, weights.NumElements());
  for (int64_t u = 0; u < units; ++u) {
    const std::vector<int8_t> row = PackedKernelRow(unpacked.data() + u * cols, cols);
    for (int64_t b = 0; b < batch; ++b) {
      int32_t total = 0;
      for (int64_t c = 0; c < cols; ++c)
        total += (row[static_cast<size_t>(c)] - kPackedZeroPoint) * quantized[b * cols + c];
      sums[b * units + u] = total;
    }
  }

  const std::vector<float> filter_scales = FilterScales(weights, units);
  const float* bias = context.has_input(2) ? context.input(2).Data<const float>() : nullptr;
  float* out = context.output(0).Data<float>();
  for (int64_t b = 0; b < batch; ++b) {
    const float offset = static_cast<float>(offsets[b]) * factors[b];
    for (int64_t u = 0; u < units; ++u) {
      float value = offset * filter_scales[static_cast<size_t>(u)];
      if (bias) value += bias[u];
      value += static_cast<float>(sums[b * units + u]) * factors[b] *
               filter_scales[static_cast<size_t>(u)];
      out[b * units + u] = range->Apply(value);
    }
  }
  return Status::Ok();
}

// EvalBlockwise4Bit: each batch row quantized asymmetrically, every block's int4 products summed
// through float as upstream writes it, scaled by the block's float16 scale, the zero point's
// share taken off, then times the row's scale plus the bias. Upstream applies no fused
// activation on this path, nor here.
Status EvalBlockwise(KernelContext& context, const FullyConnectedGeometry& g) {
  const RuntimeTensor& weights = context.input(1);
  const int64_t block = weights.quantization->block_size;
  if (block <= 0)
    return Status::Error("blockwise weights have block size " + std::to_string(block));
  const int64_t batch = g.batch, cols = g.in_dim, units = g.units;
  const int64_t blocks = cols / block;
  // The interpreter passes the scale tensor after the node's own intermediates.
  const size_t own = context.node ? context.node->intermediates.size() : 0;
  const RuntimeTensor* scale_tensor =
      context.intermediates.size() > own ? context.intermediates[own] : nullptr;
  if (scale_tensor == nullptr || scale_tensor->type != TensorType::kFloat16 ||
      scale_tensor->data == nullptr || scale_tensor->NumElements() < units * blocks ||
      scale_tensor->bytes < static_cast<uint64_t>(units * blocks) * sizeof(uint16_t)) {
    return Status::Error("blockwise weights need " + std::to_string(units * blocks) +
                         " float16 scales (units x blocks) in their scale tensor");
  }
  std::vector<float> scales(static_cast<size_t>(units * blocks));
  const auto* halves = scale_tensor->Data<const uint16_t>();
  for (size_t i = 0; i < scales.size(); ++i) scales[i] = HalfToFloat(halves[i]);
  // Upstream quantizes into vectors of its own, not the planned temporaries.
  std::vector<int8_t> quantized(static_cast<size_t>(batch * cols));
  std::vector<QuantizedRow> rows(static_cast<size_t>(batch));
  const float* input = context.input(0).Data<const float>();
  for (int64_t b = 0; b < batch; ++b) {
    rows[static_cast<size_t>(b)] =
        AsymmetricQuantizeFloats(input + b * cols, cols, quantized.data() + b * cols);
  }
  const float* bias = context.has_input(2) ? context.input(2).Data<const float>() : nullptr;
  const int64_t row_bytes_twice = (cols + 1) / 2 * 2;
  const uint8_t* kernel = weights.data;
  float* out = context.output(0).Data<float>();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t u = 0; u < units; ++u) {
      float value = 0, scaled_sums = 0;
      for (int64_t k = 0; k < blocks; ++k) {
        int32_t weight_sum = 0, product_sum = 0;
        for (int64_t i = 0; i < block; ++i) {
          const int64_t c = k * block + i;
          const uint8_t byte = kernel[(u * row_bytes_twice + c) / 2];
          const int nibble = c % 2 == 0 ? (byte & 0xF) : (byte >> 4);
          const int32_t w = (nibble ^ 8) - 8;
          weight_sum += w;
          // An int32 sum of float products, as upstream's c_ref_acc += int * float.
          product_sum = static_cast<int32_t>(
              static_cast<float>(product_sum) +
              static_cast<float>(quantized[static_cast<size_t>(b * cols + c)]) *
                  static_cast<float>(w));
        }
        const float scale = scales[static_cast<size_t>(u * blocks + k)];
        value += static_cast<float>(product_sum) * scale;
        scaled_sums += scale * static_cast<float>(weight_sum);
      }
      const QuantizedRow& row = rows[static_cast<size_t>(b)];
      value -= static_cast<float>(row.offset) * scaled_sums;
      value *= row.scale;
      if (bias) value += bias[u];
      out[b * units + u] = value;
    }
  }
  return Status::Ok();
}

}  // namespace

Status WithUnpackedWeights(KernelContext& context, KernelFunction kernel) {
  const RuntimeTensor& packed = context.input(1);
  std::vector<int8_t> values = UnpackInt4(packed.data, packed.NumElements());
  RuntimeTensor weights = packed;
  weights.type = TensorType::kInt8;
  weights.data = reinterpret_cast<uint8_t*>(values.data());
  weights.bytes = values.size();
  KernelContext unpacked = context;
  unpacked.inputs[1] = &weights;
  const Status status = kernel(unpacked);
  context.scratch_bytes = unpacked.scratch_bytes;
  return status;
}

std::vector<int8_t> UnpackInt4(const uint8_t* packed, int64_t count) {
  std::vector<int8_t> values(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t byte = packed[i / 2];
    const int nibble = i % 2 == 0 ? (byte & 0xF) : (byte >> 4);
    values[static_cast<size_t>(i)] = static_cast<int8_t>((nibble ^ 8) - 8);
  }
  return values;
}

std::vector<int8_t> PackedKernelRow(const int8_t* row, int64_t cols) {
  std::vector<int8_t> kernel(row, row + cols);
  constexpr int64_t kHalf = kFilterDepth / 2;
  for (int64_t block = 0; block < cols; block += kFilterDepth) {
    for (int64_t p = block; p < std::min(block + kHalf, cols); ++p) {
      const int first = row[p] - kPackedZeroPoint;
      const int second =
          p + kHalf < cols ? row[p + kHalf] - kPackedZeroPoint : 0 - kPackedZeroPoint;
      const auto byte = static_cast<uint8_t>((first << 4) | static_cast<uint8_t>(second));
      kernel[static_cast<size_t>(p)] = static_cast<int8_t>((byte >> 4) + kPackedZeroPoint);
      if (p + kHalf < cols)
        kernel[static_cast<size_t>(p + kHalf)] =
            static_cast<int8_t>((byte & 0xF) + kPackedZeroPoint);
    }
  }
  return kernel;
}

bool HasInt4Weights(const KernelContext& context) {
  return context.inputs.size() >= 2 && context.inputs[1] &&
         context.inputs[1]->type == TensorType::kInt4;
}

Status PrepareInt4FullyConnected(KernelContext& context) {
  auto path = PathOf(context);
  if (!path.ok()) return path.status();
  if (*path == Int4Path::kUnpacked) return WithUnpackedWeights(context, PrepareUnpacked);
  return GetActivationRange(context.options().fused_activation).status();
}

Status EvalInt4FullyConnected(KernelContext& context) {
  auto path = PathOf(context);
  if (!path.ok()) return path.status();
  if (*path == Int4Path::kUnpacked) return WithUnpackedWeights(context, EvalUnpacked);
  auto g = FullyConnectedGeometryOf(context);
  if (!g.ok()) return g.status();
  return *path == Int4Path::kPacked ? EvalPacked(context, *g) : EvalBlockwise(context, *g);
}

}  // namespace tfa::runtime
