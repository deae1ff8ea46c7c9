// The packing blocks Eigen allocates for one float GEMM, which upstream's CPU kernels run outside
// the arena: on x86 without ruy, cpu_backend_gemm sends float GEMMs to Eigen
// (tflite/kernels/cpu_backend_gemm_x86.h, cpu_backend_gemm_eigen.cc), and Eigen's
// general_matrix_matrix_product packs a kc x mc block of the lhs and a kc x nc block of the rhs,
// on the stack under 128 KiB, on the heap above. Either way the pages stay resident after the
// call, so the process holds the largest pair of blocks any GEMM of the model needs.
//
// The block sizes follow Eigen 3.4's single-threaded heuristic
// (Eigen/src/Core/products/GeneralBlockPanelKernel.h, evaluateProductBlockingSizesHeuristic): kc
// from the L1 data cache, nc from a fixed 1.5 MB "L2", mc only when neither k nor n is blocked.
// The register block (mr x nr) is that of a baseline x86-64 build (SSE2, no FMA): 8 x 4 floats.
//
// Matrix-vector products (n == 1 or m == 1) take Eigen's GEMV path, which packs nothing.
#ifndef LIBANALYSIS_REPORT_EIGEN_GEMM_BLOCKS_H_
#define LIBANALYSIS_REPORT_EIGEN_GEMM_BLOCKS_H_

#include <cstdint>

#include "libanalysis/model/graph.h"

namespace tfa {

// L1 data cache of the x86-64 machine type upstream's RSS table was measured on, as Eigen reads it
// through CPUID (48 KiB).
inline constexpr uint64_t kEigenL1Bytes = 49152;

struct EigenGemmBlocking {
  uint64_t kc = 0, mc = 0, nc = 0;

  // The lhs and rhs blocks, float32.
  uint64_t bytes() const { return (kc * mc + kc * nc) * 4; }
};

// dst (m x n) = lhs (m x k) * rhs (k x n): the blocks Eigen packs into; {0, 0, 0} for a GEMV.
EigenGemmBlocking EigenFloatGemmBlocking(uint64_t k, uint64_t m, uint64_t n,
                                         uint64_t l1_bytes = kEigenL1Bytes);

struct EigenGemmPeak {
  uint64_t bytes = 0;  // the largest blocks of one GEMM
  int32_t node = -1;   // the node that needs them, -1 when none does
  uint64_t k = 0, m = 0, n = 0;
};

// The largest blocks over the float CONV_2D (im2col GEMM: m = output channels, k = filter height x
// width x input channels, n = output pixels) and FULLY_CONNECTED (m = units, k = input depth,
// n = batches) nodes of `graph`'s execution plan, which run on the CPU kernels. Nodes with
// quantized inputs or weights run on ruy or gemmlowp and are not counted.
EigenGemmPeak EigenGemmBlockPeak(const Subgraph& graph);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_EIGEN_GEMM_BLOCKS_H_
