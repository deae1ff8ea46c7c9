#include "runtime/delegates/xnnpack/qd8_qb4w_fully_connected.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime/kernels/cpu/dequantize.h"

namespace tfa::runtime {

namespace {

int32_t Int4At(const uint8_t* packed, int64_t index) {
  const uint8_t byte = packed[index >> 1];
  const int32_t nibble = (index & 1) ? (byte >> 4) : (byte & 0xF);
  return nibble >= 8 ? nibble - 16 : nibble;
}

}  // namespace

Qd8RowQuantization Qd8QuantizationOf(float min, float max) {
  constexpr float kQMin = -128.0f, kQMax = 127.0f;
  const float rmin = std::min(0.0f, min);
  const float rmax = std::max(0.0f, max);
  const float multiplier = rmin == rmax ? 1.0f : (kQMax - kQMin) / (rmax - rmin);
  const float descaled_min = rmin * multiplier;
  const float descaled_max = rmax * multiplier;
  float zero_point = (kQMin + descaled_min) + (kQMax + descaled_max) > 0 ? kQMin - descaled_min
                                                                         : kQMax - descaled_max;
  zero_point = std::min(std::max(zero_point, kQMin), kQMax);
  return {1.0f / multiplier, static_cast<int32_t>(std::nearbyint(zero_point))};
}

float Fp16ScaleAsBf16(uint16_t half) {
  const float value = HalfToFloat(half);
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof(bits));
  bits += 0x7FFF + ((bits >> 16) & 1);
  bits &= 0xFFFF0000u;
  float rounded = 0;
  std::memcpy(&rounded, &bits, sizeof(rounded));
  return rounded;
}

bool IsBlockwiseInt4FullyConnected(const Node& node, const std::vector<RuntimeTensor>& tensors) {
  if (node.op != "FULLY_CONNECTED" || node.inputs.size() < 2 || node.inputs[1] < 0) return false;
  const RuntimeTensor& filter = tensors[static_cast<size_t>(node.inputs[1])];
  return filter.type == TensorType::kInt4 && filter.quantization && filter.quantization->blockwise;
}

Result<std::unique_ptr<Qd8Qb4wFullyConnected>> Qd8Qb4wFullyConnected::Create(
    const Node& node, const std::vector<RuntimeTensor>& tensors) {
  if (!IsBlockwiseInt4FullyConnected(node, tensors) || node.outputs.size() != 1)
    return Status::Error("not a FULLY_CONNECTED with blockwise INT4 weights");
  const RuntimeTensor& input = tensors[static_cast<size_t>(node.inputs[0])];
  const RuntimeTensor& filter = tensors[static_cast<size_t>(node.inputs[1])];
  const RuntimeTensor& output = tensors[static_cast<size_t>(node.outputs[0])];
  const Quantization& q = *filter.quantization;
  if (input.type != TensorType::kFloat32 || output.type != TensorType::kFloat32)
    return Status::Error("blockwise INT4 weights need float32 input and output");
  if (!filter.is_constant || !filter.data || filter.Rank() != 2)
    return Status::Error("the blockwise INT4 filter is not a static 2-D tensor");
  if (q.quantized_dimension != 0)
    return Status::Error("blockwise quantization along another dimension than the outputs");
  if (q.block_zero_points >= 0) return Status::Error("blockwise zero points are not all zero");
  if (q.block_scales < 0 || static_cast<size_t>(q.block_scales) >= tensors.size())
    return Status::Error("no blockwise scale tensor");
  const RuntimeTensor& scales = tensors[static_cast<size_t>(q.block_scales)];
  // Upstream's checks: fp16 scales, a block size that is a multiple of 32, the filter's
  // elements exactly the scales' count times the block size (xnnpack_delegate.cc).
  if (scales.type != TensorType::kFloat16 || !scales.is_constant || !scales.data)
    return Status::Error("the block scales are not static fp16");
  if (q.block_size <= 0 || q.block_size % 32 != 0)
    return Status::Error("block size " + std::to_string(q.block_size) + " is not a multiple of 32");
  std::unique_ptr<Qd8Qb4wFullyConnected> kernel(new Qd8Qb4wFullyConnected());
  kernel->output_channels_ = filter.Dim(0);
  kernel->input_channels_ = filter.Dim(1);
  kernel->block_size_ = q.block_size;
  const int64_t blocks = kernel->input_channels_ / q.block_size;
  if (kernel->input_channels_ % q.block_size != 0 ||
      scales.NumElements() != kernel->output_channels_ * blocks ||
      filter.bytes < static_cast<uint64_t>((filter.NumElements() + 1) / 2)) {
    return Status::Error("the block scales do not cover the filter");
  }
  if (input.NumElements() % kernel->input_channels_ != 0)
    return Status::Error("input size is not a multiple of the filter's input channels");
  kernel->weights_ = filter.data;
  const auto* halves = reinterpret_cast<const uint16_t*>(scales.data);
  kernel->block_scales_.resize(static_cast<size_t>(kernel->output_channels_ * blocks));
  kernel->ksum_.assign(static_cast<size_t>(kernel->output_channels_), 0.0f);
  for (int64_t n = 0; n < kernel->output_channels_; ++n) {
    for (int64_t b = 0; b < blocks; ++b) {
      const auto at = static_cast<size_t>(n * blocks + b);
      kernel->block_scales_[at] = Fp16ScaleAsBf16(halves[at]);
      int32_t block_sum = 0;
      for (int64_t k = b * q.block_size; k < (b + 1) * q.block_size; ++k)
        block_sum += Int4At(filter.data, n * kernel->input_channels_ + k);
      kernel->ksum_[static_cast<size_t>(n)] -=
          static_cast<float>(block_sum) * kernel->block_scales_[at];
    }
  }
  kernel->bias_.assign(static_cast<size_t>(kernel->output_channels_), 0.0f);
  if (node.inputs.size() > 2 && node.inputs[2] >= 0) {
    const RuntimeTensor& bias = tensors[static_cast<size_t>(node.inputs[2])];
    if (bias.type != TensorType::kFloat32 || !bias.is_constant || !bias.data ||
        bias.NumElements() != kernel->output_channels_)
      return Status::Error("the bias is not a static float32 tensor per output channel");
    std::memcpy(kernel->bias_.data(), bias.data, kernel->bias_.size() * sizeof(float));
  }
  kernel->min_ = -std::numeric_limits<float>::infinity();
  kernel->max_ = std::numeric_limits<float>::infinity();
  switch (node.options->fused_activation) {
    case Activation::kNone:
      break;
    case Activation::kRelu:
      kernel->min_ = 0.0f;
      break;
    case Activation::kReluN1To1:
      kernel->min_ = -1.0f;
      kernel->max_ = 1.0f;
      break;
    case Activation::kRelu6:
      kernel->min_ = 0.0f;
      kernel->max_ = 6.0f;
      break;
    default:
      return Status::Error(std::string("fused activation ") +
                           ActivationName(node.options->fused_activation) +
                           " has no output range in XNNPACK");
  }
  if (output.NumElements() !=
      input.NumElements() / kernel->input_channels_ * kernel->output_channels_)
    return Status::Error("the output does not hold one row per input row");
  return kernel;
}

Status Qd8Qb4wFullyConnected::Prepare(KernelContext& context) {
  if (context.inputs.empty() || !context.inputs[0] || context.outputs.size() != 1 ||
      !context.outputs[0])
    return Status::Error("FULLY_CONNECTED: an absent tensor");
  return Status::Ok();
}

Status Qd8Qb4wFullyConnected::Eval(KernelContext& context) {
  const RuntimeTensor& input = context.input(0);
  RuntimeTensor& output = context.output(0);
  if (!input.data || !output.data) return Status::Error("FULLY_CONNECTED: a tensor has no buffer");
  Run(input.Data<const float>(), input.NumElements() / input_channels_, output.Data<float>());
  return Status::Ok();
}

void Qd8Qb4wFullyConnected::Run(const float* input, int64_t rows, float* output) const {
  const int64_t blocks = input_channels_ / block_size_;
  std::vector<int8_t> quantized(static_cast<size_t>(input_channels_));
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = input + r * input_channels_;
    const auto [lo, hi] = std::minmax_element(x, x + input_channels_);
    const Qd8RowQuantization row = Qd8QuantizationOf(*lo, *hi);
    // f32-qs8-vcvt, initialised with the reciprocal of the row's scale.
    const float multiplier = 1.0f / row.scale;
    const auto low = static_cast<float>(-128 - row.zero_point);
    const auto high = static_cast<float>(127 - row.zero_point);
    for (int64_t k = 0; k < input_channels_; ++k) {
      const float scaled = std::min(std::max(x[k] * multiplier, low), high);
      quantized[static_cast<size_t>(k)] =
          static_cast<int8_t>(static_cast<int32_t>(std::nearbyint(scaled)) + row.zero_point);
    }
    float* y = output + r * output_channels_;
    for (int64_t n = 0; n < output_channels_; ++n) {
      float out = ksum_[static_cast<size_t>(n)] * static_cast<float>(row.zero_point);
      const int64_t row_start = n * input_channels_;
      for (int64_t b = 0; b < blocks; ++b) {
        int32_t acc = 0;
        for (int64_t k = b * block_size_; k < (b + 1) * block_size_; ++k)
          acc += quantized[static_cast<size_t>(k)] * Int4At(weights_, row_start + k);
        out += static_cast<float>(acc) * block_scales_[static_cast<size_t>(n * blocks + b)];
      }
      out = out * row.scale + bias_[static_cast<size_t>(n)];
      y[n] = std::min(std::max(out, min_), max_);
    }
  }
}

}  // namespace tfa::runtime
