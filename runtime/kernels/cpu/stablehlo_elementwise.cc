#include "runtime/kernels/cpu/stablehlo_elementwise.h"

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kNumericTypes = {
    TensorType::kFloat16, TensorType::kFloat32, TensorType::kFloat64, TensorType::kInt8,
    TensorType::kInt16,   TensorType::kInt32,   TensorType::kInt64,   TensorType::kUInt8,
    TensorType::kUInt16,  TensorType::kUInt32,  TensorType::kUInt64,  TensorType::kBool};
constexpr std::array kAndTypes = {TensorType::kInt8,   TensorType::kInt16,  TensorType::kInt32,
                                  TensorType::kInt64,  TensorType::kUInt8,  TensorType::kUInt16,
                                  TensorType::kUInt32, TensorType::kUInt64, TensorType::kBool};
constexpr std::array kShiftTypes = {TensorType::kInt8, TensorType::kInt16, TensorType::kInt32};

// Integers wrap as upstream's `a + b` narrowed to the type does; unsigned arithmetic of the same
// width gives those bits without signed overflow.
template <typename T>
using Wide = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;

struct Add {
  static constexpr bool kTakesFloats = true;
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<Wide<T>>(a) + static_cast<Wide<T>>(b));
    } else {
      return static_cast<T>(a + b);
    }
  }
};

struct Multiply {
  static constexpr bool kTakesFloats = true;
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<Wide<T>>(a) * static_cast<Wide<T>>(b));
    } else {
      return static_cast<T>(a * b);
    }
  }
};

// std::max and std::min as written: the first argument unless the comparison picks the second.
struct Maximum {
  static constexpr bool kTakesFloats = true;
  template <typename T>
  static T Apply(T a, T b) {
    return a < b ? b : a;
  }
};

struct Minimum {
  static constexpr bool kTakesFloats = true;
  template <typename T>
  static T Apply(T a, T b) {
    return b < a ? b : a;
  }
};

struct And {
  static constexpr bool kTakesFloats = false;
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else {
      return static_cast<T>(a & b);
    }
  }
};

template <typename T, typename Function>
void Apply(KernelContext& context) {
  const T* a = context.input(0).Data<const T>();
  const T* b = context.input(1).Data<const T>();
  T* out = context.output(0).Data<T>();
  const int64_t n = context.input(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = Function::template Apply<T>(a[i], b[i]);
}

// Upstream's AND refuses the floating types at Eval.
template <typename T, typename Function>
Status ApplyFloating(KernelContext& context) {
  if constexpr (Function::kTakesFloats) {
    Apply<T, Function>(context);
    return Status::Ok();
  } else {
    return Status::Error(std::string(TensorTypeName(context.input(0).type)) +
                         " is not supported for bitwise/logical AND");
  }
}

template <typename Function>
Status EvalByType(KernelContext& context) {
  switch (context.input(0).type) {
    case TensorType::kFloat16:
      return ApplyFloating<Eigen::half, Function>(context);
    case TensorType::kFloat32:
      return ApplyFloating<float, Function>(context);
    case TensorType::kFloat64:
      return ApplyFloating<double, Function>(context);
    case TensorType::kInt8:
      Apply<int8_t, Function>(context);
      break;
    case TensorType::kInt16:
      Apply<int16_t, Function>(context);
      break;
    case TensorType::kInt32:
      Apply<int32_t, Function>(context);
      break;
    case TensorType::kInt64:
      Apply<int64_t, Function>(context);
      break;
    case TensorType::kUInt8:
      Apply<uint8_t, Function>(context);
      break;
    case TensorType::kUInt16:
      Apply<uint16_t, Function>(context);
      break;
    case TensorType::kUInt32:
      Apply<uint32_t, Function>(context);
      break;
    case TensorType::kUInt64:
      Apply<uint64_t, Function>(context);
      break;
    case TensorType::kBool:
      Apply<bool, Function>(context);
      break;
    default:
      return Status::Error(std::string("no kernel for ") + TensorTypeName(context.input(0).type));
  }
  return Status::Ok();
}

// Upstream's ElementwisePrepare: two inputs of one type and one shape; the output takes it. The
// output's type is not checked there, but Eval writes it as the inputs' type.
Status PrepareSameShapes(KernelContext& context, std::span<const TensorType> types) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  TFA_RETURN_IF_ERROR(CheckTypeIn(a, types, "first input"));
  TFA_RETURN_IF_ERROR(CheckType(b, a.type, "second input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), a.type, "output"));
  if (a.shape != b.shape) {
    return Status::Error("inputs " + ShapeString(a.shape) + " and " + ShapeString(b.shape) +
                         " differ in shape (upstream's Prepare requires one shape)");
  }
  return CheckOutputShape(context.output(0), a.shape);
}

template <typename T>
Status ShiftLeft(KernelContext& context) {
  const T* a = context.input(0).Data<const T>();
  const T* b = context.input(1).Data<const T>();
  T* out = context.output(0).Data<T>();
  const int64_t n = context.output(0).NumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (b[i] < 0 || b[i] > 31) {
      return Status::Error("shift " + std::to_string(b[i]) + " at element " + std::to_string(i) +
                           " is outside [0, 31]: upstream's result is undefined");
    }
    // The value promoted to int, shifted, narrowed back: modular, as upstream's build computes.
    const auto shifted = static_cast<uint32_t>(static_cast<int32_t>(a[i])) << b[i];
    out[i] = static_cast<T>(shifted);
  }
  return Status::Ok();
}

}  // namespace

Status PrepareStablehloElementwise(KernelContext& context) {
  return PrepareSameShapes(context, kNumericTypes);
}

Status PrepareStablehloAnd(KernelContext& context) { return PrepareSameShapes(context, kAndTypes); }

Status EvalStablehloAdd(KernelContext& context) { return EvalByType<Add>(context); }
Status EvalStablehloMultiply(KernelContext& context) { return EvalByType<Multiply>(context); }
Status EvalStablehloMaximum(KernelContext& context) { return EvalByType<Maximum>(context); }
Status EvalStablehloMinimum(KernelContext& context) { return EvalByType<Minimum>(context); }
Status EvalStablehloAnd(KernelContext& context) { return EvalByType<And>(context); }

// Upstream's Prepare sets the output's type to the first input's and its shape to the first
// input's, and reads the second input element by element up to the output's count without
// checking its shape: a shorter second input, or an output of another type, is refused here.
Status PrepareStablehloShiftLeft(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& a = context.input(0);
  const RuntimeTensor& b = context.input(1);
  TFA_RETURN_IF_ERROR(CheckTypeIn(a, kShiftTypes, "first input"));
  TFA_RETURN_IF_ERROR(CheckType(b, a.type, "second input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), a.type, "output"));
  if (b.NumElements() < a.NumElements()) {
    return Status::Error("the shifts " + ShapeString(b.shape) + " are fewer than the values " +
                         ShapeString(a.shape) + " (upstream reads past them)");
  }
  return CheckOutputShape(context.output(0), a.shape);
}

Status EvalStablehloShiftLeft(KernelContext& context) {
  switch (context.input(0).type) {
    case TensorType::kInt8:
      return ShiftLeft<int8_t>(context);
    case TensorType::kInt16:
      return ShiftLeft<int16_t>(context);
    default:
      return ShiftLeft<int32_t>(context);
  }
}

}  // namespace tfa::runtime
