// Blocked single-precision matrix product used by the convolution and fully connected kernels.
//
// C[m][n] = clamp(sum_k A[m][k] * B[k][n] + bias[n]) with every matrix row-major. B is taken
// K x N (weights transposed once per call by the caller) so that the inner loop runs over
// contiguous columns and vectorises without reassociating sums: each C element is accumulated
// in the order k = 0, 1, ..., like a reference kernel.
#ifndef RUNTIME_KERNELS_CPU_GEMM_H_
#define RUNTIME_KERNELS_CPU_GEMM_H_

#include <cstdint>

namespace tfa::runtime {

struct GemmShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t lda = 0;  // row strides
  int64_t ldb = 0;
  int64_t ldc = 0;
};

// `bias` may be null. Output is clamped to [out_min, out_max].
void Gemm(const GemmShape& shape, const float* a, const float* b, const float* bias, float out_min,
          float out_max, float* c);

// Writes the transpose of the rows x cols row-major `in` to `out` (cols x rows).
void Transpose2D(const float* in, int64_t rows, int64_t cols, float* out);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_GEMM_H_
