#include "runtime/kernels/cpu/bitwise.h"

#include <array>
#include <climits>
#include <cstdint>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kTypes = {TensorType::kInt8,   TensorType::kUInt8, TensorType::kInt16,
                               TensorType::kUInt16, TensorType::kInt32, TensorType::kUInt32};

struct Xor {
  template <typename T>
  static T Apply(T x, T y) {
    return static_cast<T>(x ^ y);
  }
};

struct ShiftRight {
  template <typename T>
  static T Apply(T x, T y) {
    constexpr T kMaxShift = static_cast<T>(sizeof(T) * CHAR_BIT - 1);
    T shift = y > kMaxShift ? kMaxShift : y;
    if constexpr (std::is_signed_v<T>) shift = shift < 0 ? T(0) : shift;
    return static_cast<T>(x >> shift);
  }
};

template <typename T, typename Function>
void Apply(KernelContext& context) {
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  RuntimeTensor& out = context.output(0);
  const T* x = a.Data<const T>();
  const T* y = b.Data<const T>();
  T* result = out.Data<T>();
  ForEachBroadcastElement(a.shape, b.shape, out.shape, [&](int64_t o, int64_t i, int64_t j) {
    result[o] = Function::template Apply<T>(x[i], y[j]);
  });
}

template <typename Function>
Status EvalByType(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareBitwiseBinary(context));
  switch (context.output(0).type) {
    case TensorType::kInt8:
      Apply<int8_t, Function>(context);
      break;
    case TensorType::kUInt8:
      Apply<uint8_t, Function>(context);
      break;
    case TensorType::kInt16:
      Apply<int16_t, Function>(context);
      break;
    case TensorType::kUInt16:
      Apply<uint16_t, Function>(context);
      break;
    case TensorType::kInt32:
      Apply<int32_t, Function>(context);
      break;
    default:
      Apply<uint32_t, Function>(context);
      break;
  }
  return Status::Ok();
}

}  // namespace

Status PrepareBitwiseBinary(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  TFA_RETURN_IF_ERROR(CheckTypeIn(a, kTypes, "first input"));
  TFA_RETURN_IF_ERROR(CheckType(b, a.type, "second input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), a.type, "output"));
  auto shape = BroadcastShape(a.shape, b.shape);
  if (!shape.ok()) return shape.status();
  if (a.shape != b.shape && shape->size() > 4) {
    return Status::Error("inputs " + ShapeString(a.shape) + " and " + ShapeString(b.shape) +
                         " broadcast over more than 4 dimensions (upstream's 4-D broadcast "
                         "aborts)");
  }
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalBitwiseXor(KernelContext& context) { return EvalByType<Xor>(context); }

Status EvalRightShift(KernelContext& context) { return EvalByType<ShiftRight>(context); }

}  // namespace tfa::runtime
