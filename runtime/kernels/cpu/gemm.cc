#include "runtime/kernels/cpu/gemm.h"

#include <algorithm>

namespace tfa::runtime {
namespace {

// Register block: kRows rows of A against kCols columns of B, accumulators in registers.
constexpr int64_t kRows = 4;
constexpr int64_t kCols = 16;
// Cache block along K so the B panel stays in L1/L2 while the rows of A stream by.
constexpr int64_t kDepth = 256;

void FullBlock(const GemmShape& s, const float* a, const float* b, int64_t k_begin, int64_t k_end,
               bool first, float* c) {
  float acc[kRows][kCols];
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t j = 0; j < kCols; ++j) acc[r][j] = first ? 0.0f : c[r * s.ldc + j];
  }
  for (int64_t k = k_begin; k < k_end; ++k) {
    const float* brow = b + k * s.ldb;
    for (int64_t r = 0; r < kRows; ++r) {
      const float av = a[r * s.lda + k];
      for (int64_t j = 0; j < kCols; ++j) acc[r][j] += av * brow[j];
    }
  }
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t j = 0; j < kCols; ++j) c[r * s.ldc + j] = acc[r][j];
  }
}

void EdgeBlock(const GemmShape& s, const float* a, const float* b, int64_t rows, int64_t cols,
               int64_t k_begin, int64_t k_end, bool first, float* c) {
  for (int64_t r = 0; r < rows; ++r) {
    float* crow = c + r * s.ldc;
    if (first) std::fill(crow, crow + cols, 0.0f);
    for (int64_t k = k_begin; k < k_end; ++k) {
      const float av = a[r * s.lda + k];
      const float* brow = b + k * s.ldb;
      for (int64_t j = 0; j < cols; ++j) crow[j] += av * brow[j];
    }
  }
}

}  // namespace

void Gemm(const GemmShape& s, const float* a, const float* b, const float* bias, float out_min,
          float out_max, float* c) {
  if (s.k == 0) {
    for (int64_t i = 0; i < s.m; ++i) std::fill(c + i * s.ldc, c + i * s.ldc + s.n, 0.0f);
  }
  for (int64_t k0 = 0; k0 < s.k; k0 += kDepth) {
    const int64_t k1 = std::min(s.k, k0 + kDepth);
    const bool first = k0 == 0;
    for (int64_t i = 0; i < s.m; i += kRows) {
      const int64_t rows = std::min(kRows, s.m - i);
      for (int64_t j = 0; j < s.n; j += kCols) {
        const int64_t cols = std::min(kCols, s.n - j);
        float* cblock = c + i * s.ldc + j;
        if (rows == kRows && cols == kCols) {
          FullBlock(s, a + i * s.lda, b + j, k0, k1, first, cblock);
        } else {
          EdgeBlock(s, a + i * s.lda, b + j, rows, cols, k0, k1, first, cblock);
        }
      }
    }
  }
  for (int64_t i = 0; i < s.m; ++i) {
    float* crow = c + i * s.ldc;
    for (int64_t j = 0; j < s.n; ++j) {
      const float v = crow[j] + (bias ? bias[j] : 0.0f);
      crow[j] = std::min(std::max(v, out_min), out_max);
    }
  }
}

void Transpose2D(const float* in, int64_t rows, int64_t cols, float* out) {
  constexpr int64_t kTile = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t r1 = std::min(rows, r0 + kTile);
      const int64_t c1 = std::min(cols, c0 + kTile);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = c0; c < c1; ++c) out[c * rows + r] = in[r * cols + c];
      }
    }
  }
}

}  // namespace tfa::runtime
