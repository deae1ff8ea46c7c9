#include "runtime/kernels/cpu/cast.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "runtime/kernels/cpu/dequantize.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

bool IsCastable(TensorType type) {
  switch (type) {
    case TensorType::kFloat32:
    case TensorType::kFloat16:
    case TensorType::kFloat64:
    case TensorType::kInt32:
    case TensorType::kUInt32:
    case TensorType::kInt64:
    case TensorType::kInt16:
    case TensorType::kUInt16:
    case TensorType::kInt8:
    case TensorType::kUInt8:
    case TensorType::kBool:
      return true;
    default:
      return false;
  }
}

// A float16 element, stored as its bits; cast.cc converts through float.
struct Half {
  uint16_t bits;
};

// IEEE binary16 nearest to `f`, ties to even (FP16's fp16_ieee_from_fp32_value, which cast.cc
// uses): overflow gives infinity, NaN a quiet NaN.
uint16_t FloatToHalf(float f) {
  uint32_t w;
  std::memcpy(&w, &f, sizeof(w));
  const uint32_t doubled = w + w;
  const uint32_t sign = w & 0x80000000u;
  if (doubled > 0xff000000u) return static_cast<uint16_t>((sign >> 16) | 0x7e00u);
  // Scaling up by 2^112 then down by 2^-110 rounds to half precision in float arithmetic.
  float base = (std::fabs(f) * 0x1.0p+112f) * 0x1.0p-110f;
  uint32_t bias = doubled & 0xff000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  const uint32_t bias_bits = (bias >> 1) + 0x07800000u;
  float bias_float;
  std::memcpy(&bias_float, &bias_bits, sizeof(bias_float));
  base = bias_float + base;
  uint32_t bits;
  std::memcpy(&bits, &base, sizeof(bits));
  const uint32_t exponent_bits = (bits >> 13) & 0x00007c00u;
  const uint32_t mantissa_bits = bits & 0x00000fffu;
  return static_cast<uint16_t>((sign >> 16) | (exponent_bits + mantissa_bits));
}

// float or double to an integer type: truncation, or x86's "integer indefinite" (lowest value of
// the 32- or 64-bit conversion) where the value does not fit.
template <typename To, typename From>
To FloatToInteger(From x) {
  using Wide = std::conditional_t<sizeof(To) == 8, int64_t, int32_t>;
  constexpr From kLimit = sizeof(To) == 8 ? From{9223372036854775808.0} : From{2147483648.0};
  if (!(x >= -kLimit && x < kLimit)) {
    return static_cast<To>(std::numeric_limits<Wide>::lowest());
  }
  return static_cast<To>(static_cast<Wide>(x));
}

template <typename To, typename From>
To Convert(From x) {
  if constexpr (std::is_same_v<From, Half>) {
    return Convert<To>(HalfToFloat(x.bits));
  } else if constexpr (std::is_same_v<To, Half>) {
    if constexpr (std::is_same_v<From, bool>) return Half{FloatToHalf(x ? 1.0f : 0.0f)};
    return Half{FloatToHalf(static_cast<float>(x))};
  } else if constexpr (std::is_same_v<To, bool>) {
    return x != From{0};
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return FloatToInteger<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

template <typename To, typename From>
void CastAll(const RuntimeTensor& in, RuntimeTensor& out) {
  const From* x = in.Data<const From>();
  To* y = out.Data<To>();
  const int64_t n = in.NumElements();
  for (int64_t i = 0; i < n; ++i) y[i] = Convert<To>(x[i]);
}

template <typename From>
void CastFrom(const RuntimeTensor& in, RuntimeTensor& out) {
  switch (out.type) {
    case TensorType::kFloat32:
      return CastAll<float, From>(in, out);
    case TensorType::kFloat16:
      return CastAll<Half, From>(in, out);
    case TensorType::kFloat64:
      return CastAll<double, From>(in, out);
    case TensorType::kInt32:
      return CastAll<int32_t, From>(in, out);
    case TensorType::kUInt32:
      return CastAll<uint32_t, From>(in, out);
    case TensorType::kUInt16:
      return CastAll<uint16_t, From>(in, out);
    case TensorType::kInt64:
      return CastAll<int64_t, From>(in, out);
    case TensorType::kInt16:
      return CastAll<int16_t, From>(in, out);
    case TensorType::kInt8:
      return CastAll<int8_t, From>(in, out);
    case TensorType::kUInt8:
      return CastAll<uint8_t, From>(in, out);
    case TensorType::kBool:
      return CastAll<bool, From>(in, out);
    default:
      return;
  }
}

}  // namespace

Status PrepareCast(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, in.shape));
  if (!IsCastable(in.type) || !IsCastable(out.type)) {
    return Status::Error(std::string("cannot cast ") + TensorTypeName(in.type) + " to " +
                         TensorTypeName(out.type));
  }
  return Status::Ok();
}

Status EvalCast(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareCast(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  switch (in.type) {
    case TensorType::kFloat32:
      CastFrom<float>(in, out);
      break;
    case TensorType::kFloat16:
      CastFrom<Half>(in, out);
      break;
    case TensorType::kFloat64:
      CastFrom<double>(in, out);
      break;
    case TensorType::kInt32:
      CastFrom<int32_t>(in, out);
      break;
    case TensorType::kUInt32:
      CastFrom<uint32_t>(in, out);
      break;
    case TensorType::kUInt16:
      CastFrom<uint16_t>(in, out);
      break;
    case TensorType::kInt64:
      CastFrom<int64_t>(in, out);
      break;
    case TensorType::kInt16:
      CastFrom<int16_t>(in, out);
      break;
    case TensorType::kInt8:
      CastFrom<int8_t>(in, out);
      break;
    case TensorType::kUInt8:
      CastFrom<uint8_t>(in, out);
      break;
    case TensorType::kBool:
      CastFrom<bool>(in, out);
      break;
    default:
      break;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
