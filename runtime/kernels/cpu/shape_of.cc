#include "runtime/kernels/cpu/shape_of.h"

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareShapeOf(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& output = context.output(0);
  if (output.type != TensorType::kInt32 && output.type != TensorType::kInt64) {
    return Status::Error(std::string("output type ") + TensorTypeName(output.type) +
                         " is not int32 or int64");
  }
  return CheckOutputShape(output, {context.input(0).Rank()});
}

Status EvalShapeOf(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareShapeOf(context));
  const RuntimeTensor& input = context.input(0);
  RuntimeTensor& output = context.output(0);
  for (int d = 0; d < input.Rank(); ++d) {
    if (output.type == TensorType::kInt32) {
      output.Data<int32_t>()[d] = input.Dim(d);
    } else {
      output.Data<int64_t>()[d] = input.Dim(d);
    }
  }
  return Status::Ok();
}

Status PrepareRank(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kInt32, "output"));
  return CheckOutputShape(context.output(0), {});
}

Status EvalRank(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareRank(context));
  *context.output(0).Data<int32_t>() = context.input(0).Rank();
  return Status::Ok();
}

}  // namespace tfa::runtime
