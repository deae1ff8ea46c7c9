#include "runtime/kernels/cpu/reshape.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {

Status PrepareReshape(KernelContext& context) {
  // RESHAPE's shape input and EXPAND_DIMS' axis input only repeat what the planned shape says.
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 2, 1));
  const RuntimeTensor& in = context.input(0);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckType(out, in.type, "output"));
  if (in.NumElements() != out.NumElements() || in.bytes != out.bytes) {
    return Status::Error("input " + ShapeString(in.shape) + " and output " +
                         ShapeString(out.shape) + " hold different element counts");
  }
  return Status::Ok();
}

Status EvalReshape(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareReshape(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  if (out.data != in.data && in.bytes > 0) std::memmove(out.data, in.data, in.bytes);
  return Status::Ok();
}

}  // namespace tfa::runtime
