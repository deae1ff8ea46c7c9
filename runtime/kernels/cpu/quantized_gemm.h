// Integer matrix product of the quantized CONV_2D and FULLY_CONNECTED kernels, on gemmlowp
// (Debian's libgemmlowp-dev, the fixed-point GEMM upstream's optimized uint8 kernels are built on).
//
// acc[m][n] = sum_k (a[m][k] + a_offset) * (b[n][k] + b_offset), every matrix row-major: `a` holds
// the activations (one row per output pixel or batch row), `b` the weights in TFLite's layout
// ([output channel][input]), `acc` the raw int32 accumulators. The sums are exact in int32
// (wrapping alike in both twins), so whichever order the library adds in, the accumulators, and the
// requantised outputs the kernels make of them, are bit-exact to upstream's reference kernels.
// Operands are uint8 because gemmlowp's exact (8-bit by 8-bit) path takes uint8 only; int8 data is
// moved there by ShiftInt8ToUint8 and the shift folded into the offsets.
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_GEMM_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_GEMM_H_

#include <cstdint>

namespace tfa::runtime {

// Below this many rows of `a` a matrix-vector loop beats gemmlowp (20x at one row).
inline constexpr int64_t kMinQuantizedGemmRows = 4;

struct QuantizedGemmShape {
  int64_t m = 0;  // rows of a and acc
  int64_t n = 0;  // rows of b, columns of acc
  int64_t k = 0;  // the depth summed over; a's and b's row length
};

// The fast product, on gemmlowp. Its packing makes a product of one or a few rows (a
// FULLY_CONNECTED at batch 1) slower than a plain vectorised dot product: callers keep such
// products on their own loop (kMinQuantizedGemmRows).
void QuantizedGemm(const QuantizedGemmShape& shape, const uint8_t* a, int32_t a_offset,
                   const uint8_t* b, int32_t b_offset, int32_t* acc);

// The plain twin: the triple loop of the definition, for the property test.
void QuantizedGemmReference(const QuantizedGemmShape& shape, const uint8_t* a, int32_t a_offset,
                            const uint8_t* b, int32_t b_offset, int32_t* acc);

// out[i] = in[i] + 128 as uint8: int8 x becomes uint8 x + 128, so an int8 zero point zp becomes an
// offset of -(zp + 128).
void ShiftInt8ToUint8(const int8_t* in, int64_t count, uint8_t* out);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_GEMM_H_
