#include "runtime/kernels/cpu/range.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kRangeTypes = {TensorType::kInt32, TensorType::kInt64, TensorType::kFloat32};

template <typename T>
struct Bounds {
  T start, limit, delta;
};

template <typename T>
Bounds<T> ReadBounds(const KernelContext& context) {
  return {*context.input(0).Data<const T>(), *context.input(1).Data<const T>(),
          *context.input(2).Data<const T>()};
}

// range.cc GetSize, with the count checked against int32 as the output's dimension.
template <typename T>
Result<int32_t> RangeSize(const Bounds<T>& b) {
  if (b.delta == T{0}) return Status::Error("RANGE delta is 0");
  if (!((b.start >= b.limit && b.delta < 0) || (b.start <= b.limit && b.delta > 0))) {
    return Status::Error("RANGE delta points away from the limit");
  }
  double size = 0;
  if constexpr (std::is_integral_v<T>) {
    // In double: |limit - start| of int64 bounds may not fit their type.
    const double span = std::abs(static_cast<double>(b.limit) - static_cast<double>(b.start));
    size = std::ceil(span / std::abs(static_cast<double>(b.delta)));
  } else {
    size = std::ceil(std::abs((b.limit - b.start) / b.delta));
  }
  if (!(size <= std::numeric_limits<int32_t>::max())) {
    return Status::Error("RANGE has more values than an int32 dimension holds");
  }
  return static_cast<int32_t>(size);
}

template <typename T>
Status CheckRangeShape(const KernelContext& context) {
  auto size = RangeSize(ReadBounds<T>(context));
  if (!size.ok()) return size.status();
  return CheckOutputShape(context.output(0), {*size});
}

template <typename T>
void FillRange(const KernelContext& context) {
  const Bounds<T> b = ReadBounds<T>(context);
  T* out = context.output(0).Data<T>();
  const int64_t n = context.output(0).NumElements();
  T value = b.start;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = value;
    if constexpr (std::is_integral_v<T>) {
      using Unsigned = std::make_unsigned_t<T>;
      value = static_cast<T>(static_cast<Unsigned>(value) + static_cast<Unsigned>(b.delta));
    } else {
      value += b.delta;
    }
  }
}

}  // namespace

Status PrepareRange(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  const RuntimeTensor& start = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(start, kRangeTypes, "start"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), start.type, "limit"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(2), start.type, "delta"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), start.type, "output"));
  for (size_t i = 0; i < 3; ++i) {
    if (context.input(i).NumElements() != 1) {
      return Status::Error("RANGE input " + std::to_string(i) + " has shape " +
                           ShapeString(context.input(i).shape) + ", expected a scalar");
    }
    if (!context.input(i).data)
      return Status::Error("RANGE input " + std::to_string(i) + " has no data");
  }
  switch (start.type) {
    case TensorType::kInt32:
      return CheckRangeShape<int32_t>(context);
    case TensorType::kInt64:
      return CheckRangeShape<int64_t>(context);
    default:
      return CheckRangeShape<float>(context);
  }
}

Status EvalRange(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareRange(context));
  switch (context.input(0).type) {
    case TensorType::kInt32:
      FillRange<int32_t>(context);
      break;
    case TensorType::kInt64:
      FillRange<int64_t>(context);
      break;
    default:
      FillRange<float>(context);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
