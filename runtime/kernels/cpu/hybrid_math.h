// The arithmetic of upstream's "hybrid" kernels (float activations, int8 weights): each batch row
// of the float input is quantized to int8 on the fly, multiplied with the int8 weights in int32,
// and the sums are rescaled to float (tflite/kernels/internal/reference/portable_tensor_utils.cc:
// SymmetricQuantizeFloats, AsymmetricQuantizeFloats, MatrixBatchVectorMultiplyAccumulate).
#ifndef RUNTIME_KERNELS_CPU_HYBRID_MATH_H_
#define RUNTIME_KERNELS_CPU_HYBRID_MATH_H_

#include <cstdint>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

// One quantized batch row: values[i] ~= scale * (quantized[i] - offset).
struct QuantizedRow {
  float scale = 1.0f;
  int32_t offset = 0;  // 0 for symmetric quantization
};

// Symmetric: scale = max|x| / 127, values rounded to [-127, 127]; an all-zero row gets scale 1.
QuantizedRow SymmetricQuantizeFloats(const float* values, int64_t size, int8_t* quantized);
// Asymmetric over [min(0, min x), max(0, max x)] onto [-128, 127], the zero point nudged as
// upstream does (in double).
QuantizedRow AsymmetricQuantizeFloats(const float* values, int64_t size, int8_t* quantized);

// The int8 weights of a hybrid kernel: their data and scale, one per tensor or one per row.
struct HybridWeights {
  const int8_t* data = nullptr;
  int64_t rows = 0, cols = 0;
  std::vector<float> row_scales;  // per-channel scales, or empty
  float scale = 1.0f;             // per-tensor scale
};
[[nodiscard]] Result<HybridWeights> ReadHybridWeights(const RuntimeTensor& weights,
                                                      const char* role);

// result[b][r] += dot(weights[r], x_b) * scale_b (* row scale), for `batches` rows of `input`
// each quantized first, symmetric or asymmetric; `quantized` holds batches * cols bytes.
void HybridMatrixBatchVectorMultiplyAccumulate(const HybridWeights& weights, const float* input,
                                               int64_t batches, bool asymmetric, int8_t* quantized,
                                               float* result);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_HYBRID_MATH_H_
