// FULLY_CONNECTED with float32 activations and blockwise INT4 weights (fp16 scales, one per
// block of input channels) as upstream's XNNPACK delegate runs it: XNNPACK's qd8-f32-qb4w path,
// which Debian's 2022 library lacks, computed here with the same arithmetic.
//   - Each row of the input is quantized to int8 on the fly (xnn_f32_qd8_asymmetric_
//     quantization_params: a zero point nudged to an integer, 255 steps over [min(0, row min),
//     max(0, row max)]; then f32-qs8-vcvt with the reciprocal of the row's scale).
//   - Per output channel and block, an int32 sum of int8 x int4 products, scaled by the block's
//     scale as XNNPACK packs it: bfloat16 (the packing converts the fp16 scales).
//   - The zero point's share comes from the weights' block sums packed at creation (ksum), then
//     the row's scale, the bias and the activation range (qd8-f32-qb4w-gemm microkernels).
#ifndef RUNTIME_DELEGATES_XNNPACK_QD8_QB4W_FULLY_CONNECTED_H_
#define RUNTIME_DELEGATES_XNNPACK_QD8_QB4W_FULLY_CONNECTED_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/delegate.h"

namespace tfa::runtime {

// A row's dynamic quantization (XNNPACK's struct xnn_qd8_quantization_params).
struct Qd8RowQuantization {
  float scale = 1.0f;  // dequantizes: real = scale * (q - zero_point)
  int32_t zero_point = 0;
};
Qd8RowQuantization Qd8QuantizationOf(float min, float max);

// The fp16 scale as XNNPACK's packing stores it: bfloat16, rounded to nearest even.
float Fp16ScaleAsBf16(uint16_t half);

// Whether the node is a FULLY_CONNECTED with a blockwise-quantized INT4 filter (this path's node).
bool IsBlockwiseInt4FullyConnected(const Node& node, const std::vector<RuntimeTensor>& tensors);

class Qd8Qb4wFullyConnected : public DelegateKernel {
 public:
  // Node inputs [input, filter, bias?], output [output]; the filter, its scales and the bias are
  // constants of `tensors`. Errors say which of upstream's conditions fails.
  [[nodiscard]] static Result<std::unique_ptr<Qd8Qb4wFullyConnected>> Create(
      const Node& node, const std::vector<RuntimeTensor>& tensors);

  // `context` holds the node's inputs and outputs in the node's order.
  Status Prepare(KernelContext& context) override;
  Status Eval(KernelContext& context) override;

  // `rows` x `input_channels` floats in, `rows` x output channels out.
  void Run(const float* input, int64_t rows, float* output) const;

 private:
  Qd8Qb4wFullyConnected() = default;

  int64_t input_channels_ = 0, output_channels_ = 0, block_size_ = 0;
  const uint8_t* weights_ = nullptr;  // two int4 per byte, low nibble first, [out][in]
  std::vector<float> block_scales_;   // [out][block], as bfloat16 values
  std::vector<float> ksum_;           // per output channel: -sum of block sums x block scales
  std::vector<float> bias_;
  float min_ = 0, max_ = 0;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_XNNPACK_QD8_QB4W_FULLY_CONNECTED_H_
