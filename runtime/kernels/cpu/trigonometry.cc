#include "runtime/kernels/cpu/trigonometry.h"

#include <array>
#include <cmath>

#include "runtime/kernels/cpu/activations.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kAtan2Types = {TensorType::kFloat32, TensorType::kFloat64};

template <typename T>
void Atan2(const KernelContext& context) {
  const T* y = context.input(0).Data<const T>();
  const T* x = context.input(1).Data<const T>();
  T* out = context.output(0).Data<T>();
  const int64_t n = context.input(0).NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = std::atan2(y[i], x[i]);
}

}  // namespace

// std::sin on a float is sinf: the float overload upstream's function pointer resolves to.
Status EvalSin(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::sin(x); });
}

Status EvalCos(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::cos(x); });
}

Status PrepareAtan2(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& y = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(y, kAtan2Types, "y"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), y.type, "x"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), y.type, "output"));
  if (context.input(1).shape != y.shape) {
    return Status::Error("y " + ShapeString(y.shape) + " and x " +
                         ShapeString(context.input(1).shape) + " differ in shape");
  }
  return CheckOutputShape(context.output(0), y.shape);
}

Status EvalAtan2(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareAtan2(context));
  if (context.input(0).type == TensorType::kFloat64) {
    Atan2<double>(context);
  } else {
    Atan2<float>(context);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
