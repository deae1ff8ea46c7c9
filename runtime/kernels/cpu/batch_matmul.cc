#include "runtime/kernels/cpu/batch_matmul.h"

#include <utility>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct MatMulShape {
  std::vector<int32_t> batch;                   // broadcast batch dimensions
  std::vector<int64_t> lhs_stride, rhs_stride;  // per batch dimension, 0 where broadcast
  int64_t rows = 0, cols = 0, depth = 0;
};

Result<MatMulShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& lhs = context.input(0);
  const RuntimeTensor& rhs = context.input(1);
  TFA_RETURN_IF_ERROR(CheckType(lhs, TensorType::kFloat32, "lhs"));
  TFA_RETURN_IF_ERROR(CheckType(rhs, TensorType::kFloat32, "rhs"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  if (lhs.Rank() < 2 || rhs.Rank() < 2 || lhs.Rank() > 5 || rhs.Rank() > 5)
    return Status::Error("operands must have rank 2 to 5");
  const OpOptions& o = context.options();
  MatMulShape s;
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
  std::vector<int32_t> out = s.batch;
  out.push_back(lhs_rows);
  out.push_back(rhs_cols);
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), out));
  return s;
}

// Each of `matrices` row-major [rows, cols] matrices of `from` into [cols, rows] in `to`.
void TransposeMatrices(const float* from, float* to, int64_t matrices, int64_t rows, int64_t cols) {
  for (int64_t m = 0; m < matrices; ++m) {
    const float* a = from + m * rows * cols;
    float* b = to + m * rows * cols;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) b[c * rows + r] = a[r * cols + c];
    }
  }
}

// Upstream's kernel works in its first two temporaries (tflite/kernels/batch_matmul.cc Eval): the
// RHS transposed into temporary 1 unless adj_y (a constant RHS once, into the persistent arena),
// the LHS into temporary 0 when adj_x. Done here too, so the arena measured is the one planned;
// the product then reads the transposed copies. Returns whether each operand was transposed.
std::pair<bool, bool> TransposeIntoTemporaries(const KernelContext& context, const float*& lhs,
                                               const float*& rhs) {
  const OpOptions& o = context.options();
  const RuntimeTensor& l = context.input(0);
  const RuntimeTensor& r = context.input(1);
  const auto matrices = [](const RuntimeTensor& t) {
    return t.NumElements() / (int64_t{t.Dim(t.Rank() - 1)} * t.Dim(t.Rank() - 2));
  };
  const uint64_t float_bytes = sizeof(float);
  bool lhs_transposed = false, rhs_transposed = false;
  if (!o.adj_y) {
    if (RuntimeTensor* t =
            context.temporary(1, static_cast<uint64_t>(r.NumElements()) * float_bytes)) {
      TransposeMatrices(rhs, t->Data<float>(), matrices(r), r.Dim(r.Rank() - 2),
                        r.Dim(r.Rank() - 1));
      rhs = t->Data<const float>();
      rhs_transposed = true;
    }
  }
  if (o.adj_x) {
    if (RuntimeTensor* t =
            context.temporary(0, static_cast<uint64_t>(l.NumElements()) * float_bytes)) {
      TransposeMatrices(lhs, t->Data<float>(), matrices(l), l.Dim(l.Rank() - 2),
                        l.Dim(l.Rank() - 1));
      lhs = t->Data<const float>();
      lhs_transposed = true;
    }
  }
  return {lhs_transposed, rhs_transposed};
}

}  // namespace

Status PrepareBatchMatMul(KernelContext& context) { return Shape(context).status(); }

Status EvalBatchMatMul(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  const OpOptions& o = context.options();
  const float* lhs = context.input(0).Data<const float>();
  const float* rhs = context.input(1).Data<const float>();
  const auto [lhs_transposed, rhs_transposed] = TransposeIntoTemporaries(context, lhs, rhs);
  // A transposed copy reads as the adjoint it undoes.
  const bool adj_x = o.adj_x != lhs_transposed, adj_y = o.adj_y != rhs_transposed;
  float* out = context.output(0).Data<float>();
  const int64_t lhs_matrix = s->rows * s->depth, rhs_matrix = s->depth * s->cols;
  // Element (r, k) of lhs and (k, c) of rhs inside one matrix, after the adjoints.
  const int64_t lhs_r = adj_x ? 1 : s->depth, lhs_k = adj_x ? s->rows : 1;
  const int64_t rhs_k = adj_y ? 1 : s->cols, rhs_c = adj_y ? s->depth : 1;
  int64_t batches = 1;
  for (int32_t d : s->batch) batches *= d;
  std::vector<int32_t> index(s->batch.size(), 0);
  for (int64_t b = 0; b < batches; ++b) {
    int64_t lhs_offset = 0, rhs_offset = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      lhs_offset += index[d] * s->lhs_stride[d];
      rhs_offset += index[d] * s->rhs_stride[d];
    }
    const float* l = lhs + lhs_offset * lhs_matrix;
    const float* r = rhs + rhs_offset * rhs_matrix;
    float* result = out + b * s->rows * s->cols;
    for (int64_t row = 0; row < s->rows; ++row) {
      for (int64_t col = 0; col < s->cols; ++col) {
        float total = 0;
        for (int64_t k = 0; k < s->depth; ++k)
          total += l[row * lhs_r + k * lhs_k] * r[k * rhs_k + col * rhs_c];
        result[row * s->cols + col] = total;
      }
    }
    for (int d = static_cast<int>(index.size()) - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < s->batch[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
