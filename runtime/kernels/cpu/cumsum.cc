#include "runtime/kernels/cpu/cumsum.h"

#include <array>
#include <cstdint>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kCumsumTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt64};

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(in, kCumsumTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kInt32, "axis"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  if (context.input(1).NumElements() != 1) return Status::Error("axis must have one element");
  if (in.Rank() < 1) return Status::Error("input is a scalar");
  return CheckOutputShape(context.output(0), in.shape);
}

// Sums wrap for integers (unsigned arithmetic keeps that defined).
template <typename T>
T Plus(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using Unsigned = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<Unsigned>(a) + static_cast<Unsigned>(b));
  } else {
    return a + b;
  }
}

// The input seen as [outer, depth, inner] around the axis.
template <typename T>
void RunningSums(const RuntimeTensor& in, int axis, bool exclusive, bool reverse,
                 RuntimeTensor& out) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= in.Dim(d);
  for (int d = axis + 1; d < in.Rank(); ++d) inner *= in.Dim(d);
  const int64_t depth = in.Dim(axis);
  const T* x = in.Data<const T>();
  T* y = out.Data<T>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * depth * inner + i;
      T sum{0};
      for (int64_t k = 0; k < depth; ++k) {
        const int64_t at = base + (reverse ? depth - 1 - k : k) * inner;
        const T value = x[at];
        if (!exclusive) sum = Plus(sum, value);
        y[at] = sum;
        if (exclusive) sum = Plus(sum, value);
      }
    }
  }
}

}  // namespace

Status PrepareCumsum(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  if (!context.input(1).is_constant) return Status::Ok();
  return ResolveAxis(*context.input(1).Data<const int32_t>(), context.input(0).Rank()).status();
}

Status EvalCumsum(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& in = context.input(0);
  if (!context.input(1).data) return Status::Error("axis has no data");
  auto axis = ResolveAxis(*context.input(1).Data<const int32_t>(), in.Rank());
  if (!axis.ok()) return axis.status();
  if (in.NumElements() == 0) return Status::Ok();
  const bool exclusive = context.options().exclusive, reverse = context.options().reverse;
  switch (in.type) {
    case TensorType::kInt32:
      RunningSums<int32_t>(in, *axis, exclusive, reverse, context.output(0));
      break;
    case TensorType::kInt64:
      RunningSums<int64_t>(in, *axis, exclusive, reverse, context.output(0));
      break;
    default:
      RunningSums<float>(in, *axis, exclusive, reverse, context.output(0));
      break;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
