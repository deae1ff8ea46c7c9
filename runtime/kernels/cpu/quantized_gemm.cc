#include "runtime/kernels/cpu/quantized_gemm.h"

#include <gemmlowp/public/gemmlowp.h>

#include <tuple>

namespace tfa::runtime {

void QuantizedGemm(const QuantizedGemmShape& s, const uint8_t* a, int32_t a_offset,
                   const uint8_t* b, int32_t b_offset, int32_t* acc) {
  if (s.m <= 0 || s.n <= 0) return;
  if (s.k == 0) {
    QuantizedGemmReference(s, a, a_offset, b, b_offset, acc);
    return;
  }
  // gemmlowp's orientation as upstream's optimized kernels call it: the weights are the left-hand
  // side (rows = output channels), the activations the right-hand side (a column per output
  // pixel), so the column-major result is our row-major [pixel][channel].
  using gemmlowp::MapOrder;
  const gemmlowp::MatrixMap<const uint8_t, MapOrder::RowMajor> lhs(
      b, static_cast<int>(s.n), static_cast<int>(s.k), static_cast<int>(s.k));
  const gemmlowp::MatrixMap<const uint8_t, MapOrder::ColMajor> rhs(
      a, static_cast<int>(s.k), static_cast<int>(s.m), static_cast<int>(s.k));
  gemmlowp::MatrixMap<int32_t, MapOrder::ColMajor> result(
      acc, static_cast<int>(s.n), static_cast<int>(s.m), static_cast<int>(s.n));
  // One thread: the kernels split their rows over the runtime's own pool. The context holds only
  // packing buffers, so one per call keeps the kernels stateless.
  gemmlowp::GemmContext context;
  // An empty output pipeline leaves the raw int32 accumulators: the kernels requantise them with
  // the code the reference kernels use.
  gemmlowp::GemmWithOutputPipeline<uint8_t, int32_t, gemmlowp::DefaultL8R8BitDepthParams>(
      &context, lhs, rhs, &result, b_offset, a_offset, std::make_tuple());
}

void QuantizedGemmReference(const QuantizedGemmShape& s, const uint8_t* a, int32_t a_offset,
                            const uint8_t* b, int32_t b_offset, int32_t* acc) {
  for (int64_t m = 0; m < s.m; ++m) {
    for (int64_t n = 0; n < s.n; ++n) {
      uint32_t sum = 0;
      for (int64_t k = 0; k < s.k; ++k) {
        sum += static_cast<uint32_t>(int32_t{a[m * s.k + k]} + a_offset) *
               static_cast<uint32_t>(int32_t{b[n * s.k + k]} + b_offset);
      }
      acc[m * s.n + n] = static_cast<int32_t>(sum);
    }
  }
}

void ShiftInt8ToUint8(const int8_t* in, int64_t count, uint8_t* out) {
  // Adding 128 to a two's complement byte flips its top bit.
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<uint8_t>(in[i]) ^ 0x80u;
}

}  // namespace tfa::runtime
