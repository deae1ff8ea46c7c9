#include "runtime/kernels/cpu/scatter_nd.h"

#include <cstring>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  const RuntimeTensor& indices = context.input(0);
  const RuntimeTensor& updates = context.input(1);
  const RuntimeTensor& shape = context.input(2);
  switch (updates.type) {
    case TensorType::kFloat32:
    case TensorType::kUInt8:
    case TensorType::kBool:
    case TensorType::kInt8:
    case TensorType::kInt32:
    case TensorType::kInt64:
      break;
    default:
      return Status::Error(std::string("updates of type ") + TensorTypeName(updates.type) +
                           " are not supported");
  }
  if (indices.type != shape.type) return Status::Error("indices and shape must have one type");
  if (indices.type != TensorType::kInt32) {
    return Status::Error(std::string("indices of type ") + TensorTypeName(indices.type) +
                         " are not supported by SCATTER_ND (upstream evaluates int32 only)");
  }
  // Upstream sets the output's type to the updates'; the runtime runs on the model's.
  return CheckType(context.output(0), updates.type, "output");
}

// The output shape from input 2, after upstream's CheckShapes: indices [outer..., ix] and updates
// [outer..., shape[ix:]...].
Result<std::vector<int32_t>> ReadShape(const KernelContext& context) {
  const RuntimeTensor& indices = context.input(0);
  const RuntimeTensor& updates = context.input(1);
  const RuntimeTensor& shape_tensor = context.input(2);
  if (indices.Rank() < 1 || updates.Rank() < 1 || shape_tensor.Rank() != 1) {
    return Status::Error("indices " + ShapeString(indices.shape) + " and updates " +
                         ShapeString(updates.shape) + " need rank 1 or more, shape " +
                         ShapeString(shape_tensor.shape) + " rank 1");
  }
  if (!shape_tensor.data && shape_tensor.NumElements() > 0)
    return Status::Error("shape has no data");
  const int32_t* values = shape_tensor.Data<const int32_t>();
  std::vector<int32_t> shape(values, values + shape_tensor.NumElements());
  for (int32_t d : shape) {
    if (d < 0) return Status::Error("shape " + ShapeString(shape) + " has a negative dimension");
  }
  const int outer = indices.Rank() - 1;
  const auto mismatch = [&] {
    return Status::Error("indices " + ShapeString(indices.shape) + " and updates " +
                         ShapeString(updates.shape) + " do not scatter into " + ShapeString(shape));
  };
  for (int d = 0; d < outer; ++d) {
    if (d >= updates.Rank() || indices.Dim(d) != updates.Dim(d)) return mismatch();
  }
  const int ix = indices.Dim(outer);
  if (updates.Rank() - outer != static_cast<int>(shape.size()) - ix) return mismatch();
  for (int i = 0; i + outer < updates.Rank(); ++i) {
    const size_t at = static_cast<size_t>(ix) + static_cast<size_t>(i);
    if (updates.Dim(i + outer) != shape[at]) return mismatch();
  }
  return shape;
}

// Upstream's WrappingAdd: integers wrap (two's complement), bools OR, floats add.
template <typename T>
T Add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using Unsigned = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<Unsigned>(a) + static_cast<Unsigned>(b));
  } else {
    return a + b;
  }
}

template <typename T>
Status Scatter(const RuntimeTensor& indices, const RuntimeTensor& updates, RuntimeTensor& output) {
  const int outer = indices.Rank() - 1;
  const int nd = indices.Dim(outer);
  int64_t slices = 1, slice_size = 1;
  for (int d = 0; d < outer; ++d) slices *= indices.Dim(d);
  for (int d = outer; d < updates.Rank(); ++d) slice_size *= updates.Dim(d);
  // Elements per step of each indexed dimension (0 where the output is empty).
  const int64_t total = output.NumElements();
  std::vector<int64_t> stride(static_cast<size_t>(nd), 0);
  int64_t remain = total;
  for (int d = 0; d < nd; ++d) {
    const int32_t dim = output.Dim(d);
    stride[static_cast<size_t>(d)] = dim == 0 ? 0 : remain / dim;
    remain = stride[static_cast<size_t>(d)];
  }
  if (slices * slice_size > updates.NumElements())
    return Status::Error("updates hold fewer values than the indices scatter");
  const int32_t* index = indices.Data<const int32_t>();
  const T* in = updates.Data<const T>();
  T* out = output.Data<T>();
  std::memset(out, 0, static_cast<size_t>(total) * sizeof(T));
  for (int64_t s = 0; s < slices; ++s) {
    int64_t position = 0;
    for (int d = 0; d < nd; ++d) {
      const int32_t coordinate = index[s * nd + d];
      if (coordinate < 0 || coordinate >= output.Dim(d)) {
        return Status::Error("index " + std::to_string(coordinate) + " is out of range for " +
                             "dimension " + std::to_string(d) + " of " + ShapeString(output.shape));
      }
      position += coordinate * stride[static_cast<size_t>(d)];
    }
    if (position + slice_size > total) return Status::Error("a slice ends past the output");
    for (int64_t j = 0; j < slice_size; ++j)
      out[position + j] = Add(out[position + j], in[s * slice_size + j]);
  }
  return Status::Ok();
}

}  // namespace

Status PrepareScatterNd(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  // A non-constant shape is only known at Eval (upstream's dynamic output).
  if (!context.input(2).is_constant) return Status::Ok();
  auto shape = ReadShape(context);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalScatterNd(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  auto shape = ReadShape(context);
  if (!shape.ok()) return shape.status();
  RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(
      CheckOutputShape(output, *shape)
          .WithContext(
              "the shape read at Eval differs from the plan's (upstream would resize the output)"));
  const RuntimeTensor& indices = context.input(0);
  const RuntimeTensor& updates = context.input(1);
  switch (updates.type) {
    case TensorType::kFloat32:
      return Scatter<float>(indices, updates, output);
    case TensorType::kUInt8:
      return Scatter<uint8_t>(indices, updates, output);
    case TensorType::kBool:
      return Scatter<bool>(indices, updates, output);
    case TensorType::kInt8:
      return Scatter<int8_t>(indices, updates, output);
    case TensorType::kInt32:
      return Scatter<int32_t>(indices, updates, output);
    case TensorType::kInt64:
      return Scatter<int64_t>(indices, updates, output);
    default:
      return Status::Error(std::string("updates of type ") + TensorTypeName(updates.type) +
                           " are not supported");
  }
}

}  // namespace tfa::runtime
