#include "runtime/kernels/cpu/segment_sum.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& data = context.input(0);
  if (data.type != TensorType::kFloat32 && data.type != TensorType::kInt32) {
    return Status::Error(std::string("data has type ") + TensorTypeName(data.type) +
                         ", expected float32 or int32");
  }
  if (context.input(1).type != TensorType::kInt32) {
    return Status::Error(std::string("segment_ids is ") + TensorTypeName(context.input(1).type) +
                         ", expected int32");
  }
  return CheckType(context.output(0), data.type, "output");
}

// The output shape the ids give, after checking them as upstream's ValidateSegmentIds does.
Result<std::vector<int32_t>> SegmentedShape(const KernelContext& context) {
  const RuntimeTensor& data = context.input(0);
  const RuntimeTensor& ids = context.input(1);
  if (data.Rank() < 1) return Status::Error("data is a scalar");
  TFA_RETURN_IF_ERROR(CheckRank(ids, 1, "segment_ids"));
  if (ids.Dim(0) != data.Dim(0)) {
    return Status::Error("segment_ids has " + std::to_string(ids.Dim(0)) +
                         " values for data of shape " + ShapeString(data.shape));
  }
  if (!ids.data && ids.NumElements() > 0) return Status::Error("segment_ids has no data");
  const int32_t* id = ids.Data<const int32_t>();
  int64_t last = -1;
  for (int64_t i = 0; i < ids.NumElements(); ++i) {
    const int64_t step = static_cast<int64_t>(id[i]) - last;
    if ((i == 0 && id[i] != 0) || (i > 0 && step != 0 && step != 1)) {
      return Status::Error("segment_ids must start at 0 and rise by 0 or 1: id " +
                           std::to_string(id[i]) + " at position " + std::to_string(i) +
                           (i > 0 ? " follows " + std::to_string(last) : std::string()));
    }
    last = id[i];
  }
  std::vector<int32_t> shape = data.shape;
  shape[0] = static_cast<int32_t>(last + 1);
  return shape;
}

// Upstream's WrappingAdd: int32 sums wrap.
int32_t Add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
float Add(float a, float b) { return a + b; }

template <typename T>
void Sum(const RuntimeTensor& data, const RuntimeTensor& ids, RuntimeTensor& output) {
  const int64_t rows = data.Dim(0);
  const int64_t row_size = rows == 0 ? 0 : data.NumElements() / rows;
  const T* in = data.Data<const T>();
  const int32_t* id = ids.Data<const int32_t>();
  T* out = output.Data<T>();
  std::memset(out, 0, static_cast<size_t>(output.NumElements()) * sizeof(T));
  for (int64_t r = 0; r < rows; ++r) {
    T* to = out + static_cast<int64_t>(id[r]) * row_size;
    const T* from = in + r * row_size;
    for (int64_t j = 0; j < row_size; ++j) to[j] = Add(to[j], from[j]);
  }
}

}  // namespace

Status PrepareSegmentSum(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  // Ids that are not constant are only known at Eval (upstream's dynamic output).
  if (!context.input(1).is_constant) return Status::Ok();
  auto shape = SegmentedShape(context);
  if (!shape.ok()) return shape.status();
  return CheckOutputShape(context.output(0), *shape);
}

Status EvalSegmentSum(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  auto shape = SegmentedShape(context);
  if (!shape.ok()) return shape.status();
  RuntimeTensor& output = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(output, *shape)
                          .WithContext("the segment ids read at Eval give another output shape "
                                       "than the plan's (upstream would resize the output)"));
  if (output.type == TensorType::kInt32) {
    Sum<int32_t>(context.input(0), context.input(1), output);
  } else {
    Sum<float>(context.input(0), context.input(1), output);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
