#include "runtime/kernels/cpu/gather.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/whole_byte_elements.h"

namespace tfa::runtime {
namespace {

struct GatherGeometry {
  int axis = 0;
  int batch_dims = 0;  // leading dimensions params and indices share (GatherOptions batch_dims)
};

Result<GatherGeometry> Geometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckWholeByteElements(context.input(0), "input"));
  const RuntimeTensor& params = context.input(0);
  const RuntimeTensor& indices = context.input(1);
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), params.type, "output"));
  if (indices.type != TensorType::kInt32 && indices.type != TensorType::kInt64) {
    return Status::Error("indices must be int32 or int64");
  }
  auto axis = ResolveAxis(context.options().axis, params.Rank());
  if (!axis.ok()) return axis.status();
  int batch_dims = context.options().batch_dims;
  if (batch_dims < 0) batch_dims += indices.Rank();
  if (batch_dims < 0 || batch_dims > *axis || batch_dims > indices.Rank()) {
    return Status::Error("batch_dims " + std::to_string(context.options().batch_dims) +
                         " does not fit the axis and indices");
  }
  for (int d = 0; d < batch_dims; ++d) {
    if (params.Dim(d) != indices.Dim(d)) {
      return Status::Error("params and indices differ in batch dimension " + std::to_string(d));
    }
  }
  std::vector<int32_t> shape(params.shape.begin(), params.shape.begin() + *axis);
  shape.insert(shape.end(), indices.shape.begin() + batch_dims, indices.shape.end());
  shape.insert(shape.end(), params.shape.begin() + *axis + 1, params.shape.end());
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape));
  return GatherGeometry{*axis, batch_dims};
}

}  // namespace

Status PrepareGather(KernelContext& context) { return Geometry(context).status(); }

// With batch_dims, batch b gathers from its own slice of params with its own row of indices
// (tflite/kernels/gather.cc through reference_ops::Gather).
Status EvalGather(KernelContext& context) {
  auto geometry = Geometry(context);
  if (!geometry.ok()) return geometry.status();
  const int axis = geometry->axis;
  const RuntimeTensor& params = context.input(0);
  auto indices = ReadIndexTensor(context.input(1), "indices");
  if (!indices.ok()) return indices.status();
  const uint64_t element = ElementSize(params.type).value_or(0);
  int64_t batches = 1, outer = 1, inner = 1;
  for (int d = 0; d < geometry->batch_dims; ++d) batches *= params.Dim(d);
  for (int d = geometry->batch_dims; d < axis; ++d) outer *= params.Dim(d);
  for (int d = axis + 1; d < params.Rank(); ++d) inner *= params.Dim(d);
  const int64_t axis_size = params.Dim(axis);
  const auto per_batch = static_cast<int64_t>(indices->size()) / batches;
  const uint64_t run = static_cast<uint64_t>(inner) * element;
  uint8_t* out = context.output(0).data;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t k = 0; k < per_batch; ++k) {
        const int64_t index = (*indices)[static_cast<size_t>(b * per_batch + k)];
        if (index < 0 || index >= axis_size)
          return Status::Error("index " + std::to_string(index) + " is out of range");
        const int64_t row = (b * outer + o) * axis_size + index;
        std::memcpy(out, params.data + static_cast<uint64_t>(row) * run, run);
        out += run;
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
