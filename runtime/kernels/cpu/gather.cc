#include "runtime/kernels/cpu/gather.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

Result<int> Axis(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& params = context.input(0);
  const RuntimeTensor& indices = context.input(1);
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), params.type, "output"));
  if (indices.type != TensorType::kInt32 && indices.type != TensorType::kInt64) {
    return Status::Error("indices must be int32 or int64");
  }
  auto axis = ResolveAxis(context.options().axis, params.Rank());
  if (!axis.ok()) return axis.status();
  std::vector<int32_t> shape(params.shape.begin(), params.shape.begin() + *axis);
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), params.shape.begin() + *axis + 1, params.shape.end());
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return *axis;
}

}  // namespace

Status PrepareGather(KernelContext& context) { return Axis(context).status(); }

Status EvalGather(KernelContext& context) {
  auto axis = Axis(context);
  if (!axis.ok()) return axis.status();
  const RuntimeTensor& params = context.input(0);
  auto indices = ReadIndexTensor(context.input(1), "indices");
  if (!indices.ok()) return indices.status();
  const uint64_t element = ElementSize(params.type).value_or(0);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < *axis; ++d) outer *= params.Dim(d);
  for (int d = *axis + 1; d < params.Rank(); ++d) inner *= params.Dim(d);
  const int64_t axis_size = params.Dim(*axis);
  const uint64_t run = static_cast<uint64_t>(inner) * element;
  uint8_t* out = context.output(0).data;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : *indices) {
      if (index < 0 || index >= axis_size)
        return Status::Error("index " + std::to_string(index) + " is out of range");
      std::memcpy(out, params.data + static_cast<uint64_t>(o * axis_size + index) * run, run);
      out += run;
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
