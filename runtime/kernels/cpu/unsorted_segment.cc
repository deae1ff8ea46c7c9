#include "runtime/kernels/cpu/unsorted_segment.h"

#include <algorithm>
#include <array>
#include <limits>
#include <type_traits>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kDataTypes = {TensorType::kFloat32, TensorType::kInt32};

enum class Reduction { kSum, kProd, kMax, kMin };

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  const RuntimeTensor& data = context.input(0);
  const RuntimeTensor& ids = context.input(1);
  const RuntimeTensor& num_segments = context.input(2);
  TFA_RETURN_IF_ERROR(CheckTypeIn(data, kDataTypes, "data"));
  TFA_RETURN_IF_ERROR(CheckType(ids, TensorType::kInt32, "segment_ids"));
  TFA_RETURN_IF_ERROR(CheckType(num_segments, TensorType::kInt32, "num_segments"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), data.type, "output"));
  const bool ids_prefix = ids.Rank() <= data.Rank() &&
                          std::equal(ids.shape.begin(), ids.shape.end(), data.shape.begin());
  if (!ids_prefix) {
    return Status::Error("segment_ids " + ShapeString(ids.shape) +
                         " is not a prefix of the data's shape " + ShapeString(data.shape));
  }
  const bool scalar =
      num_segments.Rank() == 0 || (num_segments.Rank() == 1 && num_segments.Dim(0) == 1);
  if (!scalar) return Status::Error("num_segments must have shape [] or [1]");
  return Status::Ok();
}

// The output shape the ids and num_segments give, after checking every id is below the count.
Result<std::vector<int32_t>> SegmentedShape(const KernelContext& context) {
  const RuntimeTensor& data = context.input(0);
  const RuntimeTensor& ids = context.input(1);
  const RuntimeTensor& num_segments = context.input(2);
  if (!num_segments.data || (!ids.data && ids.NumElements() > 0)) {
    return Status::Error("segment_ids or num_segments has no data");
  }
  const int32_t count = *num_segments.Data<const int32_t>();
  if (count < 0) return Status::Error("num_segments " + std::to_string(count) + " is negative");
  const int32_t* id = ids.Data<const int32_t>();
  for (int64_t i = 0; i < ids.NumElements(); ++i) {
    if (id[i] >= count) {
      return Status::Error("segment id " + std::to_string(id[i]) + " is not below num_segments " +
                           std::to_string(count));
    }
  }
  std::vector<int32_t> shape = {count};
  shape.insert(shape.end(), data.shape.begin() + ids.Rank(), data.shape.end());
  return shape;
}

template <typename T>
T Start(Reduction reduction) {
  switch (reduction) {
    case Reduction::kSum:
      return T{0};
    case Reduction::kProd:
      return T{1};
    case Reduction::kMax:
      return std::numeric_limits<T>::lowest();
    case Reduction::kMin:
      return std::numeric_limits<T>::max();
  }
  return T{0};
}

// Integer sums and products wrap (upstream's WrappingAdd, WrappingMul).
template <typename T>
T Combine(Reduction reduction, T a, T b) {
  switch (reduction) {
    case Reduction::kSum:
      if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
      } else {
        return a + b;
      }
    case Reduction::kProd:
      if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
      } else {
        return a * b;
      }
    case Reduction::kMax:
      return std::max(a, b);
    case Reduction::kMin:
      return std::min(a, b);
  }
  return a;
}

template <typename T>
void Reduce(const KernelContext& context, Reduction reduction) {
  const RuntimeTensor& ids = context.input(1);
  RuntimeTensor& output = context.output(0);
  const int64_t slice =
      output.Rank() == 0 || output.Dim(0) == 0 ? 0 : output.NumElements() / output.Dim(0);
  const T* in = context.input(0).Data<const T>();
  const int32_t* id = ids.Data<const int32_t>();
  T* out = output.Data<T>();
  std::fill(out, out + output.NumElements(), Start<T>(reduction));
  for (int64_t i = 0; i < ids.NumElements(); ++i) {
    if (id[i] < 0) continue;
    T* to = out + static_cast<int64_t>(id[i]) * slice;
    const T* from = in + i * slice;
    for (int64_t j = 0; j < slice; ++j) to[j] = Combine(reduction, to[j], from[j]);
  }
}

template <Reduction kReduction>
Status EvalReduction(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  auto shape = SegmentedShape(context);
  if (!shape.ok()) return shape.status();
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), *shape)
                          .WithContext("the segment ids read at Eval give another output shape "
                                       "than the plan's (upstream would resize the output)"));
  if (context.input(0).type == TensorType::kInt32) {
    Reduce<int32_t>(context, kReduction);
  } else {
    Reduce<float>(context, kReduction);
  }
  return Status::Ok();
}

}  // namespace

Status PrepareUnsortedSegment(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  // Ids or a count that are not constant are only known at Eval (upstream's dynamic output).
  if (!context.input(1).is_constant || !context.input(2).is_constant) return Status::Ok();
  auto shape = SegmentedShape(context);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalUnsortedSegmentSum(KernelContext& context) {
  return EvalReduction<Reduction::kSum>(context);
}
Status EvalUnsortedSegmentProd(KernelContext& context) {
  return EvalReduction<Reduction::kProd>(context);
}
Status EvalUnsortedSegmentMax(KernelContext& context) {
  return EvalReduction<Reduction::kMax>(context);
}
Status EvalUnsortedSegmentMin(KernelContext& context) {
  return EvalReduction<Reduction::kMin>(context);
}

}  // namespace tfa::runtime
