#include "runtime/kernels/cpu/add_n.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

template <typename T>
void Sum(const KernelContext& context) {
  RuntimeTensor& out = context.output(0);
  T* y = out.Data<T>();
  const int64_t n = out.NumElements();
  const T* first = context.input(0).Data<const T>();
  std::copy(first, first + n, y);
  for (size_t i = 1; i < context.inputs.size(); ++i) {
    const T* x = context.input(i).Data<const T>();
    for (int64_t e = 0; e < n; ++e) {
      if constexpr (std::is_same_v<T, int32_t>) {
        y[e] = static_cast<int32_t>(static_cast<uint32_t>(y[e]) + static_cast<uint32_t>(x[e]));
      } else {
        y[e] += x[e];
      }
    }
  }
}

}  // namespace

Status PrepareAddN(KernelContext& context) {
  constexpr std::array kTypes = {TensorType::kFloat32, TensorType::kInt32};
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, std::numeric_limits<size_t>::max(), 1));
  const RuntimeTensor& first = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(first, kTypes, "input"));
  for (size_t i = 1; i < context.inputs.size(); ++i) {
    if (!context.inputs[i]) return Status::Error("input " + std::to_string(i) + " is absent");
    TFA_RETURN_IF_ERROR(CheckType(context.input(i), first.type, "input"));
    if (context.input(i).shape != first.shape) {
      return Status::Error("input " + std::to_string(i) + " has shape " +
                           ShapeString(context.input(i).shape) + ", input 0 " +
                           ShapeString(first.shape));
    }
  }
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), first.type, "output"));
  return CheckOutputShape(context.output(0), first.shape);
}

Status EvalAddN(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareAddN(context));
  if (context.input(0).type == TensorType::kInt32) {
    Sum<int32_t>(context);
  } else {
    Sum<float>(context);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
