#include "runtime/kernels/cpu/gemm.h"

#include <Eigen/Core>
#include <algorithm>

namespace tfa::runtime {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrix = Eigen::Map<const RowMajor, Eigen::Unaligned, Eigen::OuterStride<>>;
using Matrix = Eigen::Map<RowMajor, Eigen::Unaligned, Eigen::OuterStride<>>;

// Rows [row_begin, row_end) and columns [col_begin, col_end) of C.
void GemmBlock(const GemmShape& s, const float* a, const float* b, const float* bias, float out_min,
               float out_max, float* c, int64_t row_begin, int64_t row_end, int64_t col_begin,
               int64_t col_end) {
  const int64_t rows = row_end - row_begin;
  const int64_t cols = col_end - col_begin;
  if (rows <= 0 || cols <= 0) return;
  Matrix out(c + row_begin * s.ldc + col_begin, rows, cols, Eigen::OuterStride<>(s.ldc));
  if (s.k == 0) {
    out.setZero();
  } else {
    const ConstMatrix lhs(a + row_begin * s.lda, rows, s.k, Eigen::OuterStride<>(s.lda));
    const ConstMatrix rhs(b + col_begin * s.ldb, cols, s.k, Eigen::OuterStride<>(s.ldb));
    out.noalias() = lhs * rhs.transpose();
  }
  for (int64_t i = 0; i < rows; ++i) {
    float* row = out.row(i).data();
    for (int64_t j = 0; j < cols; ++j) {
      const float v = row[j] + (bias ? bias[col_begin + j] : 0.0f);
      row[j] = std::min(std::max(v, out_min), out_max);
    }
  }
}

}  // namespace

void GemmTransposedB(const GemmShape& s, const float* a, const float* b, const float* bias,
                     float out_min, float out_max, float* c, const KernelThreadPool* pool) {
  // Below this many multiply-adds per part a thread costs more than it saves.
  constexpr int64_t kMinPartWork = 1 << 15;
  const int64_t row_work = std::max<int64_t>(1, s.n * s.k);
  if (s.m >= ThreadCount(pool) || s.m * row_work < kMinPartWork) {
    ParallelFor(pool, s.m, std::max<int64_t>(1, kMinPartWork / row_work),
                [&](int, int64_t begin, int64_t end) {
                  GemmBlock(s, a, b, bias, out_min, out_max, c, begin, end, 0, s.n);
                });
    return;
  }
  const int64_t col_work = std::max<int64_t>(1, s.m * s.k);
  ParallelFor(pool, s.n, std::max<int64_t>(1, kMinPartWork / col_work),
              [&](int, int64_t begin, int64_t end) {
                GemmBlock(s, a, b, bias, out_min, out_max, c, 0, s.m, begin, end);
              });
}

}  // namespace tfa::runtime
