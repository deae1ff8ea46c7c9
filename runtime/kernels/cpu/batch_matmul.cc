#include "runtime/kernels/cpu/batch_matmul.h"

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

}  // namespace

Status PrepareBatchMatMul(KernelContext& context) { return Shape(context).status(); }

Status EvalBatchMatMul(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  const OpOptions& o = context.options();
  const float* lhs = context.input(0).Data<const float>();
  const float* rhs = context.input(1).Data<const float>();
  float* out = context.output(0).Data<float>();
  const int64_t lhs_matrix = s->rows * s->depth, rhs_matrix = s->depth * s->cols;
  // Element (r, k) of lhs and (k, c) of rhs inside one matrix, after the adjoints.
  const int64_t lhs_r = o.adj_x ? 1 : s->depth, lhs_k = o.adj_x ? s->rows : 1;
  const int64_t rhs_k = o.adj_y ? 1 : s->cols, rhs_c = o.adj_y ? s->depth : 1;
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
