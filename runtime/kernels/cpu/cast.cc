#include "runtime/kernels/cpu/cast.h"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

bool IsCastable(TensorType type) {
  switch (type) {
    case TensorType::kFloat32:
    case TensorType::kInt32:
    case TensorType::kInt64:
    case TensorType::kInt16:
    case TensorType::kInt8:
    case TensorType::kUInt8:
    case TensorType::kBool:
      return true;
    default:
      return false;
  }
}

// float to an integer type: truncation, or x86's "integer indefinite" (lowest value of the
// 32- or 64-bit conversion) where the value does not fit.
template <typename To>
To FloatToInteger(float x) {
  using Wide = std::conditional_t<sizeof(To) == 8, int64_t, int32_t>;
  constexpr float kLimit = sizeof(To) == 8 ? 9223372036854775808.0f : 2147483648.0f;
  if (!(x >= -kLimit && x < kLimit)) {
    return static_cast<To>(std::numeric_limits<Wide>::lowest());
  }
  return static_cast<To>(static_cast<Wide>(x));
}

template <typename To, typename From>
To Convert(From x) {
  if constexpr (std::is_same_v<To, bool>) {
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
    case TensorType::kFloat32: return CastAll<float, From>(in, out);
    case TensorType::kInt32: return CastAll<int32_t, From>(in, out);
    case TensorType::kInt64: return CastAll<int64_t, From>(in, out);
    case TensorType::kInt16: return CastAll<int16_t, From>(in, out);
    case TensorType::kInt8: return CastAll<int8_t, From>(in, out);
    case TensorType::kUInt8: return CastAll<uint8_t, From>(in, out);
    case TensorType::kBool: return CastAll<bool, From>(in, out);
    default: return;
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
    case TensorType::kFloat32: CastFrom<float>(in, out); break;
    case TensorType::kInt32: CastFrom<int32_t>(in, out); break;
    case TensorType::kInt64: CastFrom<int64_t>(in, out); break;
    case TensorType::kInt16: CastFrom<int16_t>(in, out); break;
    case TensorType::kInt8: CastFrom<int8_t>(in, out); break;
    case TensorType::kUInt8: CastFrom<uint8_t>(in, out); break;
    case TensorType::kBool: CastFrom<bool>(in, out); break;
    default: break;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
