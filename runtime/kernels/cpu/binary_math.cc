#include "runtime/kernels/cpu/binary_math.h"

#include <array>
#include <cmath>
#include <span>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kFloorDivTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt16,
                                       TensorType::kInt8};
constexpr std::array kFloorModTypes = {TensorType::kFloat32, TensorType::kInt64, TensorType::kInt32,
                                       TensorType::kInt16, TensorType::kInt8};
constexpr std::array kPowTypes = {TensorType::kFloat32, TensorType::kInt32};

// Two inputs of one type among `types`, the output of that type and the broadcast shape.
Status PrepareSameTypeBinary(const KernelContext& context, std::span<const TensorType> types) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(a, types, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), a.type, "second input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), a.type, "output"));
  auto shape = BroadcastShape(a.shape, context.input(1).shape);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

template <typename T, typename F>
void MapBroadcast(const KernelContext& context, F f) {
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* x = a.Data<const T>();
  const T* y = b.Data<const T>();
  T* z = out.Data<T>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape,
                          [&](int64_t o, int64_t i, int64_t j) { z[o] = f(x[i], y[j]); });
}

template <typename T>
bool HasZero(const RuntimeTensor& tensor) {
  const T* v = tensor.Data<const T>();
  const int64_t n = tensor.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (v[i] == T{0}) return true;
  }
  return false;
}

template <typename T>
T FloorDivide(T a, T b) {
  return static_cast<T>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
}

template <typename T>
T FloorModulo(T a, T b) {
  T remainder;
  if constexpr (std::is_integral_v<T>) {
    // int64 keeps INT_MIN % -1 (and int8/int16 promotion) defined.
    remainder = static_cast<T>(static_cast<int64_t>(a) % static_cast<int64_t>(b));
  } else {
    remainder = std::fmod(a, b);
  }
  const bool signs_differ = (b < 0) != (remainder < 0);
  return remainder != 0 && signs_differ ? static_cast<T>(remainder + b) : remainder;
}

// Exponentiation by squaring in wrapping 32-bit arithmetic.
int32_t IntegerPow(int32_t base, int32_t exponent) {
  uint32_t result = 1, factor = static_cast<uint32_t>(base);
  for (auto e = static_cast<uint32_t>(exponent); e != 0; e >>= 1) {
    if (e & 1u) result *= factor;
    factor *= factor;
  }
  return static_cast<int32_t>(result);
}

template <typename T>
Status FloorDivTyped(const KernelContext& context) {
  // floor_div.cc refuses any zero divisor, including a float one.
  if (HasZero<T>(context.input(1))) return Status::Error("division by 0");
  MapBroadcast<T>(context, FloorDivide<T>);
  return Status::Ok();
}

template <typename T>
Status FloorModTyped(const KernelContext& context) {
  if (std::is_integral_v<T> && HasZero<T>(context.input(1))) {
    return Status::Error("division by 0");
  }
  MapBroadcast<T>(context, FloorModulo<T>);
  return Status::Ok();
}

}  // namespace

Status PrepareFloorDiv(KernelContext& context) {
  return PrepareSameTypeBinary(context, kFloorDivTypes);
}

Status EvalFloorDiv(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareFloorDiv(context));
  switch (context.input(0).type) {
    case TensorType::kInt32:
      return FloorDivTyped<int32_t>(context);
    case TensorType::kInt16:
      return FloorDivTyped<int16_t>(context);
    case TensorType::kInt8:
      return FloorDivTyped<int8_t>(context);
    default:
      return FloorDivTyped<float>(context);
  }
}

Status PrepareFloorMod(KernelContext& context) {
  return PrepareSameTypeBinary(context, kFloorModTypes);
}

Status EvalFloorMod(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareFloorMod(context));
  switch (context.input(0).type) {
    case TensorType::kInt64:
      return FloorModTyped<int64_t>(context);
    case TensorType::kInt32:
      return FloorModTyped<int32_t>(context);
    case TensorType::kInt16:
      return FloorModTyped<int16_t>(context);
    case TensorType::kInt8:
      return FloorModTyped<int8_t>(context);
    default:
      return FloorModTyped<float>(context);
  }
}

Status PreparePow(KernelContext& context) { return PrepareSameTypeBinary(context, kPowTypes); }

Status EvalPow(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PreparePow(context));
  if (context.input(0).type == TensorType::kFloat32) {
    MapBroadcast<float>(context, [](float a, float b) { return std::pow(a, b); });
    return Status::Ok();
  }
  const RuntimeTensor& exponents = context.input(1);
  for (int64_t i = 0; i < exponents.NumElements(); ++i) {
    if (exponents.Data<const int32_t>()[i] < 0) {
      return Status::Error("an integer to a negative integer power is not supported");
    }
  }
  MapBroadcast<int32_t>(context, IntegerPow);
  return Status::Ok();
}

}  // namespace tfa::runtime
