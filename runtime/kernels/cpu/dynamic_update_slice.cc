#include "runtime/kernels/cpu/dynamic_update_slice.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareDynamicUpdateSlice(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 1));
  const RuntimeTensor& operand = context.input(0);
  const RuntimeTensor& update = context.input(1);
  const RuntimeTensor& start = context.input(2);
  if (update.type != operand.type || context.output(0).type != operand.type)
    return Status::Error("operand, update and output types differ");
  if (start.type != TensorType::kInt32 && start.type != TensorType::kInt64)
    return Status::Error("start indices must be int32 or int64");
  if (update.Rank() != operand.Rank() || start.NumElements() != operand.Rank())
    return Status::Error("operand, update and start indices differ in rank");
  for (int d = 0; d < operand.Rank(); ++d) {
    if (update.Dim(d) > operand.Dim(d))
      return Status::Error("update " + ShapeString(update.shape) + " exceeds operand " +
                           ShapeString(operand.shape));
  }
  return CheckOutputShape(context.output(0), operand.shape);
}

Status EvalDynamicUpdateSlice(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareDynamicUpdateSlice(context));
  const RuntimeTensor& operand = context.input(0);
  const RuntimeTensor& update = context.input(1);
  const RuntimeTensor& start_tensor = context.input(2);
  RuntimeTensor& out = context.output(0);
  const int rank = operand.Rank();
  const size_t element = operand.NumElements() > 0 ? operand.bytes / operand.NumElements() : 0;
  if (out.data != operand.data) std::memcpy(out.data, operand.data, operand.bytes);
  if (update.NumElements() == 0) return Status::Ok();
  std::vector<int64_t> start(static_cast<size_t>(rank));
  std::vector<int64_t> out_stride(static_cast<size_t>(rank), 1);
  for (int d = rank - 1; d >= 0; --d) {
    const auto ud = static_cast<size_t>(d);
    const int64_t raw = start_tensor.type == TensorType::kInt32
                            ? start_tensor.Data<const int32_t>()[d]
                            : start_tensor.Data<const int64_t>()[d];
    start[ud] = std::clamp<int64_t>(raw, 0, operand.Dim(d) - update.Dim(d));
    if (d < rank - 1) out_stride[ud] = out_stride[ud + 1] * operand.Dim(d + 1);
  }
  // Copy rows of the innermost dimension.
  const int64_t row = rank == 0 ? 1 : update.Dim(rank - 1);
  const int64_t rows = update.NumElements() / row;
  std::vector<int32_t> index(static_cast<size_t>(std::max(rank - 1, 0)), 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = rank == 0 ? 0 : start[static_cast<size_t>(rank - 1)];
    for (size_t d = 0; d < index.size(); ++d) offset += (start[d] + index[d]) * out_stride[d];
    std::memcpy(out.data + offset * element, update.data + r * row * element, row * element);
    for (int d = rank - 2; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < update.Dim(d)) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
