#include "runtime/kernels/cpu/dequantize.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// Scale and zero point of element `i`, per tensor or per channel.
struct QuantParams {
  const Quantization* q;
  int64_t channel_stride = 1;  // elements between consecutive channels
  int64_t channels = 1;

  float Dequantize(int64_t i, int32_t value) const {
    const size_t c = q->scale.size() > 1 ? static_cast<size_t>((i / channel_stride) % channels) : 0;
    const int64_t zero_point =
        q->zero_point.empty() ? 0 : q->zero_point[std::min(c, q->zero_point.size() - 1)];
    return static_cast<float>(value - zero_point) * q->scale[c];
  }
};

Result<QuantParams> Params(const RuntimeTensor& in) {
  if (!in.quantization || in.quantization->scale.empty())
    return Status::Error("input has no quantization scale");
  QuantParams p{in.quantization};
  if (in.quantization->scale.size() > 1) {
    const int dim = in.quantization->quantized_dimension;
    if (dim < 0 || dim >= in.Rank() ||
        in.Dim(dim) != static_cast<int32_t>(in.quantization->scale.size())) {
      return Status::Error("per-channel scales do not match quantized dimension " +
                           std::to_string(dim));
    }
    p.channels = in.Dim(dim);
    for (int d = dim + 1; d < in.Rank(); ++d) p.channel_stride *= in.Dim(d);
  }
  return p;
}

template <typename T>
void DequantizeAll(const RuntimeTensor& in, const QuantParams& p, float* out) {
  const T* x = in.Data<const T>();
  const int64_t n = in.NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = p.Dequantize(i, x[i]);
}

// Packed int4, uint4 and int2 (tensor_utils::UnpackPackedIntToInt8): element i sits in bits
// (i % per_byte) * width of byte i / per_byte, lowest first; signed types sign-extend.
void DequantizePacked(const RuntimeTensor& in, const QuantParams& p, float* out) {
  const int width = in.type == TensorType::kInt2 ? 2 : 4;
  const int per_byte = 8 / width;
  const bool is_signed = in.type != TensorType::kUInt4;
  const uint32_t mask = (1u << width) - 1;
  const int64_t n = in.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t bits = (in.data[i / per_byte] >> ((i % per_byte) * width)) & mask;
    const int32_t value = is_signed && (bits >> (width - 1)) != 0
                              ? static_cast<int32_t>(bits) - (1 << width)
                              : static_cast<int32_t>(bits);
    out[i] = p.Dequantize(i, value);
  }
}

}  // namespace

float HalfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);  // infinity or NaN
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);  // rebias 15 -> 127
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalise the mantissa into a float exponent.
    int32_t e = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    bits = sign | (static_cast<uint32_t>(e) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

Status PrepareDequantize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), in.shape));
  switch (in.type) {
    case TensorType::kFloat16:
      return Status::Ok();
    case TensorType::kInt8:
    case TensorType::kUInt8:
    case TensorType::kInt16:
    case TensorType::kInt4:
    case TensorType::kUInt4:
    case TensorType::kInt2:
      return Params(in).status();
    default:
      break;
  }
  return Status::Error(std::string("cannot dequantize ") + TensorTypeName(in.type));
}

Status EvalDequantize(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareDequantize(context));
  const RuntimeTensor& in = context.input(0);
  float* out = context.output(0).Data<float>();
  if (in.type == TensorType::kFloat16) {
    const uint16_t* x = in.Data<const uint16_t>();
    const int64_t n = in.NumElements();
    for (int64_t i = 0; i < n; ++i) out[i] = HalfToFloat(x[i]);
    return Status::Ok();
  }
  auto p = Params(in);
  if (!p.ok()) return p.status();
  if (in.type == TensorType::kInt8) DequantizeAll<int8_t>(in, *p, out);
  if (in.type == TensorType::kUInt8) DequantizeAll<uint8_t>(in, *p, out);
  if (in.type == TensorType::kInt16) DequantizeAll<int16_t>(in, *p, out);
  if (in.type == TensorType::kInt4 || in.type == TensorType::kUInt4 ||
      in.type == TensorType::kInt2) {
    DequantizePacked(in, *p, out);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
