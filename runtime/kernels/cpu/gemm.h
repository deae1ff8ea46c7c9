// Single-precision matrix product for the convolution and fully connected kernels, on Eigen.
//
// C[m][n] = clamp(sum_k A[m][k] * B[n][k] + bias[n]), every matrix row-major. B stays in
// TFLite's weight layout ([output channel][input]): Eigen reads it transposed in place and packs
// its panels inside the product (its gebp kernel), so no weight is transposed or copied per call
// and nothing needs to be kept between calls. The summation order is Eigen's blocked one, not
// k = 0, 1, ... (upstream's optimized kernels, Eigen or ruy, block too).
#ifndef RUNTIME_KERNELS_CPU_GEMM_H_
#define RUNTIME_KERNELS_CPU_GEMM_H_

#include <cstdint>

#include "runtime/kernels/cpu/kernel_thread_pool.h"

namespace tfa::runtime {

struct GemmShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t lda = 0;  // row strides
  int64_t ldb = 0;
  int64_t ldc = 0;
};

// `bias` may be null; the output is clamped to [out_min, out_max]. With a pool, the rows of C
// (or, for fewer rows than threads, its columns) are split over its threads.
void GemmTransposedB(const GemmShape& shape, const float* a, const float* b, const float* bias,
                     float out_min, float out_max, float* c, const KernelThreadPool* pool);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_GEMM_H_
