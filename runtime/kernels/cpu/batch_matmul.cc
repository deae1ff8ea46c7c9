#include "runtime/kernels/cpu/batch_matmul.h"

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/kernels/cpu/hybrid_math.h"
#include "runtime/kernels/cpu/int16x8_conv.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_gemm.h"

namespace tfa::runtime {
namespace {

// The type combinations upstream's Prepare accepts (batch_matmul.cc), by the Eval path each
// takes.
enum class MatMulKind {
  kFloat,        // float32 x float32
  kHybrid,       // float32 x int8 -> float32: LHS rows quantized on the fly
  kInt8,         // int8 x int8 -> int8, requantized
  kInt8ToInt32,  // int8 x int8 -> int32: raw products, zero points ignored (as upstream)
  kInt16,        // int16 x int16 -> int16, int64 accumulators
  kInt16Int8,    // int16 x int8 -> int16, int64 accumulators
};

struct MatMulShape {
  MatMulKind kind = MatMulKind::kFloat;
  std::vector<int32_t> batch;                   // broadcast batch dimensions
  std::vector<int64_t> lhs_stride, rhs_stride;  // per batch dimension, 0 where broadcast
  int64_t rows = 0, cols = 0, depth = 0;
  int64_t lhs_matrices = 1, rhs_matrices = 1;

  int64_t Batches() const {
    int64_t n = 1;
    for (int32_t d : batch) n *= d;
    return n;
  }
};

Result<MatMulKind> KindOf(const KernelContext& context) {
  const TensorType lhs = context.input(0).type, rhs = context.input(1).type;
  const TensorType out = context.output(0).type;
  const auto expect_output = [&](TensorType type, MatMulKind kind) -> Result<MatMulKind> {
    TFA_RETURN_IF_ERROR(CheckType(context.output(0), type, "output"));
    return kind;
  };
  if (lhs == TensorType::kFloat32 && rhs == TensorType::kFloat32)
    return expect_output(TensorType::kFloat32, MatMulKind::kFloat);
  if (lhs == TensorType::kFloat32 && rhs == TensorType::kInt8)
    return expect_output(TensorType::kFloat32, MatMulKind::kHybrid);
  if (lhs == TensorType::kInt8 && rhs == TensorType::kInt8)
    return out == TensorType::kInt32 ? MatMulKind::kInt8ToInt32
                                     : expect_output(TensorType::kInt8, MatMulKind::kInt8);
  if (lhs == TensorType::kInt16 && rhs == TensorType::kInt16)
    return expect_output(TensorType::kInt16, MatMulKind::kInt16);
  if (lhs == TensorType::kInt16 && rhs == TensorType::kInt8)
    return expect_output(TensorType::kInt16, MatMulKind::kInt16Int8);
  // Upstream's Prepare refuses every other pair (TF_LITE_ENSURE on the types).
  return Status::Error(std::string("lhs ") + TensorTypeName(lhs) + " and rhs " +
                       TensorTypeName(rhs) +
                       " is no type pair BATCH_MATMUL takes (float32, float32 x int8, int8, "
                       "int16, int16 x int8)");
}

Result<MatMulShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& lhs = context.input(0);
  const RuntimeTensor& rhs = context.input(1);
  auto kind = KindOf(context);
  if (!kind.ok()) return kind.status();
  if (lhs.Rank() < 2 || rhs.Rank() < 2 || lhs.Rank() > 5 || rhs.Rank() > 5)
    return Status::Error("operands must have rank 2 to 5");
  const OpOptions& o = context.options();
  MatMulShape s;
  s.kind = *kind;
  const int32_t lhs_rows = lhs.Dim(lhs.Rank() - (o.adj_x ? 1 : 2));
  const int32_t lhs_depth = lhs.Dim(lhs.Rank() - (o.adj_x ? 2 : 1));
  const int32_t rhs_depth = rhs.Dim(rhs.Rank() - (o.adj_y ? 1 : 2));
  const int32_t rhs_cols = rhs.Dim(rhs.Rank() - (o.adj_y ? 2 : 1));
  if (lhs_depth != rhs_depth) {
    return Status::Error("lhs " + ShapeString(lhs.shape) + " and rhs " + ShapeString(rhs.shape) +
                         " differ in the contracted dimension");
  }
  const std::vector<int32_t> lhs_batch(lhs.shape.begin(), lhs.shape.end() - 2);
  const std::vector<int32_t> rhs_batch(rhs.shape.begin(), rhs.shape.end() - 2);
  auto batch = BroadcastShape(lhs_batch, rhs_batch);
  if (!batch.ok()) return batch.status();
  s.batch = *batch;
  s.rows = lhs_rows;
  s.cols = rhs_cols;
  s.depth = lhs_depth;
  s.lhs_stride = BroadcastStrides(lhs_batch, s.batch);
  s.rhs_stride = BroadcastStrides(rhs_batch, s.batch);
  for (int32_t d : lhs_batch) s.lhs_matrices *= d;
  for (int32_t d : rhs_batch) s.rhs_matrices *= d;
  std::vector<int32_t> out = s.batch;
  out.push_back(lhs_rows);
  out.push_back(rhs_cols);
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), out));
  return s;
}

// Each of `matrices` row-major [rows, cols] matrices of `element`-byte values in `from`, into
// [cols, rows] in `to`.
void TransposeMatrices(const uint8_t* from, uint8_t* to, int64_t matrices, int64_t rows,
                       int64_t cols, size_t element) {
  const auto bytes = static_cast<int64_t>(element);
  for (int64_t m = 0; m < matrices; ++m) {
    const uint8_t* a = from + m * rows * cols * bytes;
    uint8_t* b = to + m * rows * cols * bytes;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c)
        std::memcpy(b + (c * rows + r) * bytes, a + (r * cols + c) * bytes, element);
    }
  }
}

// The operands as the product reads them: the LHS [rows, depth] and the RHS [cols, depth] per
// matrix, both running along the depth.
struct Operands {
  const uint8_t* lhs = nullptr;
  const uint8_t* rhs = nullptr;
  std::vector<uint8_t> own_lhs, own_rhs;  // where the plan gave no temporary
};

// Upstream's kernel works in its first two temporaries (tflite/kernels/batch_matmul.cc Eval): the
// RHS transposed into temporary 1 unless adj_y (a constant RHS once, into the persistent arena),
// the LHS into temporary 0 when adj_x. Done here too, so the arena measured is the one planned;
// a kernel run without the plan's temporaries transposes into its own buffers.
Operands TransposeIntoTemporaries(const KernelContext& context) {
  const OpOptions& o = context.options();
  const RuntimeTensor& l = context.input(0);
  const RuntimeTensor& r = context.input(1);
  Operands ops;
  ops.lhs = l.Data<const uint8_t>();
  ops.rhs = r.Data<const uint8_t>();
  const auto transpose = [&](const RuntimeTensor& t, size_t temporary, const uint8_t*& data,
                             std::vector<uint8_t>& own) {
    const size_t element = ElementSize(t.type).value_or(1);
    const uint64_t bytes = static_cast<uint64_t>(t.NumElements()) * element;
    uint8_t* to = nullptr;
    if (RuntimeTensor* buffer = context.temporary(temporary, bytes)) {
      to = buffer->Data<uint8_t>();
    } else {
      own.resize(bytes);
      to = own.data();
    }
    const int64_t rows = t.Dim(t.Rank() - 2), cols = t.Dim(t.Rank() - 1);
    // An empty operand has nothing to move (and no matrix count to divide by).
    if (rows * cols > 0)
      TransposeMatrices(data, to, t.NumElements() / (rows * cols), rows, cols, element);
    data = to;
  };
  if (!o.adj_y) transpose(r, 1, ops.rhs, ops.own_rhs);
  if (o.adj_x) transpose(l, 0, ops.lhs, ops.own_lhs);
  return ops;
}

// Calls `product(batch, lhs_matrix, rhs_matrix)` for every output batch with the indices of the
// (broadcast) operand matrices it multiplies.
template <typename Product>
void ForEachBatch(const MatMulShape& s, Product product) {
  std::vector<int32_t> index(s.batch.size(), 0);
  for (int64_t b = 0; b < s.Batches(); ++b) {
    int64_t lhs = 0, rhs = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      lhs += index[d] * s.lhs_stride[d];
      rhs += index[d] * s.rhs_stride[d];
    }
    product(b, lhs, rhs);
    for (int d = static_cast<int>(index.size()) - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < s.batch[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
}

Status EvalFloat(const KernelContext& context, const MatMulShape& s, const Operands& ops) {
  const auto* lhs = reinterpret_cast<const float*>(ops.lhs);
  const auto* rhs = reinterpret_cast<const float*>(ops.rhs);
  float* out = context.output(0).Data<float>();
  ForEachBatch(s, [&](int64_t b, int64_t lm, int64_t rm) {
    const float* l = lhs + lm * s.rows * s.depth;
    const float* r = rhs + rm * s.depth * s.cols;
    float* result = out + b * s.rows * s.cols;
    for (int64_t row = 0; row < s.rows; ++row) {
      for (int64_t col = 0; col < s.cols; ++col) {
        float total = 0;
        for (int64_t k = 0; k < s.depth; ++k) total += l[row * s.depth + k] * r[col * s.depth + k];
        result[row * s.cols + col] = total;
      }
    }
  });
  return Status::Ok();
}

// The requantization of upstream's integer paths: (lhs.scale * rhs.scale) / output.scale, the
// float product first (GetQuantizedConvolutionMultipler), clamped to the output type's range
// (BATCH_MATMUL has no fused activation). Upstream reads the tensors' legacy `params`, which
// InterpreterBuilder sets to scale 0 and zero point 0 for a per-channel tensor
// (GetLegacyQuantization): a per-channel RHS gives a multiplier of 0, so every output is the
// output's zero point, and its zero points pass the int16 path's zero check.
struct Requantization {
  QuantParams lhs, rhs, output;
  QuantizedMultiplier multiplier;
  QuantizedRange range;
};

Result<Requantization> RequantizationOf(const KernelContext& context) {
  Requantization q;
  auto lhs = PerTensorParams(context.input(0), "lhs");
  const Quantization* rhs_quantization = context.input(1).quantization;
  auto rhs = rhs_quantization && rhs_quantization->scale.size() > 1
                 ? Result<QuantParams>(QuantParams{0.0f, 0})
                 : PerTensorParams(context.input(1), "rhs");
  auto out = PerTensorParams(context.output(0), "output");
  if (!lhs.ok()) return lhs.status();
  if (!rhs.ok()) return rhs.status();
  if (!out.ok()) return out.status();
  q.lhs = *lhs;
  q.rhs = *rhs;
  q.output = *out;
  if (context.input(0).type == TensorType::kInt16 &&
      (q.lhs.zero_point != 0 || q.rhs.zero_point != 0 || q.output.zero_point != 0)) {
    return Status::Error("int16 operands and output must have zero point 0");
  }
  const double product = static_cast<double>(q.lhs.scale * q.rhs.scale);
  q.multiplier = QuantizeMultiplier(product / static_cast<double>(q.output.scale));
  q.range = TypeRange(context.output(0).type);
  return q;
}

// Where the int32 accumulators of one output matrix start in the int8 kernel's scratch: after the
// uint8 copies of both operands, 64-byte aligned.
uint64_t ScratchAccumulatorOffset(const MatMulShape& s) {
  const auto copies =
      static_cast<uint64_t>(s.lhs_matrices * s.rows * s.depth + s.rhs_matrices * s.depth * s.cols);
  return (copies + 63) / 64 * 64;
}

// int8 x int8 -> int8 on gemmlowp: both operands shifted to uint8 in the scratch buffer (their
// rows already run along the depth: the LHS as stored or transposed, the RHS transposed), the
// exact int32 sums requantized with TFLite's double rounding, as reference_ops::BatchMatMul.
Status EvalInt8(const KernelContext& context, const MatMulShape& s, const Operands& ops) {
  auto q = RequantizationOf(context);
  if (!q.ok()) return q.status();
  const int64_t lhs_elements = s.lhs_matrices * s.rows * s.depth;
  const int64_t rhs_elements = s.rhs_matrices * s.depth * s.cols;
  uint8_t* lhs = context.scratch;
  uint8_t* rhs = lhs + lhs_elements;
  auto* acc = reinterpret_cast<int32_t*>(context.scratch + ScratchAccumulatorOffset(s));
  ShiftInt8ToUint8(reinterpret_cast<const int8_t*>(ops.lhs), lhs_elements, lhs);
  ShiftInt8ToUint8(reinterpret_cast<const int8_t*>(ops.rhs), rhs_elements, rhs);
  const int32_t lhs_offset = -(q->lhs.zero_point + 128), rhs_offset = -(q->rhs.zero_point + 128);
  auto* out = context.output(0).Data<int8_t>();
  ForEachBatch(s, [&](int64_t b, int64_t lm, int64_t rm) {
    QuantizedGemm({s.rows, s.cols, s.depth}, lhs + lm * s.rows * s.depth, lhs_offset,
                  rhs + rm * s.cols * s.depth, rhs_offset, acc);
    int8_t* result = out + b * s.rows * s.cols;
    for (int64_t i = 0; i < s.rows * s.cols; ++i) {
      const int32_t scaled = MultiplyByQuantizedMultiplier(acc[i], q->multiplier);
      result[i] = static_cast<int8_t>(q->range.Clamp(scaled + q->output.zero_point));
    }
  });
  return Status::Ok();
}

// The integer paths upstream runs on its reference loops: int8 -> int32 (raw products, no
// offsets), int16 and int16 x int8 (int64 sums, 64-bit MultiplyByQuantizedMultiplier).
template <typename Lhs, typename Rhs>
Status EvalIntegerReference(const KernelContext& context, const MatMulShape& s,
                            const Operands& ops) {
  const auto* lhs = reinterpret_cast<const Lhs*>(ops.lhs);
  const auto* rhs = reinterpret_cast<const Rhs*>(ops.rhs);
  const bool raw = s.kind == MatMulKind::kInt8ToInt32;
  Requantization q;
  if (!raw) {
    auto r = RequantizationOf(context);
    if (!r.ok()) return r.status();
    q = *r;
  }
  ForEachBatch(s, [&](int64_t b, int64_t lm, int64_t rm) {
    const Lhs* l = lhs + lm * s.rows * s.depth;
    const Rhs* r = rhs + rm * s.depth * s.cols;
    for (int64_t row = 0; row < s.rows; ++row) {
      for (int64_t col = 0; col < s.cols; ++col) {
        const int64_t i = b * s.rows * s.cols + row * s.cols + col;
        if (raw) {
          // int32 sums that wrap, as upstream's int32 accumulator does.
          uint32_t total = 0;
          for (int64_t k = 0; k < s.depth; ++k)
            total += static_cast<uint32_t>(l[row * s.depth + k] * r[col * s.depth + k]);
          context.output(0).Data<int32_t>()[i] = static_cast<int32_t>(total);
          continue;
        }
        int64_t total = 0;
        for (int64_t k = 0; k < s.depth; ++k) {
          total += (int64_t{l[row * s.depth + k]} - q.lhs.zero_point) *
                   (int64_t{r[col * s.depth + k]} - q.rhs.zero_point);
        }
        const int32_t scaled = MultiplyByQuantizedMultiplierInt64(total, q.multiplier);
        context.output(0).Data<int16_t>()[i] =
            static_cast<int16_t>(q.range.Clamp(scaled + q.output.zero_point));
      }
    }
  });
  return Status::Ok();
}

// How upstream's hybrid loop sees the batch dimensions. Its Eval first folds [..., Q, R, S] x
// [..., 1, X, Y] into [..., Q*R, S] x [..., X, Y] (without adj_x, both ranks above 2): the last
// batch dimension then becomes rows, and only the others step through the factors and sums.
struct HybridIndexView {
  bool folded = false;
  size_t kept_batch_dims = 0;
  int64_t rows = 0;  // rows of one LHS matrix as the loop sees it
};

HybridIndexView HybridIndexViewOf(const KernelContext& context, const MatMulShape& s) {
  const RuntimeTensor& lhs = context.input(0);
  const RuntimeTensor& rhs = context.input(1);
  HybridIndexView view{
      !context.options().adj_x && lhs.Rank() > 2 && rhs.Rank() > 2 && rhs.Dim(rhs.Rank() - 3) == 1,
      s.batch.size(), s.rows};
  if (view.folded && !s.batch.empty()) {
    view.kept_batch_dims = s.batch.size() - 1;
    view.rows = s.batch.back() * s.rows;
  } else {
    view.folded = false;
  }
  return view;
}

// float32 x int8 -> float32 (EvalHybrid): every LHS row quantized to int8 into temporary 2 with
// its scaling factor (temporary 3, times the RHS's per-tensor scale) and offset (temporary 5,
// zero unless asymmetric_quantize_inputs), the RHS rows' sums into the persistent temporary 6,
// then each output the int32 dot product rescaled. The per-row factors and the row sums are
// indexed as reference_ops::BatchMatMul's hybrid overload indexes them: one matrix step per
// batch dimension the operand has (HybridIndexView), not their product, so an LHS or RHS with
// two batch dimensions above 1 reads other matrices' factors, as upstream does. Temporary 4
// (accum_scratch) is planned but never written upstream, nor here.
Status EvalHybrid(const KernelContext& context, const MatMulShape& s, const Operands& ops) {
  const RuntimeTensor& weights = context.input(1);
  if (!weights.quantization || weights.quantization->scale.empty())
    return Status::Error("rhs has no quantization scale");
  const std::vector<float>& scales = weights.quantization->scale;
  const bool per_channel = scales.size() > 1;
  if (per_channel && static_cast<int64_t>(scales.size()) != s.cols)
    return Status::Error("rhs has " + std::to_string(scales.size()) + " scales for " +
                         std::to_string(s.cols) + " output channels");
  const int64_t lhs_rows = s.lhs_matrices * s.rows;
  const int64_t weight_rows = s.rhs_matrices * s.cols;
  std::vector<int8_t> own_quantized;
  std::vector<float> own_factors;
  std::vector<int32_t> own_offsets, own_sums;
  const auto buffer = [&](size_t index, auto& own, int64_t count) {
    using T = typename std::remove_reference_t<decltype(own)>::value_type;
    if (RuntimeTensor* t = context.temporary(index, static_cast<uint64_t>(count) * sizeof(T)))
      return t->Data<T>();
    own.assign(static_cast<size_t>(count), T{});
    return own.data();
  };
  int8_t* quantized = buffer(2, own_quantized, lhs_rows * s.depth);
  float* factors = buffer(3, own_factors, lhs_rows);
  int32_t* offsets = buffer(5, own_offsets, lhs_rows);
  int32_t* row_sums = buffer(6, own_sums, weight_rows);

  const bool asymmetric = context.options().asymmetric_quantize_inputs;
  const auto* lhs = reinterpret_cast<const float*>(ops.lhs);
  for (int64_t r = 0; r < lhs_rows; ++r) {
    const QuantizedRow row =
        asymmetric ? AsymmetricQuantizeFloats(lhs + r * s.depth, s.depth, quantized + r * s.depth)
                   : SymmetricQuantizeFloats(lhs + r * s.depth, s.depth, quantized + r * s.depth);
    factors[r] = per_channel ? row.scale : row.scale * scales[0];
    offsets[r] = row.offset;
  }
  const auto* rhs = reinterpret_cast<const int8_t*>(ops.rhs);
  for (int64_t c = 0; c < weight_rows; ++c) {
    int32_t sum = 0;
    for (int64_t k = 0; k < s.depth; ++k) sum += rhs[c * s.depth + k];
    row_sums[c] = sum;
  }

  float* out = context.output(0).Data<float>();
  const HybridIndexView view = HybridIndexViewOf(context, s);
  std::vector<int32_t> index(s.batch.size(), 0);
  for (int64_t b = 0; b < s.Batches(); ++b) {
    int64_t lm = 0, rm = 0, factor_step = 0, sum_step = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      lm += index[d] * s.lhs_stride[d];
      rm += index[d] * s.rhs_stride[d];
      if (d >= view.kept_batch_dims) continue;
      if (s.lhs_stride[d] != 0) factor_step += index[d];
      if (s.rhs_stride[d] != 0) sum_step += index[d];
    }
    const int64_t first_factor =
        factor_step * view.rows + (view.folded ? index.back() * s.rows : 0);
    const int8_t* x = quantized + lm * s.rows * s.depth;
    const int8_t* w = rhs + rm * s.cols * s.depth;
    for (int64_t row = 0; row < s.rows; ++row) {
      const float factor = factors[first_factor + row];
      const auto offset = static_cast<float>(offsets[first_factor + row]);
      for (int64_t col = 0; col < s.cols; ++col) {
        int32_t total = 0;
        for (int64_t k = 0; k < s.depth; ++k) total += x[row * s.depth + k] * w[col * s.depth + k];
        // int32 minus a float product, truncated back to int32, as upstream writes it.
        total =
            static_cast<int32_t>(static_cast<float>(total) -
                                 static_cast<float>(row_sums[sum_step * s.cols + col]) * offset);
        float scale = factor;
        if (per_channel) scale *= scales[static_cast<size_t>(col)];
        out[b * s.rows * s.cols + row * s.cols + col] = scale * static_cast<float>(total);
      }
    }
    for (int d = static_cast<int>(index.size()) - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < s.batch[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace

Status PrepareBatchMatMul(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  if (s->kind == MatMulKind::kInt8) {
    context.scratch_bytes =
        ScratchAccumulatorOffset(*s) + static_cast<uint64_t>(s->rows * s->cols) * sizeof(int32_t);
  }
  return Status::Ok();
}

Status EvalBatchMatMul(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  const Operands ops = TransposeIntoTemporaries(context);
  switch (s->kind) {
    case MatMulKind::kFloat:
      return EvalFloat(context, *s, ops);
    case MatMulKind::kHybrid:
      return EvalHybrid(context, *s, ops);
    case MatMulKind::kInt8:
      return EvalInt8(context, *s, ops);
    case MatMulKind::kInt8ToInt32:
      return EvalIntegerReference<int8_t, int8_t>(context, *s, ops);
    case MatMulKind::kInt16:
      return EvalIntegerReference<int16_t, int16_t>(context, *s, ops);
    case MatMulKind::kInt16Int8:
      return EvalIntegerReference<int16_t, int8_t>(context, *s, ops);
  }
  return Status::Error("unknown BATCH_MATMUL kind");
}

}  // namespace tfa::runtime
